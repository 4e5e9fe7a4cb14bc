import type { MessagingStore } from '../messaging-store.ts';
import type { PgDb } from './database.ts';
import { notBuilt } from './not-built.ts';
import type { Transact } from './transaction.ts';

export function createPostgresMessaging(_db: PgDb, _transact: Transact): MessagingStore {
  return notBuilt<MessagingStore>('messaging', ['verifications', 'outbox', 'senders', 'testNumbers', 'devMessages', 'idempotency']);
}
