import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * Outbox rows done with (sent, failed or superseded) and queued before `before`: what retention deletes. The status is
 * a literal, as in the partial index `*_finished_idx` the condition is read through, which a bound value would not match.
 */
export const finishedBefore = (status: SQLWrapper, createdAt: SQLWrapper, before: string): SQL =>
  sql`${status} <> 'pending' and ${createdAt} < ${before}`;
