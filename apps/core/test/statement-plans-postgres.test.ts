import { createPostgresDatabase, dropPostgresDatabases, queryPostgres } from '@svc/testkit';
import { afterAll, expect, it } from 'vitest';
import { openPostgres } from '../src/platform/postgres/database.ts';
import { createPostgresMessaging } from '../src/verification/postgres.ts';
import { createPostgresStore } from '../src/postgres-store.ts';
import { transactor } from '../src/platform/postgres/transaction.ts';
import { phoneVerificationRecord } from './records.ts';

// A connection plans a prepared statement again and again for its first runs, then may keep one generic plan for as
// long as it lives. Planned while the tables were new and small, that plan may read a whole table; with statistics
// that are never refreshed (autovacuum off), it is kept however large the table grows. These tests plan the store's
// statements on tables of one row, grow the tables to thousands of rows, and read the plans of the next runs.

afterAll(dropPostgresDatabases);

const at = '2026-01-01T00:10:00.000Z';
const expiresAt = '2026-01-01T00:20:00.000Z';

/** A database with one workspace and one verification (pv_1) whose message (m_1) is claimed by `claim_1`. */
async function databaseOfOne(): Promise<string> {
  const url = await createPostgresDatabase();
  const store = await createPostgresStore(url);
  try {
    await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at });
    await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at }, 'usr_1');
    const phoneNumber = '+56912345678';
    await store.verifications.create(
      phoneVerificationRecord({ id: 'pv_1', phoneNumber, createdAt: at, expiresAt }),
      { id: 'm_1', workspaceId: 'ws_1', verificationId: 'pv_1', phoneNumber, codeSealed: 'sealed', createdAt: at },
      100,
    );
  } finally {
    await store.close();
  }
  return url;
}

/** Copies of pv_1 and of m_1 (`pv_more_<n>`, `m_more_<n>`, claimed by `claim_<n>`), each copy of m_1 for its own copy. */
async function grow(url: string, copies: number): Promise<void> {
  const copy = (table: string, id: string, fields: string) =>
    queryPostgres(
      url,
      `insert into ${table} select (jsonb_populate_record(t, jsonb_build_object(${fields}))).*
       from ${table} t, generate_series(1, ${copies}) as n where t.id = '${id}'`,
    );
  await copy('phone_verifications', 'pv_1', `'id', 'pv_more_' || n, 'phone_number', '+5699' || n, 'failed_attempts', 0`);
  await copy('message_outbox', 'm_1', `'id', 'm_more_' || n, 'verification_id', 'pv_more_' || n, 'claim_id', 'claim_' || n`);
}

/** The messaging store on connections that are sent the plan of every statement they run, those in functions too. */
async function explainedMessaging(url: string) {
  const explained = new URL(url);
  explained.searchParams.set(
    'options',
    '-c session_preload_libraries=auto_explain -c auto_explain.log_min_duration=0 ' +
      '-c auto_explain.log_nested_statements=on -c auto_explain.log_level=notice',
  );
  const db = await openPostgres(explained.toString(), { poolSize: 1 });
  const plans: string[] = [];
  db.$client.on('connect', (client) => client.on('notice', (notice) => plans.push(notice.message ?? '')));
  return { messaging: createPostgresMessaging(db, transactor(db)), plans, close: () => db.$client.end() };
}

/** The plans of the statements that change `table`. */
const plansChanging = (plans: string[], table: string) => plans.filter((plan) => plan.includes(`Update on ${table}`));

it('finishes a send by its message id however large the outbox grew after the connection first planned a finish', async () => {
  const url = await databaseOfOne();
  const { messaging, plans, close } = await explainedMessaging(url);
  try {
    for (let i = 0; i < 8; i++) expect(await messaging.outbox.markSent('m_1', 'another claim', 'wamid.1', at)).toBe(false);
    await grow(url, 5000);
    plans.length = 0;
    expect(await messaging.outbox.markSent('m_more_17', 'claim_17', 'wamid.17', at)).toBe(true);
    const [finish] = plansChanging(plans, 'message_outbox');
    expect(finish).toContain('Index Scan using message_outbox_pkey');
    expect(finish).not.toMatch(/Seq Scan|Bitmap/);
  } finally {
    await close();
  }
});

it('checks codes by the verification id however large the table grew after the connection first planned a check', async () => {
  const url = await databaseOfOne();
  const { messaging, plans, close } = await explainedMessaging(url);
  try {
    for (let i = 0; i < 8; i++) {
      await messaging.verifications.check('ws_1', 'pv_1', 'bb', at, 1000);
      expect(await messaging.verifications.check('ws_1', 'pv_none', 'aa', at, 5)).toBeUndefined();
    }
    await grow(url, 5000);
    plans.length = 0;
    expect((await messaging.verifications.check('ws_1', 'pv_more_17', 'bb', at, 5))?.verification.failedAttempts).toBe(1);
    expect((await messaging.verifications.check('ws_1', 'pv_more_18', 'aa', at, 5))?.outcome).toBe('verified');
    // Each check's statements: its rows locked, then its write.
    const checks = plans.filter((plan) => /Query Text: (SELECT coalesce|UPDATE phone_verifications)/.test(plan));
    expect(checks).toHaveLength(4);
    expect(checks.filter((plan) => plan.includes('Update on phone_verifications'))).toHaveLength(2);
    for (const check of checks) {
      // Every read of phone_verifications goes by its primary key, and by it alone.
      expect(check).not.toMatch(/Seq Scan on phone_verifications\b/);
      const indexes = [...check.matchAll(/Scan (?:using|on) (phone_verifications_\w+)/g)].map((match) => match[1]);
      expect(new Set(indexes)).toEqual(new Set(['phone_verifications_pkey']));
    }
  } finally {
    await close();
  }
});
