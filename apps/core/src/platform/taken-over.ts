import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * A message's count of unanswered sends as a claim takes it, the same on both stores: one more when it takes over a
 * claim that ended unfinished, since the core that held it may have sent it and died or froze before it could record
 * the send.
 */
export const takenOver = (outbox: { unanswered: SQLWrapper; claimId: SQLWrapper }): SQL<number> =>
  sql<number>`${outbox.unanswered} + (case when ${outbox.claimId} is null then 0 else 1 end)`;
