import type { NewMail } from './mail-store.ts';

/** The outbox row of a new mail, for either store: pending, due at once, no core's claim yet. */
export const mailRow = (mail: NewMail) => ({
  ...mail,
  status: 'pending' as const,
  attempts: 0,
  nextAttemptAt: mail.createdAt,
  claimId: null,
  claimedUntil: null,
});
