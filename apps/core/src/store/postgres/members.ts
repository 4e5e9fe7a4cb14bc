import type { MembersStore } from '../members-store.ts';
import type { PgDb } from './database.ts';
import { notBuilt } from './not-built.ts';
import type { Transact } from './transaction.ts';

export function createPostgresMembers(_db: PgDb, _transact: Transact): MembersStore {
  return notBuilt<MembersStore>('members', ['members', 'invitations']);
}
