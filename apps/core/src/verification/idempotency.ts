import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError, type WireError } from '@svc/domain';
import type { Store } from '../store.ts';
import { type Clock, isoNow } from '../platform/clock.ts';
import { sha256 } from '../platform/secrets.ts';

const keyLifetimeMs = 24 * 60 * 60 * 1000;
/**
 * How long a key is the running request's alone unless renewed: the core running it renews it four times as often, so
 * a retry runs it again only when that core died or stopped, within about this long.
 */
const claimMs = 5_000;
const renewalsPerClaim = 4;
/** How often a request waits to look again whether the one running under its key answered. */
const answerPollMs = [5, 10, 20, 50, 100];
/**
 * How long a request waits for the answer of one running under its key before it answers 409
 * `idempotency_key_in_progress`, with a `Retry-After` of the time left on that one's claim.
 */
export const inProgressWaitMs = 2_000;

type Outcome = { ok: true; value: unknown } | { ok: false; error: WireError };
/**
 * Whether an answer is final, so a retry must get it again. A 429 or a 5xx is not (waiting or retrying may
 * change it), nor is a missing sender (the owner may configure one): those are answered afresh.
 */
const isFinal = (error: DomainError) => error.status < 500 && error.status !== 429 && error.code !== 'sender_not_configured';

export interface IdempotencyScope {
  workspaceId: string;
  operation: string;
  key: string | undefined;
  /** What identifies the request: a retry must send the same. */
  request: unknown;
}

/**
 * Idempotency-Key handling (as Stripe and the IETF draft do): the first final answer to a key, success or
 * client error, is stored for 24 hours and replayed to retries, which neither re-send nor spend an attempt.
 * The same key with a different request is 422 `idempotency_key_reused`. A request claims its key in the store
 * before it runs, so requests that race on one key, in one core or several, run once: the others wait for its
 * answer and replay it (or run afresh when it was not final).
 */
export function createIdempotency(store: Store, clock: Clock) {
  const replay = <T>(response: string): T => {
    const outcome = JSON.parse(response) as Outcome;
    if (outcome.ok) return outcome.value as T;
    throw DomainError.fromWire(outcome.error);
  };

  /** Claims the key, or answers from it; throws 409 when another request holds it past `inProgressWaitMs`. */
  async function claimed(scope: IdempotencyScope & { key: string }, claimId: string): Promise<{ response: string | null }> {
    const { workspaceId, operation, key } = scope;
    const requestHash = sha256(JSON.stringify(scope.request));
    const started = performance.now();
    for (let wait = 0; ; wait++) {
      const now = clock().getTime();
      const since = new Date(now - keyLifetimeMs).toISOString();
      const claim = { id: claimId, now: new Date(now).toISOString(), until: new Date(now + claimMs).toISOString() };
      const record = await store.idempotency.claim({ workspaceId, operation, key }, requestHash, claim, since);
      if (record.requestHash !== requestHash) {
        throw new DomainError('idempotency_key_reused', 'this Idempotency-Key was used with a different request', {
          field: 'Idempotency-Key',
        });
      }
      if (record.response !== null || record.claimId === claimId) return record;
      if (performance.now() - started >= inProgressWaitMs) {
        const retryAfter = Math.max(1, Math.ceil((Date.parse(record.claimedUntil ?? claim.until) - now) / 1000));
        throw new DomainError('idempotency_key_in_progress', 'a request with this Idempotency-Key is still running; retry shortly', {
          field: 'Idempotency-Key',
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
      await sleep(answerPollMs[Math.min(wait, answerPollMs.length - 1)]);
    }
  }

  async function runOnce<T>(scope: IdempotencyScope & { key: string }, run: () => Promise<T>): Promise<T> {
    const { workspaceId, operation, key } = scope;
    const keyScope = { workspaceId, operation, key };
    const claimId = randomUUID();
    const { response } = await claimed(scope, claimId);
    if (response !== null) return replay<T>(response);
    // Renewed while it runs: a retry elsewhere waits for this answer, not for the claim to end.
    const renewal = setInterval(() => {
      const until = new Date(clock().getTime() + claimMs).toISOString();
      store.idempotency.renew(keyScope, claimId, until).catch(() => {});
    }, claimMs / renewalsPerClaim);
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: await run() };
    } catch (error) {
      if (!(error instanceof DomainError) || !isFinal(error)) {
        await store.idempotency.release(keyScope, claimId);
        throw error;
      }
      outcome = { ok: false, error: error.toWire() };
    } finally {
      clearInterval(renewal);
    }
    await store.idempotency.answer(keyScope, claimId, JSON.stringify(outcome), isoNow(clock));
    if (outcome.ok) return outcome.value as T;
    throw DomainError.fromWire(outcome.error);
  }

  return {
    async run<T>(scope: IdempotencyScope, run: () => Promise<T>): Promise<T> {
      if (!scope.key) return run();
      return runOnce({ ...scope, key: scope.key }, run);
    },

    /** The moment before which stored answers are of no more use: retries are answered from them for 24 hours. */
    expiredBefore(): string {
      return new Date(clock().getTime() - keyLifetimeMs).toISOString();
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
