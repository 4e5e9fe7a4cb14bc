import type { ClaimedEvent } from '@svc/domain';
import { type Backoff, backoffMs, type Logger } from '@svc/server-kit';
import type { EventKind } from './store.ts';
import type { Store } from '../store.ts';
import { type Clock, isoNow } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { WorkSignal } from '../platform/work-signal.ts';

/** A failed event waits 10 s before its next attempt, twice as long after each further failure, up to an hour. */
const retryBackoff: Backoff = { baseMs: 10_000, maxMs: 3_600_000, jitter: [1, 1] };

export interface GithubEventDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** How long a claim holds an event: an app killed mid-event gives it back after this. */
  claimMs: number;
}

/**
 * The outbox of what the GitHub App must do (a finished preview run to report, a flags issue to update): kept by
 * core until the app says done, so an app restarted meanwhile still does it. The app claims events with a deadline
 * and long-polls for new ones.
 */
export function createGithubEventService({ store, clock, log, claimMs }: GithubEventDeps) {
  const signal = new WorkSignal();

  /** Enqueues an event once per kind and key; true when this call made it. */
  async function enqueue(kind: EventKind, key: string, payload: Record<string, unknown>): Promise<boolean> {
    const at = isoNow(clock);
    const made = await store.events.enqueue({
      id: newId('evt'),
      kind,
      key,
      payload,
      availableAt: at,
      attempts: 0,
      claimId: null,
      claimedUntil: null,
      doneAt: null,
      lastError: null,
      createdAt: at,
    });
    if (made) signal.notify();
    return made;
  }

  /** A run ended (finished or cancelled): when it is a pull request's preview, the app is to write its result there. */
  async function runEnded(runId: string): Promise<void> {
    const target = await store.previewTargets.get(runId);
    if (!target) return;
    if (await enqueue('run_finished', runId, { run_id: runId })) {
      log.info({ run: runId, repository: target.repository, pull_request: target.pullNumber }, 'preview run ended: comment queued');
    }
  }

  return {
    enqueue,
    runEnded,

    /** What a core stopped between a preview run's end and its event left undone: made at start (once, by key). */
    async announceEnded(): Promise<number> {
      let announced = 0;
      for (;;) {
        const targets = await store.previewTargets.unannounced(100);
        for (const target of targets) await runEnded(target.runId);
        announced += targets.length;
        if (targets.length < 100) return announced;
      }
    },

    /** Up to `max` events, as soon as there are any or after `waitMs`; none once the app has hung up. */
    async claim(consumer: string, max: number, waitMs: number, abort?: AbortSignal): Promise<{ events: ClaimedEvent[] }> {
      const claimed = await signal.poll(waitMs, abort, () => {
        const now = clock();
        return store.events.claim(max, now.toISOString(), new Date(now.getTime() + claimMs).toISOString(), () => newId('clm'));
      });
      for (const e of claimed) log.info({ consumer, event: e.id, kind: e.kind, key: e.key, attempt: e.attempts }, 'event claimed');
      return {
        events: claimed.map((e) => ({
          id: e.id,
          kind: e.kind,
          payload: e.payload,
          claim_id: e.claimId ?? '',
          claimed_until: e.claimedUntil ?? '',
          attempts: e.attempts,
        })),
      };
    },

    /** Ends every long poll: core is stopping. */
    stop(): void {
      signal.close();
    },

    /** The app did the event; refused (false) when its claim expired and the event went to another claimer. */
    async done(id: string, claimId: string): Promise<{ done: boolean }> {
      const done = await store.events.done(id, claimId, isoNow(clock));
      if (!done) log.info({ event: id }, "event done refused: its claim is not the caller's any more");
      return { done };
    },

    /** The app failed the event: it is handed out again later, each failure waiting twice as long as the one before. */
    async retry(id: string, claimId: string, error: string): Promise<{ retried: boolean; available_at: string | null }> {
      const event = await store.events.get(id);
      if (!event) return { retried: false, available_at: null };
      const availableAt = new Date(clock().getTime() + backoffMs(event.attempts, retryBackoff)).toISOString();
      const retried = await store.events.retry(id, claimId, availableAt, error);
      if (retried)
        log.warn(
          { event: id, kind: event.kind, key: event.key, attempt: event.attempts, error, available_at: availableAt },
          'event failed',
        );
      return { retried, available_at: retried ? availableAt : null };
    },
  };
}

export type GithubEventService = ReturnType<typeof createGithubEventService>;
