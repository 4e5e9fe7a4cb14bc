import { randomUUID } from 'node:crypto';
import { DomainError } from '@svc/domain';
import { freePort } from '@svc/testkit';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { createRateLimits, type RateLimits } from '../src/services/rate-limits.ts';

const redisUrl = 'redis://127.0.0.1:6379';
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
  const redis = new Redis(redisUrl);
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
  const first = limits({ redisUrl, redisKeyPrefix });
  const second = limits({ redisUrl, redisKeyPrefix });
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
