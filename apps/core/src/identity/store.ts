import type { Backlog, Claim, HeldItem } from '../verification/store.ts';

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

export interface MailRecord {
  id: string;
  to: string;
  subject: string;
  bodySealed: string | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  /** Until when it is worth sending; null for a sign-in mail, whose link works for 15 minutes. */
  deliverUntil: string | null;
  /** The claim of the core sending it, until when no other core takes it. */
  claimId: string | null;
  claimedUntil: string | null;
}

export type NewMail = Pick<MailRecord, 'id' | 'to' | 'subject' | 'bodySealed' | 'createdAt'> & Partial<Pick<MailRecord, 'deliverUntil'>>;

export interface DevMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
}

export interface AuthStore {
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
  mails: {
    /** Pending mails due at `now`, claimed or not: what is left to send. */
    due(now: string, limit: number): Promise<MailRecord[]>;
    /** The pending mails, due or waiting for a retry. */
    backlog(): Promise<Backlog>;
    /** Claims due mails as `outbox.claim` claims messages. */
    claim(claim: Claim, limit: number): Promise<MailRecord[]>;
    /** Record an outcome as `outbox.markSent` etc. do: only under the claim `claimId`, answering whether it applied. */
    markSent(id: string, claimId: string, at: string): Promise<boolean>;
    markRetry(id: string, claimId: string, nextAttemptAt: string, error: string): Promise<boolean>;
    markFailed(id: string, claimId: string, error: string): Promise<boolean>;
    /** Extends claims as `outbox.renew` does; answers the ids of the mails whose claims it extended. */
    renew(held: HeldItem[], until: string): Promise<string[]>;
    /** Deletes at most `limit` mails queued before `before` that are no longer pending; answers how many. */
    purgeFinished(before: string, limit: number): Promise<number>;
  };
  devMails: {
    add(mail: DevMail): Promise<void>;
    list(limit: number): Promise<DevMail[]>;
    /** Deletes all but the newest `kept`; answers how many. */
    keepNewest(kept: number): Promise<number>;
  };
}
