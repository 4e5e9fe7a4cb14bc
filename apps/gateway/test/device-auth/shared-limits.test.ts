import { randomUUID } from 'node:crypto';
import { request, testRedisUrl } from '@svc/testkit';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';

/** This run's keys, removed afterwards. */
const redisKeyPrefix = `svc-test-${randomUUID()}:`;
const platforms: TestPlatform[] = [];

afterAll(async () => {
  await Promise.all(platforms.map((platform) => platform.stop()));
  const redis = new Redis(testRedisUrl);
  const keys = await redis.keys(`${redisKeyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

it('counts sign-in mails to one address across two cores sharing Redis: the sixth is refused, whichever core takes it', async () => {
  for (let i = 0; i < 2; i++)
    platforms.push(await startPlatform({ localMode: true, evalConcurrency: 0, rateLimits: { redisUrl: testRedisUrl, redisKeyPrefix } }));
  const [a, b] = platforms as [TestPlatform, TestPlatform];
  const signIn = (platform: TestPlatform) => request(`${platform.url}/cli/device_authorizations`, { json: { email: 'ada@example.com' } });
  const statuses: number[] = [];
  for (const platform of [a, b, a, b, a]) statuses.push((await signIn(platform)).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200]);
  const refused = await signIn(b);
  expect(refused.status).toBe(429);
  expect(refused.body.error).toBe('rate_limited'); // OAuth's error form, as device authorization speaks
  expect(refused.body.error_description).toContain('sign-in mails to this address');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
});
