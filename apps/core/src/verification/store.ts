import type { DeliveryStatus, SenderKind } from '@svc/domain';
import type { Backlog, Claim, HeldItem } from '../platform/outbox.ts';

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
  /** A digest of the Idempotency-Key its last send was asked with, if any. */
  lastSendKey: string | null;
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
  /** Sends that got no answer from the provider (they may have arrived). */
  unanswered: number;
  nextAttemptAt: string;
  lastError: string | null;
  providerMessageId: string | null;
  createdAt: string;
  sentAt: string | null;
  /** The claim of the core sending it, until when no other core takes it. */
  claimId: string | null;
  claimedUntil: string | null;
}

/** A message due to be sent, with the expiry of its code: it is of no use after that. */
export interface DueMessage extends OutboxMessage {
  codeExpiresAt: string;
}

export type NewOutboxMessage = Pick<OutboxMessage, 'id' | 'workspaceId' | 'verificationId' | 'phoneNumber' | 'codeSealed' | 'createdAt'>;

/**
 * A message as queued: pending, due at once, tried never and claimed by no one. Object.assign, not a spread that adds
 * keys: on Node 20 such a literal gets a V8 map of its own each time, about 10 µs a create here.
 */
export const queuedMessage = (message: NewOutboxMessage): OutboxMessage =>
  Object.assign({}, message, {
    status: 'pending' as const,
    attempts: 0,
    unanswered: 0,
    nextAttemptAt: message.createdAt,
    lastError: null,
    providerMessageId: null,
    sentAt: null,
    claimId: null,
    claimedUntil: null,
  });

export interface SenderRecord {
  workspaceId: string;
  kind: SenderKind;
  config: Record<string, string>;
  secretsSealed: string | null;
  updatedAt: string;
}

/** A sender as stored, its clear `config` kept as JSON text. */
export type SenderRow = Omit<SenderRecord, 'config'> & { config: string };

export const senderRow = (sender: SenderRecord): SenderRow => ({ ...sender, config: JSON.stringify(sender.config) });

export const senderRecord = (row: SenderRow): SenderRecord => ({ ...row, config: JSON.parse(row.config) as Record<string, string> });

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

/** Where an Idempotency-Key belongs: one workspace's one operation. */
export interface IdempotencyScope {
  workspaceId: string;
  operation: string;
  key: string;
}

/** An Idempotency-Key as a claim left it: answered (`response`), or held by the request running under `claimId`. */
export interface IdempotencyRecord {
  requestHash: string;
  response: string | null;
  claimId: string | null;
  claimedUntil: string | null;
}

/**
 * Thrown by a create when its number has a pending verification that has not expired (made meanwhile by another
 * create), or by a resend when the verification was sent again meanwhile: nothing of that write is kept.
 */
export class VerificationChanged extends Error {
  constructor(readonly phoneNumber: string) {
    super(`a code was sent to ${phoneNumber} meanwhile`);
    this.name = 'VerificationChanged';
  }
}

