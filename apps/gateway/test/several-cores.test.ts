import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { createLogger, deriveInternalToken } from '@svc/server-kit';
import { type RunningCore, startCore } from '@svc/test-platform';
import { freePort, removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { connectCore } from '../src/core-client.ts';
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

it('spreads calls over two cores, keeps answering when one stops, and uses it again once it is back', async () => {
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
    return new Set(lists.map((list) => list.body.workspaces[0].slug as string));
  };

  expect(await answeredBy(10)).toEqual(new Set(['on-core-a', 'on-core-b']));

  await cores.a.stop();
  expect(await answeredBy(10)).toEqual(new Set(['on-core-b']));
  expect((await request(`${gateway.url}/healthz`)).status).toBe(200);

  cores.a = await start('a');
  await expect.poll(async () => (await answeredBy(4)).has('on-core-a')).toBe(true);

  await cores.b.stop();
  expect(await answeredBy(10)).toEqual(new Set(['on-core-a']));
  await cores.a.stop();
  const health = await request(`${gateway.url}/healthz`);
  expect(health.status).toBe(503);
  expect(health.body.error.code).toBe('core_unavailable');
  expect((await request(`${gateway.url}/cli/workspaces`, { token })).status).toBe(503);
  await gateway.stop();
});

it("sends a workspace's creates to one core while it is up, where they meet, and to another while it is not", async () => {
  // Two cores that know the same user, token and workspace, each with a database of its own: a verification is on
  // the core that created it.
  const {
    secretKey,
    dirs,
    token,
    seeded: workspace,
  } = await twinDataDirs(async (services, userId) => {
    const created = await services.workspaces.create(userId, { slug: 'acme' });
    await services.senders.put(created.id, { kind: 'dev' });
    return created;
  });
  const cores = {
    a: await startCore({ dataDir: dirs.a, port: 0, secretKey, log: log('core-a') }),
    b: await startCore({ dataDir: dirs.b, port: 0, secretKey, log: log('core-b') }),
  };
  const gateway = await startGateway({ port: 0, coreUrls: [cores.a.url, cores.b.url], secretKey, log: log('gateway') });
  const createdOn = async (numbers: string[]) => {
    const created = await Promise.all(
      numbers.map((phone_number) => request(`${gateway.url}/api/v1/acme/phone_verifications`, { token, json: { phone_number } })),
    );
    expect(created.map((answer) => answer.status)).toEqual(numbers.map(() => 201));
    const on = async (core: RunningCore, id: string) =>
      core.services.verifications.get(workspace.id, id).then(
        () => true,
        () => false,
      );
    return Promise.all(
      created.map(async ({ body }) =>
        (await on(cores.a, body.verification_id)) ? 'a' : (await on(cores.b, body.verification_id)) ? 'b' : '?',
      ),
    );
  };

  const numbers = Array.from({ length: 8 }, (_, i) => `+5691000${String(i).padStart(4, '0')}`);
  const first = await createdOn(numbers.slice(0, 4));
  expect(new Set(first).size).toBe(1);
  const home = first[0] as 'a' | 'b';
  expect(home).not.toBe('?');
  await cores[home].stop();
  expect(await createdOn(numbers.slice(4))).toEqual(Array(4).fill(home === 'a' ? 'b' : 'a'));
  await gateway.stop();
  await cores[home === 'a' ? 'b' : 'a'].stop();
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
  // A core that takes the calls and goes away without answering, as one that crashes does.
  const crashing = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  crashing.on('connection', (socket) => socket.on('message', () => socket.terminate()));
  await once(crashing, 'listening');
  const cores = connectCore([`http://127.0.0.1:${(crashing.address() as AddressInfo).port}`, core.url], deriveInternalToken(secretKey));
  const [first, second] = await Promise.allSettled([cores.client.health.ping.query(), cores.client.health.ping.query()]);
  expect(first.status).toBe('rejected');
  expect(second.status).toBe('fulfilled');
  cores.close();
  await core.stop();
  await new Promise((resolve) => crashing.close(resolve));
});
