import { join } from 'node:path';
import { dropPostgresDatabase, dropPostgresDatabases, migratedPostgresDatabases } from '@svc/testkit';
import { afterAll } from 'vitest';
import { createPostgresStore } from '../src/postgres-store.ts';
import { createSqliteStore } from '../src/sqlite-store.ts';
import type { Store } from '../src/store.ts';
import { tempDir } from './temp-dir.ts';

export type StoreKind = 'sqlite' | 'postgres';

afterAll(dropPostgresDatabases);

/** The database of each PostgreSQL store opened here, dropped when it closes. */
const databases = new WeakMap<Store, string>();

/** A new PostgreSQL database with core's tables: a copy of one this test file migrated once. */
export const migratedPostgresDatabase = migratedPostgresDatabases(async (url) => (await createPostgresStore(url)).close());

/**
 * The stores of `count` cores on one new database. PostgreSQL: a store (a connection pool) per core, as separate
 * core processes have. SQLite: one store they share, as one SQLite file cannot be opened twice in one process.
 */
export async function openCoreStores(kind: StoreKind, count: number): Promise<Store[]> {
  if (kind === 'sqlite') return Array(count).fill(createSqliteStore(join(tempDir(), 'svc.db'))) as Store[];
  const url = await migratedPostgresDatabase();
  const stores = [
    await createPostgresStore(url),
    ...(await Promise.all(Array.from({ length: count - 1 }, () => createPostgresStore(url)))),
  ];
  for (const store of stores) databases.set(store, url);
  return stores;
}

/** Closes each store once, however many cores share it, and drops its PostgreSQL database. */
export async function closeStores(stores: Store[]): Promise<void> {
  await Promise.all([...new Set(stores)].map((store) => store.close()));
  const urls = new Set(stores.map((store) => databases.get(store)).filter((url) => url !== undefined));
  await Promise.all([...urls].map(dropPostgresDatabase));
}

/** A store on a new PostgreSQL database, dropped when the store closes. */
export async function openPostgresTestStore(): Promise<Store> {
  const url = await migratedPostgresDatabase();
  const store = await createPostgresStore(url);
  return { ...store, close: () => store.close().then(() => dropPostgresDatabase(url)) };
}

/** The store of a service test: SQLite, or a new PostgreSQL database when SVC_TEST_STORE=postgres. */
export async function openTestStore(): Promise<Store> {
  return process.env.SVC_TEST_STORE === 'postgres' ? openPostgresTestStore() : createSqliteStore(join(tempDir(), 'svc.db'));
}
