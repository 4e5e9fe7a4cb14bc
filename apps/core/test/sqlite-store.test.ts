import { chmodSync, cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { expect, it } from 'vitest';
import { passedWhileOpenSql } from '../src/evals/counts.ts';
import { createSqliteStore } from '../src/sqlite-store.ts';
import { deviceAuthorizationRecord } from './records.ts';
import { describeStoreContracts } from './store-contracts.ts';
import { tempDir } from './temp-dir.ts';

const tempFile = () => join(tempDir(), 'svc.db');

/** A new store's database, migrated, opened read-only to read its query plans. */
function migratedDatabase(): Database.Database {
  const file = tempFile();
  void createSqliteStore(file).close();
  return new Database(file, { readonly: true });
}

/** How SQLite runs a query, its steps joined: which index it reads, and whether it sorts. */
const queryPlan = (db: Database.Database, query: string, ...params: unknown[]) =>
  (db.prepare(`explain query plan ${query}`).all(...params) as { detail: string }[]).map((row) => row.detail).join('; ');

describeStoreContracts('sqlite', () => createSqliteStore(tempFile()));

it('opens the database in WAL mode with the migrations applied', () => {
  const file = tempFile();
  void createSqliteStore(file).close();
  const db = new Database(file, { readonly: true });
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  const tables = db.prepare("select name from sqlite_master where type = 'table'").pluck().all();
  expect(tables).toEqual(
    expect.arrayContaining([
      'users',
      'workspaces',
      'memberships',
      'developer_tokens',
      'invitations',
      'membership_events',
      'flags',
      'flag_events',
      'eval_cases',
      'eval_runs',
      'eval_executions',
      'eval_overrides',
      'digest_days',
      'github_links',
      'github_installations',
      'github_deliveries',
      'preview_targets',
      'event_outbox',
      '__drizzle_migrations',
    ]),
  );
  db.close();
});

it('keeps its data across a reopen', async () => {
  const file = tempFile();
  const first = createSqliteStore(file);
  await first.users.create({ id: 'usr_1', email: 'a@example.com', createdAt: '2026-01-01T00:00:00.000Z' });
  await first.close();
  const second = createSqliteStore(file);
  expect(await second.users.findByEmail('a@example.com')).toBeDefined();
  await second.close();
});

it('commits the writes of one turn together: each one is on disk when its promise resolves', async () => {
  const file = tempFile();
  const store = createSqliteStore(file);
  const reader = new Database(file, { readonly: true });
  const emails = Array.from({ length: 20 }, (_, i) => `user${i}@example.com`);
  const writes = emails.map((email, i) => store.users.create({ id: `usr_${i}`, email, createdAt: '2026-01-01T00:00:00.000Z' }));
  // Not yet committed: another connection sees none of them.
  expect(reader.prepare("select count(*) from users where email like 'user%'").pluck().get()).toBe(0);
  await Promise.all(writes);
  expect(reader.prepare("select count(*) from users where email like 'user%'").pluck().get()).toBe(20);
  reader.close();
  await store.close();
});

it('copies its WAL into the database file in the background, and leaves the database file alone once closed', async () => {
  const file = tempFile();
  const store = createSqliteStore(file);
  const migrated = statSync(file).size;
  // Past the commits after which the checkpointer starts, with fewer frames than the 1,000 after which a writer
  // checkpoints by SQLite's default.
  for (let i = 0; i < 250; i++) {
    await store.users.create({ id: `usr_${i}`, email: `user${i}@example.com`, createdAt: '2026-01-01T00:00:00.000Z' });
  }
  const frameBytes = 24 + 4096;
  expect(statSync(`${file}-wal`).size).toBeLessThan(32 + 1_000 * frameBytes);
  // The database file grows as the pages are copied, with core's connection free for other work meanwhile.
  await expect.poll(() => statSync(file).size, { timeout: 10_000 }).toBeGreaterThan(migrated);
  await store.close();
  expect(existsSync(`${file}-wal`)).toBe(false);
  const db = new Database(file, { readonly: true });
  expect(db.prepare("select count(*) from users where email like 'user%'").pluck().get()).toBe(250);
  db.close();
});

it('rolls back only the write that failed, and commits the rest of its group', async () => {
  const file = tempFile();
  const store = createSqliteStore(file);
  const at = '2026-01-01T00:00:00.000Z';
  await store.users.create({ id: 'usr_owner', email: 'owner@example.com', createdAt: at });
  const [first, clash, last] = await Promise.allSettled([
    store.users.create({ id: 'usr_a', email: 'a@example.com', createdAt: at }),
    store.users.create({ id: 'usr_a', email: 'b@example.com', createdAt: at }), // same id: a duplicate key
    store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: 'Acme', createdAt: at }, 'usr_owner'),
  ]);
  expect(first.status).toBe('fulfilled');
  expect(clash).toMatchObject({ status: 'rejected', reason: { code: 'conflict' } });
  expect(last).toMatchObject({ status: 'fulfilled', value: { slug: 'acme', role: 'owner' } });
  await store.close();
  const reopened = createSqliteStore(file);
  expect(await reopened.users.findById('usr_a')).toBeDefined();
  expect(await reopened.users.findByEmail('b@example.com')).toBeUndefined();
  expect(await reopened.workspaces.findForUser('acme', 'usr_owner')).toMatchObject({ role: 'owner' });
  await reopened.close();
});

