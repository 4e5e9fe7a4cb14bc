/** The machine's Redis, where the tests of limits shared between processes keep their counts (SVC_TEST_REDIS_URL). */
export const testRedisUrl = process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
