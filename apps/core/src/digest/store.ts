import type { NewMail } from '../platform/mail-store.ts';

/** The daily digest's record of one workspace and day: claimed before anything is sent, so it happens once. */
export interface DigestDayRecord {
  workspaceId: string;
  /** `YYYY-MM-DD` in the digest's time zone. */
  day: string;
  claimedAt: string;
  /** When the mail went to the outbox; null when there was nothing new to mail. */
  mailedAt: string | null;
}

/** The daily digest's claims. */
export interface DigestStore {
  digestDays: {
    /** Claims a workspace's day; false when some core claimed it before. */
    claim(day: DigestDayRecord): Promise<boolean>;
    /** The latest day a digest mail went out for the workspace, and when. */
    lastMailed(workspaceId: string): Promise<DigestDayRecord | undefined>;
    /** Records the day's mail as sent, inserting its mails into the mail outbox in the same transaction. */
    markMailed(workspaceId: string, day: string, at: string, mails: NewMail[]): Promise<void>;
    /**
     * Deletes at most `limit` days before `day`, but never a workspace's latest mailed day (where its next mail's new
     * flags start); answers how many.
     */
    purgeBefore(day: string, limit: number): Promise<number>;
  };
}
