import { index, integer, sql, table, text } from './tables/define.ts';

// The tables every domain shares: the mail outbox and local mode's dev mailbox.
// Written once for both stores: `pnpm db:generate` writes src/store/{sqlite,postgres}/schema.ts from it, then
// the migrations (see src/platform/tables/define.ts).

/** Mails to send, written in the same transaction as what they announce. */
export const mailOutbox = table('mail_outbox', {
  columns: {
    id: text('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    /** Text and HTML bodies, encrypted: they carry sign-in links. Cleared once sent. */
    bodySealed: text('body_sealed'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    sentAt: text('sent_at'),
    /** Until when the mail is worth sending, when its link outlives a sign-in link's 15 minutes (an invitation). */
    deliverUntil: text('deliver_until'),
    /** Who is sending it and until when, as for messages. */
    claimId: text('claim_id'),
    claimedUntil: text('claimed_until'),
  },
  indexes: (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    // Retention: the mails done with, by age.
    index('mail_outbox_finished_idx')
      .on(t.createdAt)
      .where(sql`${t.status} <> 'pending'`),
  ],
});

/** Local mode's dev mailbox: mails kept instead of sent when no SMTP_URL is set. */
export const devMails = table('dev_mails', {
  columns: {
    id: text('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: text('created_at').notNull(),
  },
});
