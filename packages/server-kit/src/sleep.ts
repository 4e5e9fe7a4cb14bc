/**
 * Resolves after `ms`, or at once when `signal` aborts. Its abort listener goes when it resolves: a loop sleeps on
 * the one signal of its whole life, and listeners left from past sleeps would pile up on it.
 * @deprecated Use `setTimeout` of `node:timers/promises` (`import { setTimeout as sleep }`), which also removes its
 * abort listener once it resolves; with a signal it rejects on abort, so `.catch(() => undefined)` where an abort
 * only ends the wait.
 */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    signal?.addEventListener('abort', wake, { once: true });
  });