it('finds outbox messages through indexes: due ones, a verification’s, and one by its provider id', () => {
  const db = migratedDatabase();
  const plan = (query: string) => queryPlan(db, query, 'a', 'b');
  expect(plan(`select * from message_outbox where status = 'pending' and next_attempt_at <= ? limit ?`)).toContain(
    'USING INDEX message_outbox_due_idx',
  );
  expect(
    plan(
      `select * from message_outbox where status = 'pending' and next_attempt_at <= ? and (claimed_until is null or claimed_until < ?) limit 32`,
    ),
  ).toContain('USING INDEX message_outbox_due_idx');
  expect(plan(`select * from message_outbox where verification_id = ? and status = 'pending' and ? is not null`)).toContain(
    'USING INDEX message_outbox_verification_idx',
  );
  expect(plan(`select * from message_outbox where provider_message_id = ? and ? is not null`)).toContain(
    'USING INDEX message_outbox_provider_idx',
  );
  db.close();
});

it('finds eval work and runs through indexes: open executions per run in lease order, open runs, latest finished, lists', () => {
  const db = migratedDatabase();
  const plan = (query: string, ...params: unknown[]) => queryPlan(db, query, ...params);
  const readsInOrder = (index: string, query: string, ...params: unknown[]) => {
    const found = plan(query, ...params);
    expect(found).toContain(`USING INDEX ${index}`);
    expect(found).not.toContain('TEMP B-TREE');
  };
  readsInOrder(
    'eval_executions_open_idx',
    `select id from eval_executions where run_id = ? and status in ('pending', 'leased') and (status = 'pending' or lease_until < ?)
     order by attempt, id limit ?`,
    'run_1',
    '2026-01-01T00:00:00.000Z',
    8,
  );
  expect(
    plan(
      `select count(*) from eval_executions where run_id = ? and status = 'leased' and lease_until >= ?`,
      'run_1',
      '2026-01-01T00:00:00.000Z',
    ),
  ).toContain('USING COVERING INDEX eval_executions_leased_idx (run_id=? AND lease_until>?)');
  readsInOrder('eval_runs_open_idx', `select id from eval_runs where status in ('queued', 'running') order by created_at`);
  readsInOrder(
    'eval_runs_finished_idx',
    `select * from eval_runs where workspace_id = ? and environment = ? and status = 'finished' order by finished_at desc, id desc limit 1`,
    'ws_1',
    'live',
  );
  readsInOrder(
    'eval_runs_environment_idx',
    `select * from eval_runs where workspace_id = ? and environment = ? order by created_at desc, id desc limit 10`,
    'ws_1',
    'live',
  );
  readsInOrder(
    'eval_runs_workspace_idx',
    `select * from eval_runs where workspace_id = ? order by created_at desc, id desc limit 10`,
    'ws_1',
  );
  db.close();
});

