import type { AgentsStore } from '../agents-store.ts';
import type { PgDb } from './database.ts';
import { notBuilt } from './not-built.ts';
import type { Transact } from './transaction.ts';

export function createPostgresAgents(_db: PgDb, _transact: Transact): AgentsStore {
  return notBuilt<AgentsStore>('agents', ['versions', 'environments', 'secrets', 'chats']);
}
