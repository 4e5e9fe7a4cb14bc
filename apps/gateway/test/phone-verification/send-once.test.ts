import { setTimeout as sleep } from 'node:timers/promises';
import { createPostgresDatabase, graphAccepted, startTcpProxy } from '@svc/testkit';
import { expect, it } from 'vitest';
import { startPlatform } from '../platform.ts';
import { number, outboxSettled, verificationWorld } from './setup.ts';

it('records a send the provider took while the database was away once it is back, on two cores, and sends the code once', async () => {
  const databaseUrl = new URL(await createPostgresDatabase());
  // The cores reach the database through a proxy that can stop answering, as a stopped server does.
  const proxy = await startTcpProxy(Number(databaseUrl.port));
  const proxied = Object.assign(new URL(databaseUrl), { port: String(proxy.port) }).href;
  // Deadlines a busy machine keeps while the database is up; the outage outlasts them, and a claim, by far.
  const database = { databaseUrl: proxied, statementTimeoutMs: 2000, connectTimeoutMs: 3000 };
  const world = await verificationWorld(database);
  const other = await startPlatform({ ...database, secretKey: world.platform.secretKey, providers: { whatsappGraphUrl: world.graph.url } });

  let answer!: () => void;
  world.graph.queue({ ...graphAccepted(), until: new Promise((resolve) => (answer = () => resolve(undefined))) });
  const id = (await world.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } })).body.verification_id;
  await world.graph.waitForRequests(1);
  // The provider takes the send just as the database goes away, for longer than a claim lasts (5 s).
  proxy.hang();
  answer();
  await sleep(7_000);
  proxy.resume();

  const show = () => world.api(`/api/v1/acme/phone_verifications/${id}`);
  await expect.poll(async () => (await show()).body.delivery?.status, { timeout: 30_000 }).toBe('sent');
  await outboxSettled(world.platform);
  expect(world.graph.requests).toHaveLength(1);
  await other.stop();
  await world.stop();
  await proxy.close();
});
