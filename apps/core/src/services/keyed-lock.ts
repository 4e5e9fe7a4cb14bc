/**
 * Runs async work one at a time per key, in the order it arrives; work on other keys runs alongside. Core is the
 * single writer, so this serialises what must not interleave (a check and the write that depends on it) without
 * a database lock.
 */
export function keyedLock() {
  const tails = new Map<string, Promise<unknown>>();
  return async function withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = tails.get(key);
    const run = previous ? previous.then(work, work) : work();
    const tail = run.catch(() => {});
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
