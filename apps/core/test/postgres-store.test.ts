import { createPostgresDatabase } from '@svc/testkit';
import pg from 'pg';
import { expect, it } from 'vitest';
import { createPostgresStore } from '../src/postgres-store.ts';
import { describeStoreContracts } from './store-contracts.ts';
import { openPostgresTestStore } from './test-stores.ts';

// Each test gets its own copy of a migrated database, so no test sees another's rows.
describeStoreContracts('postgres', openPostgresTestStore);

it('migrates once when several cores start at once, and each finds every table', async () => {
  const url = await createPostgresDatabase();
  const stores = await Promise.all(Array.from({ length: 4 }, () => createPostgresStore(url)));
  await Promise.all(stores.map((store) => store.close()));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const applied = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
  const tables = await client.query("select table_name from information_schema.tables where table_schema = 'public'");
  await client.end();
  expect(applied.rows[0].n).toBeGreaterThan(0);
  expect(tables.rows.map((row: { table_name: string }) => row.table_name)).toEqual(
    expect.arrayContaining(['users', 'workspaces', 'message_outbox', 'eval_executions', 'event_outbox', 'digest_days']),
  );
});