it("reads a page of flags, of cases and a digest's newest flags through an index, in its order, sorting nothing", () => {
  const db = migratedDatabase();
  const after = ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'flag_1'];
  const keyset = 'created_at >= ? and (created_at > ? or id > ?) order by created_at, id limit 51';
  const plans = {
    state: queryPlan(db, `select * from flags where workspace_id = ? and status = 'open' and ${keyset}`, 'ws_1', ...after),
    all: queryPlan(db, `select * from flags where workspace_id = ? and ${keyset}`, 'ws_1', ...after),
    agent: queryPlan(
      db,
      `select * from flags where workspace_id = ? and agent = ? and status = 'open' and ${keyset}`,
      'ws_1',
      'a',
      ...after,
    ),
    newest: queryPlan(
      db,
      `select * from flags where workspace_id = ? and status = 'open' and note is not null order by created_at desc, id desc limit 50`,
      'ws_1',
    ),
    cases: queryPlan(db, `select * from eval_cases where workspace_id = ? and deleted_at is null and ${keyset}`, 'ws_1', ...after),
    agentCases: queryPlan(
      db,
      `select * from eval_cases where workspace_id = ? and deleted_at is null and agent = ? and ${keyset}`,
      'ws_1',
      'a',
      ...after,
    ),
  };
  expect(plans.state).toContain('USING INDEX flags_workspace_idx (workspace_id=? AND status=? AND created_at>?)');
  expect(plans.all).toContain('USING INDEX flags_created_idx (workspace_id=? AND created_at>?)');
  expect(plans.agent).toContain('USING INDEX flags_agent_idx (workspace_id=? AND agent=? AND status=? AND created_at>?)');
  expect(plans.newest).toContain('USING INDEX flags_workspace_idx (workspace_id=? AND status=?)');
  expect(plans.cases).toContain('USING INDEX eval_cases_workspace_idx (workspace_id=? AND created_at>?)');
  expect(plans.agentCases).toContain('USING INDEX eval_cases_agent_idx (workspace_id=? AND agent=? AND created_at>?)');
  for (const plan of Object.values(plans)) expect(plan).not.toContain('TEMP B-TREE');
  db.close();
});

it('reads what retention deletes and the passes that fix flags through partial indexes, not the whole table', () => {
  const db = migratedDatabase();
  const before = '2026-01-01T00:00:00.000Z';
  expect(queryPlan(db, `select rowid from message_outbox where status <> 'pending' and created_at < ? limit 500`, before)).toContain(
    'USING INDEX message_outbox_finished_idx (created_at<?)',
  );
  expect(queryPlan(db, `select rowid from mail_outbox where status <> 'pending' and created_at < ? limit 500`, before)).toContain(
    'USING INDEX mail_outbox_finished_idx (created_at<?)',
  );
  expect(queryPlan(db, `select rowid from sessions where expires_at <= ? limit 500`, before)).toContain('INDEX sessions_expiry_idx');
  expect(queryPlan(db, `select rowid from github_deliveries where received_at < ? limit 500`, before)).toContain(
    'INDEX github_deliveries_received_idx',
  );
  const passes = queryPlan(db, passedWhileOpenSql('?', '?', '?'), 'live', '', 100);
  expect(passes).toContain('USING INDEX flags_open_idx (id>?)');
  expect(passes).toContain('INDEX eval_results_case_idx (case_id=?)');
  expect(passes).not.toMatch(/SCAN/);
  db.close();
});

it('finds GitHub links and installations by repository whatever its case, and events to claim, through indexes', () => {
  const db = migratedDatabase();
  const plan = (query: string, ...params: unknown[]) => queryPlan(db, query, ...params);
  expect(plan('select * from github_links where lower(repository) = lower(?)', 'Acme/Bot')).toContain(
    'USING INDEX github_links_repository_idx',
  );
  expect(plan('select * from github_installations where lower(repository) = lower(?)', 'Acme/Bot')).toContain(
    'USING INDEX github_installations_repository_idx',
  );
  const claims = plan(
    `select id from event_outbox where done_at is null and available_at <= ? and (claimed_until is null or claimed_until < ?)
     order by available_at, id limit 10`,
    '2026-01-01T00:00:00.000Z',
    '2026-01-01T00:00:00.000Z',
  );
  expect(claims).toContain('USING INDEX event_outbox_open_idx');
  expect(claims).not.toContain('TEMP B-TREE');
  db.close();
});

