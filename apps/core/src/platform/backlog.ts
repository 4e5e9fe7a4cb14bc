import { type AnyColumn, sql } from 'drizzle-orm';

/** How both stores read a backlog, over the rows still to do: counted, and the oldest of them. */
export const backlogColumns = (createdAt: AnyColumn) => ({
  pending: sql<number>`count(*)`.mapWith(Number),
  oldestQueuedAt: sql<string | null>`min(${createdAt})`,
});

/** How both stores count the open executions at `now`: waiting for a runner (never leased, or the lease expired), or leased. */
export const evalBacklogColumns = ({ status, leaseUntil }: { status: AnyColumn; leaseUntil: AnyColumn }, now: string) => ({
  queued: sql<number>`coalesce(sum(case when ${status} = 'pending' or ${leaseUntil} < ${now} then 1 else 0 end), 0)`.mapWith(Number),
  leased: sql<number>`coalesce(sum(case when ${status} = 'leased' and ${leaseUntil} >= ${now} then 1 else 0 end), 0)`.mapWith(Number),
});
