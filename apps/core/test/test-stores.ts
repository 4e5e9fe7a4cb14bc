import { join } from 'node:path';
import { createPostgresDatabase, dropPostgresDatabases } from '@svc/testkit';
import { afterAll } from 'vitest';
import { createPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../src/store/store.ts';
import { tempDir } from './temp-dir.ts';

export type StoreKind = 'sqlite' | 'postgres';

afterAll(dropPostgresDatabases);

let migrated: Promise<string> | undefined;

/** A new PostgreSQL database with core's tables: a copy of one this test file migrated once. */
export async function migratedPostgresDatabase(): Promise<string> {
  migrated ??= (async () => {
    const url = await createPostgresDatabase();
    await (await createPostgresStore(url)).close();
    return url;
  })();
  return createPostgresDatabase(await migrated);
}

/**
 * The stores of `count` cores on one new database. PostgreSQL: a store (a connection pool) per core, as separate
 * core processes have. SQLite: one store they share, as one SQLite file cannot be opened twice in one process.
 */
export async function openCoreStores(kind: StoreKind, count: number): Promise<Store[]> {
  if (kind === 'sqlite') return Array(count).fill(createSqliteStore(join(tempDir(), 'svc.db'))) as Store[];
  const url = await migratedPostgresDatabase();
  const first = await createPostgresStore(url);
  return [first, ...(await Promise.all(Array.from({ length: count - 1 }, () => createPostgresStore(url))))];
}

/** Closes each store once, however many cores share it. */
export const closeStores = (stores: Store[]) => Promise.all([...new Set(stores)].map((store) => store.close()));

/** The store of a service test: SQLite, or a new PostgreSQL database when SVC_TEST_STORE=postgres. */
export async function openTestStore(): Promise<Store> {
  const [store] = await openCoreStores(process.env.SVC_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite', 1);
  return store!;
}
