import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { SqliteDb } from './database.ts';
import type { Write } from './group-commit.ts';

/**
 * Deletes at most `limit` rows of `table` that match `where`, in one write, and answers how many: a purge of a long
 * backlog runs as many short writes, so the writes of requests are not held up behind one long one.
 */
export function purgeRows(db: SqliteDb, write: Write, table: SQLiteTable, where: SQL, limit: number): Promise<number> {
  return write(() => db.run(sql`delete from ${table} where rowid in (select rowid from ${table} where ${where} limit ${limit})`).changes);
}

/** Deletes every row of `table` but the newest `kept` by `createdAt` (then id), and answers how many. */
export function keepNewestRows(db: SqliteDb, write: Write, table: SQLiteTable, kept: number): Promise<number> {
  return write(
    () =>
      db.run(sql`delete from ${table} where rowid not in (select rowid from ${table} order by created_at desc, id desc limit ${kept})`)
        .changes,
  );
}
