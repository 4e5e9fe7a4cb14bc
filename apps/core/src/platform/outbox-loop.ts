import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs, type Logger } from '@svc/server-kit';
import type { Claim, HeldItem } from './outbox.ts';
import type { Clock } from './clock.ts';

/**
 * A failed send: retryable for network errors, timeouts and a provider's temporary refusals; final otherwise.
 * `unanswered` when the request may have reached the provider but no answer came (a timeout, a connection reset after
 * it was written): the message may have gone out.
 */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly unanswered = false,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

export interface OutboxItem {
  id: string;
  attempts: number;
  lastError: string | null;
  /** Sends of the item that got no answer (`DeliveryError.unanswered`): none for an outbox that does not count them. */
  unanswered?: number;
}

/**
 * The claim an item in flight is held under: a send that outlasts its claim, when this core claims the item again,
 * goes on under the new claim, so it is recorded once and never sent a second time.
 */
interface HeldClaim {
  readonly id: string;
}

export interface OutboxHandlers<T extends OutboxItem, R> {
  /** Claims up to `limit` due items in the store: no other core gets them before the claim ends. */
  claim(claim: Claim, limit: number): Promise<T[]>;
  /** When the item stops being of use (its code or link expires): it is tried until then, never after. */
  deadline(item: T): string;
  /** Extends to `until` the claims this core still holds on `items` (not one another claimer took over). */
  renew(items: HeldItem[], until: string): Promise<unknown>;
  /**
   * The moment before a send: true when the claim `claimId` still holds the item, extended to `until`; false when
   * another claimer took it over; the reason when it is of no use any more (its code verified, say), not to be sent.
   */
  confirm(item: T, claimId: string, until: string): Promise<boolean | string>;
  /** Sends the item; throws (a DeliveryError to say how) to have it retried or given up on. */
  send(item: T): Promise<R>;
  /**
   * Records the item sent under the claim `claimId`. Like `retry` and `fail`, answers whether the record applied:
   * false when the claim ended and another claimer holds the item.
   */
  sent(item: T, claimId: string, result: R): Promise<boolean>;
  /** Sets the item to be tried again at `nextAttemptAt`, counting an `unanswered` send when it was one. */
  retry(item: T, claimId: string, nextAttemptAt: string, reason: string, unanswered: boolean): Promise<boolean>;
  fail(item: T, claimId: string, reason: string): Promise<boolean>;
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
  /** How long a claim lasts unless renewed: `claimMs` unless told. */
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
 * How long a claim holds an item unless renewed (SVC_OUTBOX_CLAIM_MS). A core renews the claims of what it has in
 * flight four times a claim's length, however long a send takes; the items of a core that died or stopped go to
 * another within about this long after its last renewal, plus a poll.
 */
export const claimMs = 5_000;
/** How often, in a claim's length, a core renews the claims of the items it has in flight. */
const renewalsPerClaim = 4;
/** The record of a send the provider took, tried again while the database is away: from 100 ms, doubling to 1 s. */
const recordBackoff = { baseMs: 100, maxMs: 1_000 };

/** Retries spread ±20 % around their schedule, so the sends that failed together do not retry together. */
const retryJitter = [0.8, 1.2] as const;

const expired = (lastError: string | null) => `expired before it could be delivered${lastError ? ` (last error: ${lastError})` : ''}`;
const unansweredTwice = (reason: string) =>
  `the provider did not answer two sends (${reason}); not sent a third time, as the first two may have arrived`;

/**
 * Drains an outbox table: sends what is due, up to `concurrency` at once, each send on its own (a slow answer
 * holds back no other), retries retryable failures with capped backoff until the item's deadline (a provider
 * outage of some minutes delays codes instead of losing them), and gives up on the rest with the reason
 * recorded. An item past its deadline is given up on without being sent. Items live in the database and are
 * claimed there before they are sent, so several cores on one database send each item once. A core sends at once
 * what is due when it has just queued an item (`kick`); one that queued nothing for a poll takes only what has been due
 * for a poll: a core sends what it queues, and another takes it only when that core is gone or falls behind.
 *
 * One send per item, as far as the world allows:
 * - A core renews its claims while it works on them, and confirms its claim (and that the item is still of use) in the
 *   moment before it sends: a core that stopped and came back after its claims ended sends nothing another took.
 * - A send the provider took is recorded, and recorded again with backoff while the database is away, under a claim
 *   the core keeps renewing. After the database was away, a core takes no item for a claim's length, so the core that
 *   sent an item records it before another could take it. Only a core that dies between a send and its record leaves
 *   an item to be sent again.
 * - A send that got no answer may have arrived: it is tried again once, never a third time.
 */
export function createOutboxLoop<T extends OutboxItem, R>(handlers: OutboxHandlers<T, R>, options: OutboxLoopOptions) {
  const { name, clock, log, concurrency } = options;
  const lowWater = concurrency / 2;
  const claimFor = options.claimMs ?? claimMs;
  const inFlight = new Map<string, { sending: Promise<void>; held: { id: string } }>();
  let timer: NodeJS.Timeout | undefined;
  let renewer: NodeJS.Timeout | undefined;
  let filling: Promise<void> | undefined;
  let scheduled = false;
  let again = false;
  let stopped = false;
  let lastClaim = 0;
  /** When this core last queued an item (`kick`): until a poll after that, it sends what is due at once. */
  let lastQueued = Number.NEGATIVE_INFINITY;
  /** When a statement of this loop last failed: for a claim's length after it, it takes nothing. */
  let troubledAt = Number.NEGATIVE_INFINITY;

  const until = () => new Date(clock().getTime() + claimFor).toISOString();

  /** A record refused: this core's claim ended, and the claimer that holds the item now records its outcome. */
  function claimLost(item: T, outcome: string): void {
    log.warn({ outbox: name, id: item.id, outcome }, 'claim lost before the outcome was recorded; another core holds the item');
  }

  /** Records a send the provider took, again and again while the database fails it, until the item's deadline. */
  async function record(item: T, held: HeldClaim, result: R, deadline: number): Promise<boolean> {
    for (let tries = 1; ; tries++) {
      try {
        return await handlers.sent(item, held.id, result);
      } catch (error) {
        troubledAt = Date.now();
        if (clock().getTime() >= deadline || (stopped && tries >= renewalsPerClaim)) throw error;
        if (tries === 1) log.warn({ err: error, outbox: name, id: item.id }, 'sent, but the record failed; recording it again');
        await sleep(backoffMs(tries, recordBackoff));
      }
    }
  }

  /** After a failed send: retried with backoff while of use and worth it, else given up on. */
  async function failed(item: T, held: HeldClaim, error: unknown, deadline: number): Promise<void> {
    const retryable = !(error instanceof DeliveryError) || error.retryable;
    const unanswered = error instanceof DeliveryError && error.unanswered;
    const reason = (error as Error).message;
    const attempts = item.attempts + 1;
    const wait = backoffMs(attempts, { baseMs: options.backoffBaseMs, maxMs: options.maxBackoffMs, jitter: retryJitter });
    const next = clock().getTime() + wait;
    if (unanswered && (item.unanswered ?? 0) >= 1) {
      if (await handlers.fail(item, held.id, unansweredTwice(reason))) {
        log.warn({ outbox: name, id: item.id, attempts, reason }, 'no answer to two sends; giving up');
      } else claimLost(item, 'failed');
    } else if (retryable && next < deadline) {
      if (await handlers.retry(item, held.id, new Date(next).toISOString(), reason, unanswered)) {
        log.warn({ outbox: name, id: item.id, attempts, reason, unanswered }, 'send failed; will retry');
      } else claimLost(item, 'retry');
    } else if (await handlers.fail(item, held.id, retryable ? expired(reason) : reason)) {
      log.warn({ outbox: name, id: item.id, attempts, reason }, 'send failed; giving up');
    } else claimLost(item, 'failed');
  }

  async function attempt(item: T, held: HeldClaim): Promise<void> {
    const deadline = Date.parse(handlers.deadline(item));
    if (clock().getTime() >= deadline) {
      if (await handlers.fail(item, held.id, expired(item.lastError))) {
        log.warn({ outbox: name, id: item.id, attempts: item.attempts }, 'expired before it could be delivered');
      } else claimLost(item, 'expired');
      return;
    }
    const confirmed = await handlers.confirm(item, held.id, until());
    if (confirmed === false) return claimLost(item, 'confirmed');
    if (confirmed !== true) {
      if (!(await handlers.fail(item, held.id, confirmed))) claimLost(item, 'not sent');
      return;
    }
    let result: R;
    try {
      result = await handlers.send(item);
    } catch (error) {
      return failed(item, held, error, deadline);
    }
    if (!(await record(item, held, result, deadline))) claimLost(item, 'sent');
  }

  function send(item: T, claimId: string): void {
    const held = { id: claimId };
    const sending = attempt(item, held)
      .catch((error: unknown) => {
        troubledAt = Date.now();
        log.error({ err: error, outbox: name, id: item.id }, 'outbox send failed');
      })
      .finally(() => {
        inFlight.delete(item.id);
        if (inFlight.size <= lowWater) wake();
      });
    inFlight.set(item.id, { sending, held });
  }

  /** Extends the claims of what is in flight here, sends and records under way alike. */
  function renew(): void {
    if (inFlight.size === 0) return;
    const items = [...inFlight].map(([id, { held }]) => ({ id, claimId: held.id }));
    handlers.renew(items, until()).catch((error: unknown) => {
      troubledAt = Date.now();
      log.warn({ err: error, outbox: name, items: items.length }, 'could not renew the claims in flight');
    });
  }

  /** Starts what is due, as far as there is room. */
  async function fill(): Promise<void> {
    const room = concurrency - inFlight.size;
    if (room <= 0) return;
    const now = clock().getTime();
    // The database was away: the cores that sent items then record them before anyone takes them over.
    if (Date.now() - troubledAt < claimFor) return;
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
        .catch((error: unknown) => {
          troubledAt = Date.now();
          log.error({ err: error, outbox: name }, 'outbox loop failed');
        })
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
      renewer = setInterval(renew, claimFor / renewalsPerClaim);
      wake();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await filling;
      await Promise.all([...inFlight.values()].map(({ sending }) => sending));
      clearInterval(renewer);
    },
  };
}

export type OutboxLoop = ReturnType<typeof createOutboxLoop>;
