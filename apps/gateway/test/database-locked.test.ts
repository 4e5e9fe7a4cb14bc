import { createPostgresDatabase, holdLock, lockWaits, request, startTcpProxy } from '@svc/testkit';
import { expect, it } from 'vitest';
import { verificationWorld } from './phone-verification/setup.ts';
import { createUserWithToken, startPlatform } from './platform.ts';

it('answers 503 core_unavailable, not a hang, while another session holds a table locked; serves again once it is released', async () => {
  const databaseUrl = await createPostgresDatabase();
  const platform = await startPlatform({ databaseUrl, statementTimeoutMs: 1000 });
  const token = await createUserWithToken(platform, 'ada@example.com');
  const workspaces = `${platform.url}/cli/workspaces`;
  expect((await request(workspaces, { token, json: { slug: 'acme' } })).status).toBe(201);

  const lock = await holdLock(databaseUrl, 'lock table workspaces in access exclusive mode');
  try {
    // A write and a read of the locked table: each waits out core's statement deadline, then answers.
    for (const answer of [await request(workspaces, { token, json: { slug: 'globex' } }), await request(workspaces, { token })]) {
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('core_unavailable');
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  } finally {
    await lock.release();
  }
  expect((await request(workspaces, { token, json: { slug: 'globex' } })).status).toBe(201);
  expect((await request(workspaces, { token })).body.workspaces).toHaveLength(2);
  await platform.stop();
});

it('answers creates within the statement timeout for the whole call, those that queued behind a held-up one included', async () => {
  const databaseUrl = await createPostgresDatabase();
  const statementTimeoutMs = 3000;
  const world = await verificationWorld({ databaseUrl, statementTimeoutMs });
  const create = async (phone: string, headers: Record<string, string> = {}) => {
    const started = Date.now();
    const answer = await world.api('/api/v1/acme/phone_verifications', { json: { phone_number: phone }, headers });
    return { ...answer, ms: Date.now() - started };
  };
  expect((await create('+56911111111')).status).toBe(201);

  const lock = await holdLock(databaseUrl, 'lock table phone_verifications in access exclusive mode');
  const first = create('+56922222222');
  // The workspace's next creates wait in core for the held-up one to end, then would wait as long again in the lock.
  await expect.poll(() => lockWaits(databaseUrl, 'select svc_create_verifications'), { timeout: 10_000 }).toBe(1);
  const queued = await Promise.all([create('+56933333333'), create('+56944444444', { 'idempotency-key': 'retry-1' })]);
  try {
    for (const answer of [await first, ...queued]) {
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('core_unavailable');
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      // The timeout, and time for a busy machine to answer; twice the timeout, as each wait had its own, is too long.
      expect(answer.ms).toBeLessThan(statementTimeoutMs + 2500);
    }
  } finally {
    await lock.release();
  }
  expect((await create('+56955555555')).status).toBe(201);
  await world.stop();
});

it("answers 503 core_unavailable, not a hang, while every connection of core's pool is busy; serves again once one is free", async () => {
  const databaseUrl = await createPostgresDatabase();
  // The deadline is a call's wait for the pool's one connection, and the setup's calls are held to it too: on a busy
  // machine, a setup call once waited more than 500 ms for it.
  const platform = await startPlatform({ databaseUrl, poolSize: 1, connectTimeoutMs: 3000, statementTimeoutMs: 60_000 });
  const token = await createUserWithToken(platform, 'ada@example.com');
  const workspaces = `${platform.url}/cli/workspaces`;
  expect((await request(workspaces, { token, json: { slug: 'acme' } })).status).toBe(201);

  // A write that waits for another session's lock holds the pool's one connection.
  const lock = await holdLock(databaseUrl, 'lock table workspaces in access exclusive mode');
  const held = request(workspaces, { token, json: { slug: 'globex' } });
  try {
    await expect.poll(() => lockWaits(databaseUrl, '')).toBe(1);
    // The next call waits for a connection until SVC_DATABASE_CONNECT_TIMEOUT_MS, then answers.
    const answer = await request(workspaces, { token });
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('core_unavailable');
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
  } finally {
    await lock.release();
  }
  expect((await held).status).toBe(201);
  expect((await request(workspaces, { token })).body.workspaces).toHaveLength(2);
  await platform.stop();
});

it('answers 503 core_unavailable, not a hang, while the database server has stopped answering; serves again once it answers', async () => {
  const databaseUrl = new URL(await createPostgresDatabase());
  // Core reaches the database through a proxy that can hang, as a stopped server does: connections stay open, silent.
  const proxy = await startTcpProxy(Number(databaseUrl.port));
  const platform = await startPlatform({
    databaseUrl: Object.assign(new URL(databaseUrl), { port: String(proxy.port) }).href,
    statementTimeoutMs: 500,
    // A connection made while the server answers must not time out on a busy machine; the hang is met by the
    // deadline of a statement on a connection already open.
    connectTimeoutMs: 3000,
  });
  const token = await createUserWithToken(platform, 'ada@example.com');
  const workspaces = `${platform.url}/cli/workspaces`;
  expect((await request(workspaces, { token })).status).toBe(200);

  proxy.hang();
  try {
    // The statement's deadline cannot fire on a server that stopped: the client's own, a second later, does.
    const answer = await request(workspaces, { token });
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('core_unavailable');
  } finally {
    proxy.resume();
  }
  await expect.poll(async () => (await request(workspaces, { token })).status).toBe(200);
  await platform.stop();
  await proxy.close();
});
