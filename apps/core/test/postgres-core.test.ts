import { randomBytes } from 'node:crypto';
import { createLogger } from '@svc/server-kit';
import { dropPostgresDatabase } from '@svc/testkit';
import { expect, it } from 'vitest';
import { startCore } from '../src/bootstrap.ts';
import { tempDir } from './temp-dir.ts';
import { migratedPostgresDatabase } from './test-stores.ts';

const log = createLogger('core', { LOG_LEVEL: 'silent' });

it('serves from PostgreSQL, and its /healthz answers 503 once the database is gone', async () => {
  const url = await migratedPostgresDatabase();
  const core = await startCore({ dataDir: tempDir(), database: { url }, port: 0, secretKey: randomBytes(32), log });
  try {
    const health = () => fetch(`${core.url}/healthz`).then(async (res) => [res.status, await res.json()]);
    expect(await health()).toEqual([200, { status: 'ok' }]);
    const user = await core.services.identity.findOrCreateUser('ada@example.com');
    expect(await core.services.store.users.findByEmail('ada@example.com')).toEqual(user);
    await dropPostgresDatabase(url);
    expect(await health()).toEqual([503, { status: 'database_unavailable' }]);
  } finally {
    await core.stop();
  }
}, 30_000); // creating and dropping a database takes seconds on a busy server
