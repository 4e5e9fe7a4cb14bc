import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { describeMoreStoreContract } from './store-contract-more.ts';
import { describeStoreContract } from './store-contract.ts';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'svc-store-')), 'svc.db');

describeStoreContract('sqlite', () => createSqliteStore(tempFile()));
describeMoreStoreContract('sqlite', () => createSqliteStore(tempFile()));

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
