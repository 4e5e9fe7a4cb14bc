import { setTimeout as sleep } from 'node:timers/promises';
import { createPostgresDatabase, queryPostgres, startTcpProxy, type TcpProxy } from '@svc/testkit';
import { afterEach, expect, it } from 'vitest';
import { type VerificationWorld, verificationWorld } from './phone-verification/setup.ts';
import { type Answer, type Call, calls, numberOf, recoveredAfter, startTraffic, unexpectedAnswers } from './traffic.ts';

let world: VerificationWorld | undefined;
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await world?.stop();
  await proxy?.close();
});

/** A verification platform whose core reaches its database through a proxy that can go down. */
async function worldBehindProxy() {
  const databaseUrl = await createPostgresDatabase();
  proxy = await startTcpProxy(Number(new URL(databaseUrl).port));
  world = await verificationWorld({
    databaseUrl: Object.assign(new URL(databaseUrl), { port: String(proxy.port) }).href,
    // A connection made while the database is up must not time out on a busy machine.
    connectTimeoutMs: 3000,
    // A message whose sending the fault interrupted is held by its claim: sent again seconds later, not a minute.
    delivery: { claimMs: 3000 },
  });
  return { databaseUrl, proxy, world, requests: calls(world.platform.url, world.token, 'acme') };
}

/**
 * Sends `requests` from 8 clients while `fault` runs; the database is back when it resolves. Traffic goes on until
 * every kind of request has answered as it should three times since.
 */
async function throughFault(requests: Call[], fault: () => Promise<void>): Promise<{ answers: Answer[]; back: number }> {
  const traffic = startTraffic(requests, 8);
  await expect.poll(() => traffic.answers.filter((answer) => answer.status === 201).length).toBeGreaterThanOrEqual(4);
  await fault();
  const back = Date.now();
  const answeredWell = (call: Call) =>
    traffic.answers.filter((answer) => answer.call === call.name && answer.sentAt >= back && call.ok.includes(answer.status)).length;
  await expect.poll(() => Math.min(...requests.map(answeredWell))).toBeGreaterThanOrEqual(3);
  return { answers: await traffic.stop(), back };
}

/**
 * What clients saw through the fault: the answers of a service that is well, or 503 with `Retry-After`, never a 500;
 * the service back within seconds of the database; and every create answered 201 has its code delivered, so the
 * delivery loop outlived the fault.
 */
async function expectOutlived(requests: Call[], { answers, back }: { answers: Answer[]; back: number }): Promise<void> {
  expect(unexpectedAnswers(requests, answers)).toEqual([]);
  expect(answers.some((answer) => answer.status === 503)).toBe(true);
  expect(recoveredAfter(requests, answers, back)).toBeLessThan(5000);
  const created = answers
    .filter((answer) => answer.call.startsWith('create') && answer.status === 201)
    .map((answer) => numberOf(answer.sequence));
  const delivered = () => new Set(world!.graph.requests.map((sent) => `+${JSON.parse(sent.body).to}`));
  await expect.poll(() => created.filter((number) => !delivered().has(number))).toEqual([]);
}

it('answers 503 with Retry-After, never 500, while the database restarts, and serves again within seconds of its return', async () => {
  const { databaseUrl, proxy, requests } = await worldBehindProxy();
  const seen = await throughFault(requests, async () => {
    // A fast restart: the server ends every session (57P01), then refuses connections until it is up again.
    await queryPostgres(
      databaseUrl,
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    await proxy.down();
    await sleep(2000);
    await proxy.up();
  });
  await expectOutlived(requests, seen);
});

it('answers 503 with Retry-After, never 500, while the database is stopped, and serves again within seconds of its return', async () => {
  const { proxy, requests } = await worldBehindProxy();
  const seen = await throughFault(requests, async () => {
    await proxy.down();
    await sleep(5000);
    await proxy.up();
  });
  await expectOutlived(requests, seen);
});
