import type { FlagsStore } from '../flags-store.ts';
import type { PgDb } from './database.ts';
import { notBuilt } from './not-built.ts';
import type { Transact } from './transaction.ts';

export function createPostgresFlags(_db: PgDb, _transact: Transact): FlagsStore {
  return notBuilt<FlagsStore>('flags', ['flags']);
}
