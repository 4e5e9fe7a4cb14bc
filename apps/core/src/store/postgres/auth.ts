import type { AuthStore } from '../auth-store.ts';
import type { PgDb } from './database.ts';
import { notBuilt } from './not-built.ts';
import type { Transact } from './transaction.ts';

export function createPostgresAuth(_db: PgDb, _transact: Transact): AuthStore {
  return notBuilt<AuthStore>('auth', ['deviceAuthorizations', 'sessions', 'loginLinks', 'mails', 'devMails']);
}
