import type { DeliveryStatus, SenderKind } from '@svc/domain';

const hourMs = 3_600_000;

/** The start of the clock hour an ISO time falls in: how the workspace's hourly send counter is keyed. */
export const hourOf = (iso: string): string => new Date(Math.floor(Date.parse(iso) / hourMs) * hourMs).toISOString();

export interface PhoneVerification {
  id: string;
  workspaceId: string;
  phoneNumber: string;
  codeHmac: string;
  status: 'pending' | 'verified' | 'blocked';
  failedAttempts: number;
  sendCount: number;
  testNumber: boolean;
  expiresAt: string;
  lastSentAt: string;
  verifiedAt: string | null;
  deliveryStatus: DeliveryStatus;
  deliveryError: string | null;
  deliveryUpdatedAt: string;
  createdAt: string;
}

export interface OutboxMessage {
  id: string;
  workspaceId: string;
  verificationId: string;
  phoneNumber: string;
  codeSealed: string | null;
  status: 'pending' | 'sent' | 'failed' | 'superseded';
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  providerMessageId: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** A message due to be sent, with the expiry of its code: it is of no use after that. */
export interface DueMessage extends OutboxMessage {
  codeExpiresAt: string;
}

export type NewOutboxMessage = Pick<OutboxMessage, 'id' | 'workspaceId' | 'verificationId' | 'phoneNumber' | 'codeSealed' | 'createdAt'>;

export interface SenderRecord {
  workspaceId: string;
  kind: SenderKind;
  config: Record<string, string>;
  secretsSealed: string | null;
  updatedAt: string;
}

export interface TestNumber {
  phoneNumber: string;
  codeSealed: string;
}

export interface DevMessage {
  id: string;
  workspaceId: string;
  to: string;
  body: string;
  verificationId: string;
  createdAt: string;
}

export interface StoredResponse {
  requestHash: string;
  response: string;
}

/** A fresh code for a pending verification: a resend. */
export interface Resend {
  codeHmac: string;
  expiresAt: string;
  lastSentAt: string;
  deliveryStatus: DeliveryStatus;
}

/**
 * Thrown by a write that queues a message when its workspace has already queued `hourlyLimit` in the message's
 * hour: nothing of that write is kept.
 */
export class HourlyLimitReached extends Error {
  constructor(readonly hour: string) {
    super(`the workspace's sends for the hour of ${hour} are used up`);
    this.name = 'HourlyLimitReached';
  }
}

export interface MessagingStore {
  verifications: {
    /**
     * Inserts the verification and, in the same transaction, its outbox message (none for a test number),
     * counted in the workspace's hour unless that hour already has `hourlyLimit` (then HourlyLimitReached).
     */
    create(verification: PhoneVerification, message: NewOutboxMessage | null, hourlyLimit: number): Promise<void>;
    /**
     * Updates the verification with a fresh code, supersedes its unsent messages and queues the new one, atomically;
     * counted as by `create`.
     */
    resend(id: string, resend: Resend, message: NewOutboxMessage | null, hourlyLimit: number): Promise<PhoneVerification>;
    get(workspaceId: string, id: string): Promise<PhoneVerification | undefined>;
    findPending(workspaceId: string, phoneNumber: string, now: string): Promise<PhoneVerification | undefined>;
    /**
     * Counts one more failed attempt of a pending verification, blocking it at the `blockAt`-th; returns it after
     * the update, or undefined when it was no longer pending (verified or blocked meanwhile: nothing counted).
     */
    recordFailedAttempt(id: string, blockAt: number): Promise<PhoneVerification | undefined>;
    /** Marks a pending verification verified; false when it was no longer pending. */
    markVerified(id: string, at: string): Promise<boolean>;
  };
  outbox: {
    /** The newest `limit` send times to a number after a moment, newest first. */
    recentSendTimes(workspaceId: string, phoneNumber: string, since: string, limit: number): Promise<string[]>;
    /** Messages queued by the workspace in the clock hour starting at `hour` (each queued message counts). */
    sendsInHour(workspaceId: string, hour: string): Promise<number>;
    due(now: string, limit: number): Promise<DueMessage[]>;
    /** Records a delivery outcome on the message and on its verification, atomically. */
    markSent(id: string, providerMessageId: string, at: string): Promise<void>;
    markRetry(id: string, nextAttemptAt: string, error: string): Promise<void>;
    markFailed(id: string, error: string, at: string): Promise<void>;
    /** The verification a provider's message id belongs to. */
    findByProviderMessageId(providerMessageId: string): Promise<OutboxMessage | undefined>;
    setDeliveryStatus(verificationId: string, status: DeliveryStatus, error: string | null, at: string): Promise<void>;
    /** Deletes at most `limit` messages queued before `before` that are no longer pending; answers how many. */
    purgeFinished(before: string, limit: number): Promise<number>;
    /** Deletes at most `limit` hourly send counts of hours that began before `before`; answers how many. */
    purgeHourlyCounts(before: string, limit: number): Promise<number>;
  };
  senders: {
    get(workspaceId: string): Promise<SenderRecord | undefined>;
    put(sender: SenderRecord): Promise<void>;
    /** Senders whose clear `config` holds `field`: one written before that field counted as a secret. */
    withClearField(field: string): Promise<SenderRecord[]>;
  };
  testNumbers: {
    list(workspaceId: string): Promise<TestNumber[]>;
    replace(workspaceId: string, numbers: TestNumber[], at: string): Promise<void>;
  };
  devMessages: {
    add(message: DevMessage): Promise<void>;
    list(limit: number): Promise<DevMessage[]>;
    /** Deletes all but the newest `kept`; answers how many. */
    keepNewest(kept: number): Promise<number>;
  };
  idempotency: {
    get(workspaceId: string, operation: string, key: string, since: string): Promise<StoredResponse | undefined>;
    put(workspaceId: string, operation: string, key: string, stored: StoredResponse, at: string): Promise<void>;
    /** Deletes at most `limit` records stored before `before`; answers how many. */
    purge(before: string, limit: number): Promise<number>;
  };
}
