import type { Store } from '../src/store.ts';

/** A new, empty store for each test of a contract: SQLite in a new file, PostgreSQL in a new database. */
export type OpenStore = () => Store | Promise<Store>;