/** A fresh code for a pending verification: a resend. */
export interface Resend {
  codeHmac: string;
  expiresAt: string;
  lastSentAt: string;
  deliveryStatus: DeliveryStatus;
  lastSendKey: string | null;
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

/**
 * Thrown by a create given a number limit when the number already had that many sends in the window: nothing of that
 * write is kept.
 */
export class NumberAtLimit extends Error {
  constructor(readonly phoneNumber: string) {
    super(`the sends to ${phoneNumber} are at their limit`);
    this.name = 'NumberAtLimit';
  }
}

/** The sends a number may have had: fewer than `limit` after `since`. */
export interface NumberLimit {
  since: string;
  limit: number;
}

/** What a code check did to a verification, and the state it left it in. */
export interface CodeCheck {
  outcome: 'verified' | 'failed' | 'none';
  verification: Pick<PhoneVerification, 'status' | 'failedAttempts' | 'expiresAt'>;
}

export interface SendState {
  pending: PhoneVerification | undefined;
  recentSendTimes: string[];
}

export interface MessagingStore {
  verifications: {
    /**
     * Inserts the verification and, in the same transaction, its outbox message (none for a test number),
     * counted in the workspace's hour unless that hour already has `hourlyLimit` (then HourlyLimitReached).
     * A number has one pending verification: when it has one that has not expired at the new one's `createdAt`,
     * this throws VerificationChanged, also against creates that run at the same time in other cores. Given a
     * `numberLimit`, a number that had its limit of sends in the window throws NumberAtLimit: so a create that has
     * not read the number's state (`sendState`) first writes only what that state would have allowed.
     */
    create(
      verification: PhoneVerification,
      message: NewOutboxMessage | null,
      hourlyLimit: number,
      numberLimit?: NumberLimit,
    ): Promise<void>;
    /**
     * Updates the verification with a fresh code, supersedes its unsent messages and queues the new one, atomically;
     * counted as by `create`. Only while its last send is still `lastSentBefore` (the one the caller read):
     * otherwise another resend won and this throws VerificationChanged.
     */
    resend(id: string, lastSentBefore: string, resend: Resend, message: NewOutboxMessage | null, hourlyLimit: number): Promise<void>;
    get(workspaceId: string, id: string): Promise<PhoneVerification | undefined>;
    /**
     * What a create decides by, read at once: the number's pending verification that has not expired at `now`, and
     * the newest `limit` send times to the number after `since`, newest first.
     */
    sendState(workspaceId: string, phoneNumber: string, now: string, since: string, limit: number): Promise<SendState>;
    /**
     * Checks a code, atomically: while the workspace's verification `id` is pending and unexpired at `at`, the code's
     * HMAC verifies it if it is the verification's, and counts a failed attempt otherwise, blocking it at the
     * `blockAt`-th. Answers what the check did ('none' when the verification was no longer pending or had expired)
     * and the state it left; undefined when the workspace has no verification `id`.
     */
    check(workspaceId: string, id: string, codeHmac: string, at: string, blockAt: number): Promise<CodeCheck | undefined>;
  };
  outbox: {
    /** Messages queued by the workspace in the clock hour starting at `hour` (each queued message counts). */
    sendsInHour(workspaceId: string, hour: string): Promise<number>;
    /** Pending messages due at `now`, claimed or not: what is left to send. */
    due(now: string, limit: number): Promise<DueMessage[]>;
    /** The pending messages, due or waiting for a retry. */
    backlog(): Promise<Backlog>;
    /**
     * Claims up to `limit` pending messages due at `claim.now` that no claim holds past it, oldest due first, until
     * `claim.until`: another claimer gets none of them before then, even in another core.
     */
    claim(claim: Claim, limit: number): Promise<DueMessage[]>;
    /**
     * Records a delivery outcome on the message and on its verification, atomically, when the claim `claimId` still
     * holds the message; answers false, changing nothing, when it does not (it ended and another claimer took it).
     */
    markSent(id: string, claimId: string, providerMessageId: string, at: string): Promise<boolean>;
    /** Sets the message to be tried at `nextAttemptAt`, counting a send that got no answer when `unanswered`. */
    markRetry(id: string, claimId: string, nextAttemptAt: string, error: string, unanswered: boolean): Promise<boolean>;
    /**
     * Extends to `until` the claims that still hold the messages (each its own `claimId`), expired or not; answers
     * the ids of the messages whose claims it extended.
     */
    renew(held: HeldItem[], until: string): Promise<string[]>;
    /**
     * In the moment before a send: extends the claim `claimId` on the message to `until` and answers 'held' while it
     * holds it; 'lost' when it does not (another claimer took it, or it was superseded); 'settled' when it holds it
     * but the message's verification is no longer pending at `now` (verified, blocked or expired): its code is of no use.
     */
    confirm(id: string, claimId: string, now: string, until: string): Promise<'held' | 'lost' | 'settled'>;
    markFailed(id: string, claimId: string, error: string, at: string): Promise<boolean>;
    /**
     * Records the workspace's message `id` sent, as `providerMessageId` at the provider, on the provider's own word (a
     * status callback that names it) while it is pending, whatever claim holds it: a send that got no answer did
     * arrive. Its verification's delivery becomes `sent` while it is `queued`. Answers whether it was pending.
     */
    settle(workspaceId: string, id: string, providerMessageId: string, at: string): Promise<boolean>;
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
    /** The answer stored for a key at or after `since`; none while the key's request runs. */
    get(scope: IdempotencyScope, since: string): Promise<StoredResponse | undefined>;
    /**
     * Claims a key for a request (one insert): unless the key has an answer stored at or after `since`, or is held
     * by a claim that lasts past `claim.now`, it becomes this claim's until `claim.until`. Answers the key as it is
     * after the attempt: the caller runs the request when `claimId` is its own.
     */
    claim(scope: IdempotencyScope, requestHash: string, claim: Claim, since: string): Promise<IdempotencyRecord>;
    /** Stores the final answer of the claimed key; false when the claim is not this one any more. */
    answer(scope: IdempotencyScope, claimId: string, response: string, at: string): Promise<boolean>;
    /** Extends the claim `claimId` on an unanswered key to `until`; false when the key is not its any more. */
    renew(scope: IdempotencyScope, claimId: string, until: string): Promise<boolean>;
    /** Gives a claimed key up unanswered, so that a retry runs afresh. */
    release(scope: IdempotencyScope, claimId: string): Promise<void>;
    /** Deletes at most `limit` records stored before `before`; answers how many. */
    purge(before: string, limit: number): Promise<number>;
  };
}
