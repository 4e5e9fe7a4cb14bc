import { DomainError, type WireError } from '@svc/domain';
import type { Store } from '../store/store.ts';
import { type Clock, isoNow } from './clock.ts';
import { keyedLock } from './keyed-lock.ts';
import { sha256 } from './secrets.ts';

const keyLifetimeMs = 24 * 60 * 60 * 1000;

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
 * The same key with a different request is 422 `idempotency_key_reused`.
 */
export function createIdempotency(store: Store, clock: Clock) {
  // Requests that race on one key run one after the other: the second replays the first's answer.
  const withLock = keyedLock();

  async function runOnce<T>(scope: IdempotencyScope & { key: string }, run: () => Promise<T>): Promise<T> {
    const requestHash = sha256(JSON.stringify(scope.request));
    const since = new Date(clock().getTime() - keyLifetimeMs).toISOString();
    const stored = await store.idempotency.get(scope.workspaceId, scope.operation, scope.key, since);
    if (stored) {
      if (stored.requestHash !== requestHash) {
        throw new DomainError('idempotency_key_reused', 'this Idempotency-Key was used with a different request', {
          field: 'Idempotency-Key',
        });
      }
      const outcome = JSON.parse(stored.response) as Outcome;
      if (outcome.ok) return outcome.value as T;
      throw DomainError.fromWire(outcome.error);
    }
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: await run() };
    } catch (error) {
      if (!(error instanceof DomainError) || !isFinal(error)) throw error;
      outcome = { ok: false, error: error.toWire() };
    }
    await store.idempotency.put(
      scope.workspaceId,
      scope.operation,
      scope.key,
      { requestHash, response: JSON.stringify(outcome) },
      isoNow(clock),
    );
    if (outcome.ok) return outcome.value as T;
    throw DomainError.fromWire(outcome.error);
  }

  return {
    async run<T>(scope: IdempotencyScope, run: () => Promise<T>): Promise<T> {
      if (!scope.key) return run();
      const { key } = scope;
      return withLock(`${scope.workspaceId}\u0000${scope.operation}\u0000${key}`, () => runOnce({ ...scope, key }, run));
    },

    /** The moment before which stored answers are of no more use: retries are answered from them for 24 hours. */
    expiredBefore(): string {
      return new Date(clock().getTime() - keyLifetimeMs).toISOString();
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
