import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createPostgresDatabase,
  dropPostgresDatabases,
  removeTempDirs,
  startApp,
  startTcpProxy,
  stopProcesses,
  tempDir,
} from '@svc/testkit';
import { afterAll, afterEach, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
afterEach(stopProcesses);
afterAll(removeTempDirs);
afterAll(dropPostgresDatabases);

/** A port another process listens on. */
async function takenPort(): Promise<{ port: number; release(): void }> {
  const holder = createServer().listen(0, '127.0.0.1');
  await once(holder, 'listening');
  return { port: (holder.address() as AddressInfo).port, release: () => holder.close() };
}

it.each(['CORE_PORT', 'CORE_METRICS_PORT'])('exits 78 when %s is taken, before it connects to its database', async (variable) => {
  const taken = await takenPort();
  // Core reaches its database through a proxy that counts the connections made.
  const databaseUrl = new URL(await createPostgresDatabase());
  const proxy = await startTcpProxy(Number(databaseUrl.port));
  const core = startApp(main, {
    SVC_DATA_DIR: tempDir(),
    SVC_SECRET_KEY: randomBytes(32).toString('base64'),
    SVC_DATABASE_URL: Object.assign(new URL(databaseUrl), { port: String(proxy.port) }).href,
    CORE_PORT: '0',
    [variable]: String(taken.port),
  });
  expect(await core.exited).toBe(78);
  expect(core.output('stderr')).toContain(`${variable}: port ${taken.port} is already in use`);
  // Nothing migrated, sealed, finished or delivered: core never connected.
  expect(proxy.accepted).toBe(0);
  taken.release();
  await proxy.close();
});

it('exits 78 when its port is taken, before it creates its SQLite database', async () => {
  const taken = await takenPort();
  const dataDir = tempDir();
  const core = startApp(main, { SVC_DATA_DIR: dataDir, SVC_SECRET_KEY: randomBytes(32).toString('base64'), CORE_PORT: String(taken.port) });
  expect(await core.exited).toBe(78);
  expect(existsSync(join(dataDir, 'svc.db'))).toBe(false);
  taken.release();
});
