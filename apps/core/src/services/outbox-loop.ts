import { randomUUID } from 'node:crypto';
import { backoffMs, type Logger } from '@svc/server-kit';
import type { Claim } from '../store/messaging-store.ts';
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
  lastError: string | null;
}

export interface OutboxHandlers<T extends OutboxItem> {
  /** Claims up to `limit` due items in the store: no other core gets them before the claim ends. */
  claim(claim: Claim, limit: number): Promise<T[]>;
  /** When the item stops being of use (its code or link expires): it is tried until then, never after. */
  deadline(item: T): string;
  /**
   * Sends one item and records it sent under the claim `held.id`, read once sent; throws to have it retried or given
   * up on. Like `retry` and `fail`, answers whether the record applied: false when the claim ended and another
   * claimer holds the item.
   */
  deliver(item: T, held: HeldClaim): Promise<boolean>;
  retry(item: T, claimId: string, nextAttemptAt: string, reason: string): Promise<boolean>;
  fail(item: T, claimId: string, reason: string): Promise<boolean>;
}

/**
 * The claim an item in flight is held under: a send that outlasts its claim, when this core claims the item again,
 * goes on under the new claim, so it is recorded once and never sent a second time.
 */
export interface HeldClaim {
  readonly id: string;
}

export interface OutboxLoopOptions {
  name: string;
  /**
   * Items in flight at once: a send takes a provider's ~100-500 ms, so a core sends at most this many per such wait.
   * Finished sends make room for more once half of them are done.
   */
  concurrency: number;
  pollMs: number;
  backoffBaseMs: number;
  maxBackoffMs: number;
  /** How long a claim lasts: `claimMs` unless told. */
  claimMs?: number;
  clock: Clock;
  log: Logger;
}

/**
 * The least time between two claims. Under load every turn of the event loop would claim, each claim a query that
 * passes over the items in flight (and, with several cores, those other cores are claiming); one claim a moment
 * later takes what they would have, for a few milliseconds more on a code's way out.
 */
const minClaimGapMs = 20;
/**
 * How long a claimed item is this core's alone unless told (SVC_OUTBOX_CLAIM_MS): far longer than a send takes (a
 * silent provider or SMTP server fails it after SVC_SENDER_TIMEOUT_MS or SMTP_TIMEOUT_MS, 10 s unless told), and
 * short enough that the items of a core that died are sent by another a minute later.
 */
export const claimMs = 60_000;

/** Retries spread ±20 % around their schedule, so the sends that failed together do not retry together. */
const retryJitter = [0.8, 1.2] as const;

const expired = (lastError: string | null) => `expired before it could be delivered${lastError ? ` (last error: ${lastError})` : ''}`;

/**
 * Drains an outbox table: sends what is due, up to `concurrency` at once, each send on its own (a slow answer
 * holds back no other), retries retryable failures with capped backoff until the item's deadline (a provider
 * outage of some minutes delays codes instead of losing them), and gives up on the rest with the reason
 * recorded. An item past its deadline is given up on without being sent. Items live in the database and are
 * claimed there before they are sent, so several cores on one database send each item once, and the claims of
 * a core that stopped mid-send end after the claim's length, when another core sends its items. A core sends at once
 * what is due when it has just queued an item (`kick`); one that queued nothing for a poll takes only what has been due
 * for a poll: a core sends what it queues, and another takes it only when that core is gone or falls behind.
 */
