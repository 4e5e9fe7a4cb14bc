import { DomainError, invitationsPerHour } from '@svc/domain';
import { Redis } from 'ioredis';
import { type IRateLimiterOptions, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** The limits, by what they guard: points per duration (seconds), per key. */
const limits = {
  /** User-code entries on the approval pages, per client IP. */
  userCodeEntry: { keyPrefix: 'user-code', points: 10, duration: 600 },
  /** Device authorizations started, per client IP. */
  deviceStart: { keyPrefix: 'device-start', points: 30, duration: 600 },
  /** Sign-in mails per address, and per client IP. */
  mailPerAddress: { keyPrefix: 'mail-address', points: 5, duration: 900 },
  mailPerIp: { keyPrefix: 'mail-ip', points: 20, duration: 900 },
  /** Invitation mails per workspace. */
  invitationsPerWorkspace: { keyPrefix: 'invitations', points: invitationsPerHour, duration: 3600 },
} satisfies Record<string, IRateLimiterOptions>;

export interface RateLimitOptions {
  /** SVC_REDIS_URL: counts kept in Redis, shared by every core using it; unset, in this process's memory. */
  redisUrl?: string;
  /** Put before every key in Redis (`svc:` unless told), so several deployments can share one server. */
  redisKeyPrefix?: string;
}

/**
 * Guards against guessing and mail floods. With Redis the counts are shared by all cores; while Redis is out of reach
 * each core counts in its own memory (rate-limiter-flexible's insurance limiter) rather than failing or waiting.
 */
const connectTimeoutMs = 2_000;

export function createRateLimits({ redisUrl, redisKeyPrefix = 'svc:' }: RateLimitOptions = {}) {
  const redis = redisUrl
    ? new Redis(redisUrl, {
        // Commands fail at once while disconnected (the insurance limiter answers) instead of queueing until Redis is back.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        connectTimeout: connectTimeoutMs,
        commandTimeout: 1_000,
        lazyConnect: false,
      })
    : undefined;
  // ioredis reconnects by itself; an unreachable server is not a fault of the request being limited.
  redis?.on('error', () => {});

  const limiter = (options: IRateLimiterOptions) =>
    redis
      ? new RateLimiterRedis({
          ...options,
          keyPrefix: `${redisKeyPrefix}rl:${options.keyPrefix}`,
          storeClient: redis,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory(options),
        })
      : new RateLimiterMemory(options);
  const limiters = Object.fromEntries(Object.entries(limits).map(([name, options]) => [name, limiter(options)])) as Record<
    keyof typeof limits,
    RateLimiterMemory | RateLimiterRedis
  >;

  return {
    /** Spends one point; over the limit throws 429 rate_limited with Retry-After. */
    async consume(limiter: keyof typeof limits, key: string, what: string): Promise<void> {
      try {
        await limiters[limiter].consume(key);
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        throw new DomainError('rate_limited', `too many ${what}; try again in ${retryAfter} s`, {
          details: { retry_after_seconds: retryAfter },
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
    },
    /**
     * Waits for the first connection to Redis: true once counts are shared (or without Redis), false when it cannot
     * be reached (counts stay in memory until it can).
     */
    async connected(): Promise<boolean> {
      if (!redis || redis.status === 'ready') return true;
      return new Promise((resolve) => {
        // A server that takes the connection but never answers is out of reach too.
        const timer = setTimeout(() => settle(false)(), connectTimeoutMs);
        const settle = (ready: boolean) => () => {
          clearTimeout(timer);
          redis.off('ready', onReady).off('error', onError);
          resolve(ready);
        };
        const onReady = settle(true);
        const onError = settle(false);
        redis.once('ready', onReady).once('error', onError);
      });
    },
    /** Closes the connection to Redis, if any. */
    async close(): Promise<void> {
      if (redis) redis.disconnect();
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
