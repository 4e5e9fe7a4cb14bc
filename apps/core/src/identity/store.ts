import type { MailStore, NewMail } from '../platform/mail-store.ts';

export interface DeviceAuthorizationRecord {
  id: string;
  deviceCodeHash: string;
  /** The user code's HMAC (see device-auth.ts); null in rows of earlier versions, which kept the code in the clear. */
  userCodeHash: string | null;
  status: 'pending' | 'approved' | 'denied' | 'spent';
  intervalSeconds: number;
  lastPolledAt: string | null;
  expiresAt: string;
  clientName: string;
  clientHostname: string | null;
  clientIp: string | null;
  clientUserAgent: string | null;
  email: string | null;
  userId: string | null;
  tokenId: string | null;
  decidedAt: string | null;
  createdAt: string;
}

export interface SessionRecord {
  id: string;
  tokenHash: string;
  userId: string;
  csrfToken: string;
  expiresAt: string;
  createdAt: string;
}

export interface LoginLinkRecord {
  id: string;
  tokenHash: string;
  email: string;
  next: string;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
}

/** The sign-in records; the mails they send go through the mail outbox (`MailStore`), in the same transactions. */
export interface AuthStore extends MailStore {
  deviceAuthorizations: {
    /** Inserts the authorization, and its sign-in mail and link when there is one, in one transaction. */
    create(record: DeviceAuthorizationRecord, mail?: { link: LoginLinkRecord; mail: NewMail }): Promise<void>;
    findByDeviceCodeHash(hash: string): Promise<DeviceAuthorizationRecord | undefined>;
    findByUserCodeHash(hash: string): Promise<DeviceAuthorizationRecord | undefined>;
    update(id: string, changes: Partial<DeviceAuthorizationRecord>): Promise<void>;
    /** Records the decision of a pending authorization; false when it was no longer pending. */
    decide(id: string, status: 'approved' | 'denied', userId: string, at: string): Promise<boolean>;
    /** Marks an approved authorization spent with the token it produced; false when it was not approved. */
    spend(id: string, tokenId: string): Promise<boolean>;
    /** Deletes at most `limit` authorizations that expired before `before`; answers how many. */
    purgeExpired(before: string, limit: number): Promise<number>;
  };
  sessions: {
    create(session: SessionRecord): Promise<void>;
    findByTokenHash(hash: string, now: string): Promise<SessionRecord | undefined>;
    delete(tokenHash: string): Promise<void>;
    /** Deletes at most `limit` sessions that expired at or before `before`; answers how many. */
    purgeExpired(before: string, limit: number): Promise<number>;
  };
  loginLinks: {
    /** Inserts the link and its mail in one transaction. */
    create(link: LoginLinkRecord, mail: NewMail): Promise<void>;
    findByTokenHash(hash: string): Promise<LoginLinkRecord | undefined>;
    /** Marks an unused link used; false when it was used already. */
    use(id: string, at: string): Promise<boolean>;
    /** Deletes at most `limit` links that expired before `before`; answers how many. */
    purgeExpired(before: string, limit: number): Promise<number>;
  };
}
