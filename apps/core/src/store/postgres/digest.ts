import type { DigestStore } from '../automation-store.ts';
import type { PgDb } from './database.ts';
import { notBuilt } from './not-built.ts';
import type { Transact } from './transaction.ts';

export function createPostgresDigest(_db: PgDb, _transact: Transact): DigestStore {
  return notBuilt<DigestStore>('digest', ['digestDays']);
}
