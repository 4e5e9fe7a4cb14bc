import { DomainError, invitationsPerHour } from '@svc/domain';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Guards against guessing and mail floods. Core is the single writer, so limits live in its memory;
 * a multi-instance core would move them to a shared store (rate-limiter-flexible has Redis and Postgres ones).
 */
export function createRateLimits() {
  const limiters = {
    /** User-code entries on the approval pages, per client IP. */
    userCodeEntry: new RateLimiterMemory({ keyPrefix: 'user-code', points: 10, duration: 600 }),
    /** Device authorizations started, per client IP. */
    deviceStart: new RateLimiterMemory({ keyPrefix: 'device-start', points: 30, duration: 600 }),
    /** Sign-in mails per address, and per client IP. */
    mailPerAddress: new RateLimiterMemory({ keyPrefix: 'mail-address', points: 5, duration: 900 }),
    mailPerIp: new RateLimiterMemory({ keyPrefix: 'mail-ip', points: 20, duration: 900 }),
    /** Invitation mails per workspace. */
    invitationsPerWorkspace: new RateLimiterMemory({ keyPrefix: 'invitations', points: invitationsPerHour, duration: 3600 }),
  };

  return {
    /** Spends one point; over the limit throws 429 rate_limited with Retry-After. */
    async consume(limiter: keyof typeof limiters, key: string, what: string): Promise<void> {
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
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
