import { index, primaryKey, table, text } from '../platform/tables/define.ts';

// The daily digest's table: its claims.
// Written once for both stores: `pnpm db:generate` writes src/store/{sqlite,postgres}/schema.ts from it, then
// the migrations (see src/platform/tables/define.ts).

/**
 * The daily digest's claims: one row per workspace and day (in the digest's time zone), inserted before anything is
 * sent, so the day's mail goes out at most once whatever number of cores run the schedule.
 */
export const digestDays = table('digest_days', {
  columns: {
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    /** `YYYY-MM-DD` in the digest's time zone. */
    day: text('day').notNull(),
    claimedAt: text('claimed_at').notNull(),
    /** When the day's mail went to the mail outbox; null when there was nothing new to mail. */
    mailedAt: text('mailed_at'),
  },
  indexes: (t) => [primaryKey(t.workspaceId, t.day), index('digest_days_mailed_idx').on(t.workspaceId, t.mailedAt)],
});
