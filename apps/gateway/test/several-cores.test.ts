import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { createLogger, deriveInternalToken } from '@svc/server-kit';
import { type RunningCore, startCore } from '@svc/test-platform';
import { freePort, removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { connectCoreChannel } from '../src/core-client.ts';
import { startGateway } from '../src/index.ts';

afterAll(removeTempDirs);

const log = (name: string) => createLogger(name, { LOG_LEVEL: 'silent' });

/**
 * Two data directories that hold the same user and token, and what `seed` adds, for two cores with a database each:
 * what one core writes afterwards, the other does not see.
 */
async function twinDataDirs<T>(seed: (services: RunningCore['services'], userId: string) => Promise<T>) {
  const secretKey = randomBytes(32);
  const dirs = { a: tempDir(), b: tempDir() };
  const seeding = await startCore({ dataDir: dirs.a, port: 0, secretKey, log: log('core') });
  const user = await seeding.services.identity.findOrCreateUser('ada@example.com');
  const { token } = await seeding.services.identity.issueToken(user.id, 'test token');
  const seeded = await seed(seeding.services, user.id);
  await seeding.stop();
  cpSync(dirs.a, dirs.b, { recursive: true });
  return { secretKey, dirs, user, token, seeded };
}

it('keeps to one core while it is up, moves to the other while it is not, and goes back once it is back', async () => {
  // Two cores that know the same user and token, each with a workspace of its own: the list says which core answered.
  const { secretKey, dirs, user, token } = await twinDataDirs(async () => undefined);
  const ports = { a: await freePort(), b: await freePort() };
  const start = async (name: 'a' | 'b') => startCore({ dataDir: dirs[name], port: ports[name], secretKey, log: log(`core-${name}`) });
  const cores: Record<'a' | 'b', RunningCore> = { a: await start('a'), b: await start('b') };
  await cores.a.services.workspaces.create(user.id, { slug: 'on-core-a' });
  await cores.b.services.workspaces.create(user.id, { slug: 'on-core-b' });
  const gateway = await startGateway({
    port: 0,
    coreUrls: [`http://127.0.0.1:${ports.a}`, `http://127.0.0.1:${ports.b}`],
    secretKey,
    log: log('gateway'),
  });
  const answeredBy = async (calls: number) => {
    const lists = await Promise.all(Array.from({ length: calls }, () => request(`${gateway.url}/cli/workspaces`, { token })));
    expect(lists.map((list) => list.status)).toEqual(lists.map(() => 200));
    return [...new Set(lists.map((list) => (list.body.workspaces[0].slug as string).replace('on-core-', '')))];
  };

  // The gateway's home is one of the two, chosen when it started.
  const answered = await answeredBy(10);
  expect(answered).toHaveLength(1);
  const home = answered[0] as 'a' | 'b';
  expect(['a', 'b']).toContain(home);
  const away = home === 'a' ? 'b' : 'a';

  await cores[home].stop();
  expect(await answeredBy(10)).toEqual([away]);
  expect((await request(`${gateway.url}/healthz`)).status).toBe(200);

  cores[home] = await start(home);
  await expect.poll(async () => await answeredBy(4)).toEqual([home]);

  await cores[away].stop();
  expect(await answeredBy(10)).toEqual([home]);
  await cores[home].stop();
  const health = await request(`${gateway.url}/healthz`);
  expect(health.status).toBe(503);
  expect(health.body.error.code).toBe('core_unavailable');
  expect((await request(`${gateway.url}/cli/workspaces`, { token })).status).toBe(503);
  await gateway.stop();
});

it('answers /healthz while one of its cores takes connections but never answers', async () => {
  const secretKey = randomBytes(32);
  const core = await startCore({ dataDir: tempDir(), port: 0, secretKey, log: log('core') });
  // A stopped core's kernel still completes TCP handshakes from its backlog; nothing ever answers.
  const sockets: Socket[] = [];
  const silent = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
  await once(silent, 'listening');
  const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  const gateway = await startGateway({ port: 0, coreUrls: [silentUrl, core.url], secretKey, log: log('gateway') });
  const probes = await Promise.all([1, 2, 3, 4].map(() => request(`${gateway.url}/healthz`)));
  expect(probes.map((probe) => probe.status)).toEqual([200, 200, 200, 200]);
  await gateway.stop();
  await core.stop();
  for (const socket of sockets) socket.destroy();
  silent.close();
});

it('fails a call whose core went away after taking it, rather than running it again on another core', async () => {
  const secretKey = randomBytes(32);
  const core = await startCore({ dataDir: tempDir(), port: 0, secretKey, log: log('core') });
  // A core that takes a call and goes away without answering, as one that crashes does: it takes no connection after.
  const crashing = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  crashing.on('connection', (socket) =>
    socket.on('message', () => {
      socket.terminate();
      crashing.close();
    }),
  );
  await once(crashing, 'listening');
  const urls = [`http://127.0.0.1:${(crashing.address() as AddressInfo).port}`, core.url];
  const cores = connectCoreChannel(urls, deriveInternalToken(secretKey), { home: 0 });
  await expect(cores.client.health.ping.query()).rejects.toThrow(/closed the channel/);
  await expect(cores.client.health.ping.query()).resolves.toEqual({ ok: true });
  cores.close();
  await core.stop();
});
