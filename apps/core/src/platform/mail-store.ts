import type { Backlog, Claim, HeldItem } from './outbox.ts';

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

/** The mail outbox, and local mode's dev mailbox. */
export interface MailStore {
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