it('keeps one version of each content when it adds the unique indexes: what used a duplicate uses the first', async () => {
  // A database as it was before versions were unique, with the duplicates that pushes at once could make.
  const file = tempFile();
  const before = join(tempDir(), 'drizzle');
  const migrations = fileURLToPath(new URL('../drizzle', import.meta.url));
  cpSync(migrations, before, { recursive: true });
  const journal = JSON.parse(readFileSync(join(before, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const unique = journal.entries.findIndex((entry) => entry.tag === '0006_unique_versions');
  writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, unique) }));
  const old = new Database(file);
  migrate(drizzle(old), { migrationsFolder: before });
  const at = '2026-01-01T00:00:00.000Z';
  old.exec(`
    insert into users values ('usr_1', 'a@example.com', '${at}');
    insert into workspaces values ('ws_1', 'acme', null, '${at}');
    insert into agent_versions (id, workspace_id, number, content_hash, files, author_id, created_at) values
      ('ver_1', 'ws_1', 1, 'sha256:a', '{}', 'usr_1', '${at}'),
      ('ver_2', 'ws_1', 2, 'sha256:a', '{}', 'usr_1', '${at}'),
      ('ver_3', 'ws_1', 3, 'sha256:b', '{}', 'usr_1', '${at}');
    insert into environments values ('ws_1', 'preview', 'ver_2', '${at}', '${at}'), ('ws_1', 'live', 'ver_3', '${at}', '${at}');
    insert into chats values ('chat_1', 'ws_1', 'support', 'preview', 'ver_2', 'api', 0, '${at}');
  `);
  old.close();

  const store = createSqliteStore(file);
  expect(await store.versions.get('ws_1', 'ver_2')).toBeUndefined();
  expect((await store.environments.list('ws_1')).map((env) => [env.name, env.version?.id])).toEqual([
    ['live', 'ver_3'],
    ['preview', 'ver_1'],
  ]);
  expect((await store.chats.get('ws_1', 'chat_1'))?.versionId).toBe('ver_1');
  const pushed = await store.versions.create({
    id: 'ver_4',
    workspaceId: 'ws_1',
    contentHash: 'sha256:c',
    files: {},
    gitCommit: null,
    gitBranch: null,
    authorId: 'usr_1',
    createdAt: at,
  });
  expect(pushed.version.number).toBe(4);
  await store.close();
});

it('keeps the Idempotency-Key answers stored before keys were claimed: a retry is still answered from them', async () => {
  const file = tempFile();
  const before = join(tempDir(), 'drizzle');
  cpSync(fileURLToPath(new URL('../drizzle', import.meta.url)), before, { recursive: true });
  const journal = JSON.parse(readFileSync(join(before, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const claims = journal.entries.findIndex((entry) => entry.tag === '0013_outbox_claims');
  writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, claims) }));
  const old = new Database(file);
  migrate(drizzle(old), { migrationsFolder: before });
  const at = '2026-01-01T00:00:00.000Z';
  old.exec(`
    insert into users values ('usr_1', 'a@example.com', '${at}');
    insert into workspaces values ('ws_1', 'acme', null, '${at}');
    insert into idempotency_keys values ('ws_1', 'verifications.create', 'k1', 'h', '{"ok":true,"value":1}', '${at}');
  `);
  old.close();

  const store = createSqliteStore(file);
  const scope = { workspaceId: 'ws_1', operation: 'verifications.create', key: 'k1' };
  const claim = { id: 'retry', now: at, until: '2026-01-01T00:01:00.000Z' };
  expect(await store.idempotency.claim(scope, 'h', claim, at)).toEqual({
    requestHash: 'h',
    response: '{"ok":true,"value":1}',
    claimId: null,
    claimedUntil: null,
  });
  await store.close();
});

