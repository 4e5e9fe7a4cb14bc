import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from './logger.ts';

/** Core answered 401: the caller's internal token, so its SVC_SECRET_KEY, is not core's. */
export const refusedByCore = (error: unknown): boolean =>
  (error as { meta?: { response?: { status?: number } } } | null | undefined)?.meta?.response?.status === 401;

export interface CoreLoopOptions {
  log: Logger;
  /** How long to wait before asking core again after it did not answer. */
  pollMs: number;
  /** Ends the loop. */
  signal: AbortSignal;
  /** What the logs say: once connected, and when core refuses the caller's key. */
  messages: { connected: string; refused: string };
  /** The fields every log line carries (which core, which caller). */
  context: () => Record<string, unknown>;
  /** Checks that core answers, before the first round and after it went away. */
  ping: () => Promise<unknown>;
  /** One round of work (a long poll and what it got); throws when core cannot be reached. */
  work: () => Promise<void>;
}

/**
 * The loop of a process that works for core (the eval runner, the GitHub App): checks that core answers, then does
 * rounds of work; when core goes away or refuses the key, logs it once and asks again every `pollMs`.
 */
export function runCoreLoop({ log, pollMs, signal, messages, context, ping, work }: CoreLoopOptions): {
  /** Resolves once core has answered for the first time. */
  connected: Promise<void>;
  /** Resolves once the loop ended (`signal` aborted). */
  done: Promise<void>;
} {
  let markConnected: () => void = () => {};
  const connected = new Promise<void>((resolve) => (markConnected = resolve));
  const done = (async () => {
    let reachable = false;
    let refused = false;
    while (!signal.aborted) {
      try {
        if (!reachable) {
          await ping();
          log.info(context(), messages.connected);
          reachable = true;
          refused = false;
          markConnected();
        }
        await work();
      } catch (error) {
        if (signal.aborted) break;
        if (refusedByCore(error)) {
          if (!refused) log.error(context(), messages.refused);
          refused = true;
        } else if (reachable) log.warn({ ...context(), err: error }, 'core unreachable; retrying');
        reachable = false;
        await sleep(pollMs, undefined, { signal }).catch(() => undefined);
      }
    }
  })();
  return { connected, done };
}
