import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Transact } from './transaction.ts';

/**
 * Deletes at most `limit` rows of `table` that match `where`, in one transaction, and answers how many: a purge of
 * a long backlog runs as many short transactions, so the writes of requests are not held up behind one long one.
 */
export function purgeRows(transact: Transact, table: PgTable, where: SQL, limit: number): Promise<number> {
  return transact(
    async (tx) =>
      (await tx.execute(sql`delete from ${table} where ctid in (select ctid from ${table} where ${where} limit ${limit})`)).rowCount ?? 0,
    { isolation: 'read committed' },
  );
}

/** Deletes every row of `table` but the newest `kept` by `createdAt` (then id), and answers how many. */
export function keepNewestRows(transact: Transact, table: PgTable, kept: number): Promise<number> {
  return transact(
    async (tx) =>
      (
        await tx.execute(
          sql`delete from ${table} where ctid not in (select ctid from ${table} order by created_at desc, id desc limit ${kept})`,
        )
      ).rowCount ?? 0,
    { isolation: 'read committed' },
  );
}
