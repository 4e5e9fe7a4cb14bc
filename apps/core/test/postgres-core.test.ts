import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { callsPerFrameHeader, createLogger, deriveInternalToken, internalTokenHeader } from '@svc/server-kit';
import { postgresServerUrl } from '@svc/testkit';
import pg from 'pg';
import { expect, it } from 'vitest';
import WebSocket from 'ws';
import { startCore } from '../src/bootstrap.ts';
import { tempDir } from './temp-dir.ts';
import { migratedPostgresDatabase } from './test-stores.ts';

const log = createLogger('core', { LOG_LEVEL: 'silent' });

it('serves from PostgreSQL, and its /healthz answers 503 once the database is out of reach', async () => {
  const url = await migratedPostgresDatabase();
  const core = await startCore({ dataDir: tempDir(), database: { url }, port: 0, secretKey: randomBytes(32), log });
  try {
    const health = () => fetch(`${core.url}/healthz`).then(async (res) => [res.status, await res.json()]);
    expect(await health()).toEqual([200, { status: 'ok' }]);
    const user = await core.services.identity.findOrCreateUser('ada@example.com');
    expect(await core.services.store.users.findByEmail('ada@example.com')).toEqual(user);
    await refuseConnections(url);
    expect(await health()).toEqual([503, { status: 'database_unavailable' }]);
  } finally {
    await core.stop();
  }
});

it('takes the calls of a channel all in one frame, to gather them into shared statements', async () => {
  const secretKey = randomBytes(32);
  const core = await startCore({ dataDir: tempDir(), database: { url: await migratedPostgresDatabase() }, port: 0, secretKey, log });
  try {
    const socket = new WebSocket(`${core.url.replace('http:', 'ws:')}/trpc`, {
      headers: { [internalTokenHeader]: deriveInternalToken(secretKey) },
    });
    const answer = await new Promise<IncomingMessage>((resolve, reject) => socket.once('upgrade', resolve).once('error', reject));
    expect(answer.statusCode).toBe(101);
    expect(answer.headers[callsPerFrameHeader]).toBeUndefined();
    socket.close();
  } finally {
    await core.stop();
  }
});

/** The database stops taking connections and ends the ones it has, as one out of reach would. */
async function refuseConnections(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: postgresServerUrl });
  await client.connect();
  await client.query(`alter database ${name} with allow_connections false`);
  await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
  await client.end();
}
