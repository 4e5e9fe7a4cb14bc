import type { EvalsStore } from '../evals-store.ts';
import type { PgDb } from './database.ts';
import { notBuilt } from './not-built.ts';
import type { Transact } from './transaction.ts';

export function createPostgresEvals(_db: PgDb, _transact: Transact): EvalsStore {
  return notBuilt<EvalsStore>('evals', ['evalCases', 'evalRuns', 'evalWork']);
}
