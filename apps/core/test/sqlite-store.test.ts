import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { describeMoreStoreContract } from './store-contract-more.ts';
import { describeStoreContract } from './store-contract.ts';
import { describeSenderStoreContract } from './store-contract-senders.ts';
import { tempDir } from './temp-dir.ts';

const tempFile = () => join(tempDir(), 'svc.db');

describeStoreContract('sqlite', () => createSqliteStore(tempFile()));
describeMoreStoreContract('sqlite', () => createSqliteStore(tempFile()));
describeSenderStoreContract('sqlite', () => createSqliteStore(tempFile()));

it('opens the database in WAL mode with the migrations applied', () => {
  const file = tempFile();
  createSqliteStore(file).close();
  const db = new Database(file, { readonly: true });
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  const tables = db.prepare("select name from sqlite_master where type = 'table'").pluck().all();
  expect(tables).toEqual(expect.arrayContaining(['users', 'workspaces', 'memberships', 'developer_tokens', '__drizzle_migrations']));
  db.close();
});

it('keeps its data across a reopen', async () => {
  const file = tempFile();
  const first = createSqliteStore(file);
  await first.users.create({ id: 'usr_1', email: 'a@example.com', createdAt: '2026-01-01T00:00:00.000Z' });
  first.close();
  const second = createSqliteStore(file);
  expect(await second.users.findByEmail('a@example.com')).toBeDefined();
  second.close();
});

it('commits the writes of one turn together: each one is on disk when its promise resolves', async () => {
  const file = tempFile();
  const store = createSqliteStore(file);
  const reader = new Database(file, { readonly: true });
  const emails = Array.from({ length: 20 }, (_, i) => `user${i}@example.com`);
  const writes = emails.map((email, i) => store.users.create({ id: `usr_${i}`, email, createdAt: '2026-01-01T00:00:00.000Z' }));
  // Not yet committed: another connection sees none of them.
  expect(reader.prepare('select count(*) from users').pluck().get()).toBe(0);
  await Promise.all(writes);
  expect(reader.prepare('select count(*) from users').pluck().get()).toBe(20);
  reader.close();
  store.close();
});

it('rolls back only the write that failed, and commits the rest of its group', async () => {
  const file = tempFile();
  const store = createSqliteStore(file);
  const at = '2026-01-01T00:00:00.000Z';
  await store.users.create({ id: 'usr_owner', email: 'owner@example.com', createdAt: at });
  const [first, clash, last] = await Promise.allSettled([
    store.users.create({ id: 'usr_a', email: 'a@example.com', createdAt: at }),
    store.users.create({ id: 'usr_b', email: 'a@example.com', createdAt: at }), // same email: unique violation
    store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: 'Acme', createdAt: at }, 'usr_owner'),
  ]);
  expect(first.status).toBe('fulfilled');
  expect(clash.status).toBe('rejected');
  expect(last).toMatchObject({ status: 'fulfilled', value: { slug: 'acme', role: 'owner' } });
  store.close();
  const reopened = createSqliteStore(file);
  expect(await reopened.users.findById('usr_a')).toBeDefined();
  expect(await reopened.users.findById('usr_b')).toBeUndefined();
  expect(await reopened.workspaces.findForUser('acme', 'usr_owner')).toMatchObject({ role: 'owner' });
  reopened.close();
});

it('finds outbox messages through indexes: due ones, a verification’s, and one by its provider id', () => {
  const file = tempFile();
  createSqliteStore(file).close();
  const db = new Database(file, { readonly: true });
  const plan = (query: string) =>
    (db.prepare(`explain query plan ${query}`).all('a', 'b') as { detail: string }[]).map((row) => row.detail).join('; ');
  expect(plan(`select * from message_outbox where status = 'pending' and next_attempt_at <= ? limit ?`)).toContain('USING INDEX message_outbox_due_idx');
  expect(plan(`select * from message_outbox where verification_id = ? and status = 'pending' and ? is not null`)).toContain(
    'USING INDEX message_outbox_verification_idx',
  );
  expect(plan(`select * from message_outbox where provider_message_id = ? and ? is not null`)).toContain('USING INDEX message_outbox_provider_idx');
  db.close();
});

it('creates the database, its WAL and its shared-memory file readable by their owner alone (0600)', async () => {
  const file = tempFile();
  const store = createSqliteStore(file);
  await store.users.create({ id: 'usr_1', email: 'a@example.com', createdAt: '2026-01-01T00:00:00.000Z' });
  const mode = (path: string) => statSync(path).mode & 0o777;
  expect([file, `${file}-wal`, `${file}-shm`].map(mode)).toEqual([0o600, 0o600, 0o600]);
  store.close();
});

it('narrows to 0600 the database files an earlier version left readable by others', async () => {
  const file = tempFile();
  createSqliteStore(file).close();
  chmodSync(file, 0o644);
  for (const extra of ['-wal', '-shm']) writeFileSync(`${file}${extra}`, '', { mode: 0o644 });
  const store = createSqliteStore(file);
  expect([file, `${file}-wal`, `${file}-shm`].map((path) => statSync(path).mode & 0o777)).toEqual([0o600, 0o600, 0o600]);
  expect(await store.users.findByEmail('a@example.com')).toBeUndefined();
  store.close();
});
