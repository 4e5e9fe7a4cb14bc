import { createPostgresDatabase, dropPostgresDatabases, queryPostgres } from '@svc/testkit';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { createPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { phoneVerificationRecord } from './records.ts';

afterAll(dropPostgresDatabases);

const at = '2026-01-01T00:10:00.000Z';

/** A connection that is sent the plan of every statement it runs, those inside functions too (auto_explain). */
async function explainingConnection(url: string) {
  const client = new pg.Client({ connectionString: url });
  const plans: string[] = [];
  client.on('notice', (notice) => plans.push(notice.message ?? ''));
  await client.connect();
  for (const setting of [
    "load 'auto_explain'",
    'set auto_explain.log_min_duration = 0',
    'set auto_explain.log_nested_statements = on',
    'set auto_explain.log_level = notice',
  ]) {
    await client.query(setting);
  }
  return { client, plans };
}

const finish = (client: pg.Client, id: string, claimId: string) =>
  client.query('select * from svc_finish_messages($1, $2, $3, $4, $5, $6)', [[id], [claimId], ['sent'], ['wamid.1'], [null], [at]]);

it('finishes a send by its message id however large the outbox grew after the connection first planned a finish', async () => {
  const url = await createPostgresDatabase();
  const store = await createPostgresStore(url);
  await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at });
  await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at }, 'usr_1');
  await store.verifications.create(
    phoneVerificationRecord({ id: 'pv_1', phoneNumber: '+56912345678', createdAt: at, expiresAt: '2026-01-01T00:20:00.000Z' }),
    { id: 'm_1', workspaceId: 'ws_1', verificationId: 'pv_1', phoneNumber: '+56912345678', codeSealed: 'sealed', createdAt: at },
    100,
  );
  await store.close();
  const { client, plans } = await explainingConnection(url);
  try {
    // Planned over and over while the outbox holds one message, as on a new deployment: the plan is then kept.
    for (let i = 0; i < 8; i++) await finish(client, 'm_1', 'no claim');
    // The outbox grows to thousands of pending messages, their statistics never refreshed (autovacuum off).
    await queryPostgres(
      url,
      `insert into message_outbox
         select (jsonb_populate_record(m, jsonb_build_object('id', 'm_more_' || n, 'claim_id', 'claim_' || n))).*
         from message_outbox m, generate_series(1, 5000) as n where m.id = 'm_1'`,
    );
    plans.length = 0;
    const { rows } = await finish(client, 'm_more_17', 'claim_17');
    expect(rows).toEqual([{ finished_id: 'm_more_17', finished_claim_id: 'claim_17' }]);
    const update = plans.find((plan) => plan.includes('Update on message_outbox'));
    expect(update).toContain('Index Scan using message_outbox_pkey');
    expect(update).not.toContain('Seq Scan');
  } finally {
    await client.end();
  }
});
