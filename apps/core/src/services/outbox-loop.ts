import type { Logger } from '@svc/server-kit';
import type { Clock } from './clock.ts';

/** A failed send: retryable for network errors, timeouts and a provider's temporary refusals; final otherwise. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

export interface OutboxItem {
  id: string;
  attempts: number;
}

export interface OutboxHandlers<T extends OutboxItem> {
  due(now: string, limit: number): Promise<T[]>;
  /** Sends one item and records it sent; throws to have it retried or given up on. */
  deliver(item: T): Promise<void>;
  retry(item: T, nextAttemptAt: string, reason: string): Promise<void>;
  fail(item: T, reason: string): Promise<void>;
}

export interface OutboxLoopOptions {
  name: string;
  pollMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  clock: Clock;
  log: Logger;
}

/** Items sent at once: provider calls take ~100-500 ms, so one at a time would cap delivery at a few per second. */
const batchSize = 32;

/** Exponential backoff from `baseMs`, capped at a minute, with ±20 % jitter so retries do not stampede. */
export function backoffMs(attempt: number, baseMs: number): number {
  const delay = Math.min(baseMs * 2 ** (attempt - 1), 60_000);
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}

/**
 * Drains an outbox table: sends what is due, retries retryable failures with backoff, and gives up on the
 * rest with the reason recorded. Items live in the database, so a restart picks them up where they were.
 */
export function createOutboxLoop<T extends OutboxItem>(handlers: OutboxHandlers<T>, options: OutboxLoopOptions) {
  const { name, clock, log } = options;
  let timer: NodeJS.Timeout | undefined;
  let draining: Promise<void> | undefined;
  let again = false;

  async function attempt(item: T): Promise<void> {
    try {
      await handlers.deliver(item);
    } catch (error) {
      const retryable = !(error instanceof DeliveryError) || error.retryable;
      const reason = (error as Error).message;
      const attempts = item.attempts + 1;
      if (retryable && attempts < options.maxAttempts) {
        const next = new Date(clock().getTime() + backoffMs(attempts, options.backoffBaseMs)).toISOString();
        await handlers.retry(item, next, reason);
        log.warn({ outbox: name, id: item.id, attempts, reason }, 'send failed; will retry');
      } else {
        await handlers.fail(item, reason);
        log.warn({ outbox: name, id: item.id, attempts, reason }, 'send failed; giving up');
      }
    }
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      const due = await handlers.due(clock().toISOString(), batchSize);
      await Promise.all(due.map(attempt));
      if (due.length === batchSize) again = true;
    } while (again);
  }

  /** Runs a drain now, or once more after the one under way: never two at once. */
  function kick(): Promise<void> {
    if (draining) {
      again = true;
      return draining;
    }
    draining = drain()
      .catch((error: unknown) => log.error({ err: error, outbox: name }, 'outbox loop failed'))
      .finally(() => {
        draining = undefined;
      });
    return draining;
  }

  return {
    kick,
    start() {
      timer = setInterval(() => void kick(), options.pollMs);
      void kick();
    },
    async stop() {
      clearInterval(timer);
      await draining;
    },
  };
}

export type OutboxLoop = ReturnType<typeof createOutboxLoop>;