export function createOutboxLoop<T extends OutboxItem>(handlers: OutboxHandlers<T>, options: OutboxLoopOptions) {
  const { name, clock, log, concurrency } = options;
  const lowWater = concurrency / 2;
  const claimFor = options.claimMs ?? claimMs;
  const inFlight = new Map<string, { sending: Promise<void>; held: { id: string } }>();
  let timer: NodeJS.Timeout | undefined;
  let filling: Promise<void> | undefined;
  let scheduled = false;
  let again = false;
  let stopped = false;
  let lastClaim = 0;
  /** When this core last queued an item (`kick`): until a poll after that, it sends what is due at once. */
  let lastQueued = Number.NEGATIVE_INFINITY;

  /** A record refused: this core's claim ended, and the claimer that holds the item now records its outcome. */
  function claimLost(item: T, outcome: string): void {
    log.warn({ outbox: name, id: item.id, outcome }, 'claim lost before the outcome was recorded; another core holds the item');
  }

  async function attempt(item: T, held: HeldClaim): Promise<void> {
    const deadline = Date.parse(handlers.deadline(item));
    if (clock().getTime() >= deadline) {
      if (await handlers.fail(item, held.id, expired(item.lastError))) {
        log.warn({ outbox: name, id: item.id, attempts: item.attempts }, 'expired before it could be delivered');
      } else claimLost(item, 'expired');
      return;
    }
    try {
      if (!(await handlers.deliver(item, held))) claimLost(item, 'sent');
    } catch (error) {
      const retryable = !(error instanceof DeliveryError) || error.retryable;
      const reason = (error as Error).message;
      const attempts = item.attempts + 1;
      const wait = backoffMs(attempts, { baseMs: options.backoffBaseMs, maxMs: options.maxBackoffMs, jitter: retryJitter });
      const next = clock().getTime() + wait;
      if (retryable && next < deadline) {
        if (await handlers.retry(item, held.id, new Date(next).toISOString(), reason)) {
          log.warn({ outbox: name, id: item.id, attempts, reason }, 'send failed; will retry');
        } else claimLost(item, 'retry');
      } else if (await handlers.fail(item, held.id, retryable ? expired(reason) : reason)) {
        log.warn({ outbox: name, id: item.id, attempts, reason }, 'send failed; giving up');
      } else claimLost(item, 'failed');
    }
  }

  function send(item: T, claimId: string): void {
    const held = { id: claimId };
    const sending = attempt(item, held)
      .catch((error: unknown) => log.error({ err: error, outbox: name, id: item.id }, 'outbox send failed'))
      .finally(() => {
        inFlight.delete(item.id);
        if (inFlight.size <= lowWater) wake();
      });
    inFlight.set(item.id, { sending, held });
  }

  /** Starts what is due, as far as there is room. */
  async function fill(): Promise<void> {
    const room = concurrency - inFlight.size;
    if (room <= 0) return;
    const now = clock().getTime();
    // A core that queued nothing lately takes only what has waited a poll: another core sends what it queues itself.
    const dueBy = now - lastQueued <= options.pollMs ? now : now - options.pollMs;
    const claim = { id: randomUUID(), now: new Date(dueBy).toISOString(), until: new Date(now + claimFor).toISOString() };
    // An item still in flight here when its claim ended may come back: the send under way goes on under the new claim.
    for (const item of await handlers.claim(claim, room)) {
      const under = inFlight.get(item.id);
      if (under) under.held.id = claim.id;
      else send(item, claim.id);
    }
  }

  /**
   * Fills at the end of this turn of the event loop (so the kicks of a busy turn make one query, after its writes
   * are committed), no sooner than `minClaimGapMs` after the last claim, or once more after the fill under way.
   * Above the low-water mark, finishing sends wake it instead.
   */
  function wake(): void {
    if (stopped || scheduled || inFlight.size > lowWater) return;
    scheduled = true;
    const wait = lastClaim + minClaimGapMs - Date.now();
    const run = () => {
      scheduled = false;
      if (stopped) return;
      if (filling) {
        again = true;
        return;
      }
      lastClaim = Date.now();
      filling = fill()
        .catch((error: unknown) => log.error({ err: error, outbox: name }, 'outbox loop failed'))
        .finally(() => {
          filling = undefined;
          if (again) {
            again = false;
            wake();
          }
        });
    };
    if (wait > 0) setTimeout(run, wait);
    else setImmediate(run);
  }

  return {
    /** Sends what is due now: an item was just queued here. */
    kick(): void {
      lastQueued = clock().getTime();
      wake();
    },
    start() {
      timer = setInterval(wake, options.pollMs);
      wake();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await filling;
      await Promise.all([...inFlight.values()].map(({ sending }) => sending));
    },
  };
}

export type OutboxLoop = ReturnType<typeof createOutboxLoop>;