it('keeps the device authorizations of an earlier version, with their codes in the clear, when it adds code hashes', async () => {
  const file = tempFile();
  const before = join(tempDir(), 'drizzle');
  cpSync(fileURLToPath(new URL('../drizzle', import.meta.url)), before, { recursive: true });
  const journal = JSON.parse(readFileSync(join(before, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const hashes = journal.entries.findIndex((entry) => entry.tag === '0015_user_code_hash');
  writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, hashes) }));
  const old = new Database(file);
  migrate(drizzle(old), { migrationsFolder: before });
  const at = '2026-01-01T00:00:00.000Z';
  // As an earlier core writes one, before the migration and beside a core of this version after it.
  const earlierInsert = (id: string, userCode: string) =>
    `insert into device_authorizations (id, device_code_hash, user_code, status, interval_seconds, expires_at, client_name, created_at)
     values ('${id}', 'hash_${id}', '${userCode}', 'pending', 5, '${at}', 'svc CLI', '${at}')`;
  old.exec(earlierInsert('dev_old', 'BCDFGHJK'));
  old.close();

  const store = createSqliteStore(file);
  const beside = new Database(file);
  beside.exec(earlierInsert('dev_beside', 'LMNPQRST'));
  beside.close();
  await store.deviceAuthorizations.create(deviceAuthorizationRecord({ id: 'dev_new', createdAt: at, expiresAt: at }));
  for (const id of ['dev_old', 'dev_beside']) {
    const found = await store.deviceAuthorizations.findByDeviceCodeHash(`hash_${id}`);
    expect(found).toMatchObject({ id, userCodeHash: null, status: 'pending' });
    expect(found).not.toHaveProperty('userCode');
  }
  expect(await store.deviceAuthorizations.findByUserCodeHash('user_code_hash_dev_new')).toMatchObject({ id: 'dev_new' });
  await store.close();
});

it('creates the database, its WAL and its shared-memory file readable by their owner alone (0600)', async () => {
  const file = tempFile();
  const store = createSqliteStore(file);
  await store.users.create({ id: 'usr_1', email: 'a@example.com', createdAt: '2026-01-01T00:00:00.000Z' });
  const mode = (path: string) => statSync(path).mode & 0o777;
  expect([file, `${file}-wal`, `${file}-shm`].map(mode)).toEqual([0o600, 0o600, 0o600]);
  await store.close();
});

it('narrows to 0600 the database files an earlier version left readable by others', async () => {
  const file = tempFile();
  void createSqliteStore(file).close();
  chmodSync(file, 0o644);
  for (const extra of ['-wal', '-shm']) writeFileSync(`${file}${extra}`, '', { mode: 0o644 });
  const store = createSqliteStore(file);
  expect([file, `${file}-wal`, `${file}-shm`].map((path) => statSync(path).mode & 0o777)).toEqual([0o600, 0o600, 0o600]);
  expect(await store.users.findByEmail('a@example.com')).toBeUndefined();
  await store.close();
});

it('refuses in the database itself a second live flag on one reply, but not one beside removed flags', () => {
  const file = tempFile();
  void createSqliteStore(file).close();
  const db = new Database(file);
  const at = '2026-01-01T00:00:00.000Z';
  db.exec(`
    insert into users values ('usr_1', 'a@example.com', '${at}');
    insert into workspaces values ('ws_1', 'acme', null, '${at}');
    insert into agent_versions (id, workspace_id, number, content_hash, files, author_id, created_at) values ('ver_1', 'ws_1', 1, 'h', '{}', 'usr_1', '${at}');
    insert into chats values ('chat_1', 'ws_1', 'support', 'live', 'ver_1', 'api', 0, '${at}');
  `);
  const insert = (id: string, status: string) =>
    db
      .prepare(
        `insert into flags (id, workspace_id, chat_id, message_id, status, agent, environment, version_id, version_number, channel,
           snapshot, created_by, revision, created_at, updated_at)
         values (?, 'ws_1', 'chat_1', 'msg_1', ?, 'support', 'live', 'ver_1', 1, 'api', '{}', 'a@example.com', 0, '${at}', '${at}')`,
      )
      .run(id, status);
  insert('flag_1', 'removed');
  insert('flag_2', 'removed');
  insert('flag_3', 'open');
  expect(() => insert('flag_4', 'fixed')).toThrow(/UNIQUE/);
  db.close();
});
