import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { DomainError } from '@svc/domain';
import { freePort, testRedisUrl } from '@svc/testkit';
import { readEnv } from '../src/env.ts';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { createRateLimits, type RateLimits } from '../src/platform/rate-limits.ts';

/** This run's keys, removed afterwards. */
const redisKeyPrefix = `svc-test-${randomUUID()}:`;
const opened: RateLimits[] = [];

function limits(options: Parameters<typeof createRateLimits>[0]) {
  const rateLimits = createRateLimits(options);
  opened.push(rateLimits);
  return rateLimits;
}

afterAll(async () => {
  await Promise.all(opened.map((rateLimits) => rateLimits.close()));
  const redis = new Redis(testRedisUrl);
  const keys = await redis.keys(`${redisKeyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const refusal = (attempt: Promise<void>) =>
  attempt.then(
    () => undefined,
    (error: unknown) => error,
  );

it('two cores on one Redis share the count: the sixth sign-in mail to an address is refused by the other core', async () => {
  const first = limits({ redisUrl: testRedisUrl, redisKeyPrefix });
  const second = limits({ redisUrl: testRedisUrl, redisKeyPrefix });
  expect(await first.connected()).toBe(true);
  expect(await second.connected()).toBe(true);
  for (let i = 0; i < 3; i++) await first.consume('mailPerAddress', 'ada@example.com', 'sign-in mails');
  for (let i = 0; i < 2; i++) await second.consume('mailPerAddress', 'ada@example.com', 'sign-in mails');
  const error = await refusal(first.consume('mailPerAddress', 'ada@example.com', 'sign-in mails'));
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe('rate_limited');
  expect((error as DomainError).headers?.['Retry-After']).toMatch(/^\d+$/);
  expect(await refusal(second.consume('mailPerAddress', 'ada@example.com', 'sign-in mails'))).toBeInstanceOf(DomainError);
  // Another address has its own count.
  await expect(second.consume('mailPerAddress', 'grace@example.com', 'sign-in mails')).resolves.toBeUndefined();
});

it('without Redis each core counts alone', async () => {
  const first = limits({});
  const second = limits({});
  for (let i = 0; i < 5; i++) await first.consume('mailPerAddress', 'ada@example.com', 'sign-in mails');
  expect(await refusal(first.consume('mailPerAddress', 'ada@example.com', 'sign-in mails'))).toBeInstanceOf(DomainError);
  await expect(second.consume('mailPerAddress', 'ada@example.com', 'sign-in mails')).resolves.toBeUndefined();
});

it('with Redis out of reach, requests are still answered at once and limited by each core in its memory', async () => {
  const unreachable = limits({ redisUrl: `redis://127.0.0.1:${await freePort()}`, redisKeyPrefix });
  expect(await unreachable.connected()).toBe(false);
  const started = Date.now();
  for (let i = 0; i < 5; i++) await unreachable.consume('mailPerAddress', 'ada@example.com', 'sign-in mails');
  const error = await refusal(unreachable.consume('mailPerAddress', 'ada@example.com', 'sign-in mails'));
  expect((error as DomainError).code).toBe('rate_limited');
  expect(Date.now() - started).toBeLessThan(1_000);
});

/** A TCP server on a free port; closing it also drops the connections it took. */
async function listening(onConnection: (socket: Socket) => void): Promise<{ url: string; close(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    onConnection(socket);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

it('keeps answering at once when Redis goes away mid-run', async () => {
  // Redis behind a relay that can be cut, as a network or a Redis that fails would.
  const relay = await listening((client) => {
    const redis = new URL(testRedisUrl);
    const upstream = connect(Number(redis.port || 6379), redis.hostname);
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
  });
  const cut = limits({ redisUrl: relay.url, redisKeyPrefix });
  expect(await cut.connected()).toBe(true);
  await cut.consume('mailPerAddress', 'lin@example.com', 'sign-in mails');
  relay.close();
  const started = Date.now();
  for (let i = 0; i < 5; i++) await cut.consume('mailPerAddress', 'lin@example.com', 'sign-in mails');
  expect(((await refusal(cut.consume('mailPerAddress', 'lin@example.com', 'sign-in mails'))) as DomainError).code).toBe('rate_limited');
  expect(Date.now() - started).toBeLessThan(1_500);
});

it('counts in memory, without waiting on each request, when Redis takes connections but never answers', async () => {
  const silent = await listening(() => {});
  const hung = limits({ redisUrl: silent.url, redisKeyPrefix });
  expect(await hung.connected()).toBe(false);
  const started = Date.now();
  for (let i = 0; i < 5; i++) await hung.consume('mailPerAddress', 'ada@example.com', 'sign-in mails');
  expect(((await refusal(hung.consume('mailPerAddress', 'ada@example.com', 'sign-in mails'))) as DomainError).code).toBe('rate_limited');
  expect(Date.now() - started).toBeLessThan(500);
  silent.close();
});

it('reads SVC_REDIS_URL and SVC_REDIS_KEY_PREFIX, refusing to start on a URL that is not a redis:// one', () => {
  const base = { SVC_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };
  expect(readEnv(base).config.rateLimits).toEqual({ redisUrl: undefined, redisKeyPrefix: 'svc:' });
  expect(readEnv({ ...base, SVC_REDIS_KEY_PREFIX: 'shop-a:' }).config.rateLimits.redisKeyPrefix).toBe('shop-a:');
  expect(readEnv({ ...base, SVC_REDIS_URL: 'redis://10.0.0.7:6379' }).config.rateLimits.redisUrl).toBe('redis://10.0.0.7:6379');
  expect(() => readEnv({ ...base, SVC_REDIS_URL: 'http://10.0.0.7:6379' })).toThrow('SVC_REDIS_URL: expected redis://host:port');
});
