import type Database from 'better-sqlite3';

/** Runs a unit of synchronous writes atomically; resolves once it is committed. */
export type Write = <T>(work: () => T) => Promise<T>;

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit. Every write of the store runs here: the writes made in one turn of the event loop share one
 * SQLite transaction, committed when the turn's I/O callbacks have run (setImmediate). A commit writes each
 * changed page to the WAL once, so on a busy core twenty verifications cost about as much I/O as two.
 *
 * Each unit runs in its own savepoint: a unit that throws rolls back alone and its caller sees the error at once,
 * while the others commit. A unit's promise settles only after the commit, so no answer ever reports a write
 * that a crash could still take back. Reads in the same turn see the group's writes, as they would a moment
 * later; should the COMMIT itself fail (disk full, I/O error), every writer in the group gets the error, but
 * such a read may have answered already. `afterCommit` runs after each commit that succeeded.
 */
export function groupCommit(sqlite: Database.Database, afterCommit: () => void = () => {}): { write: Write; flush: () => void } {
  const unit = sqlite.transaction((work: () => unknown) => work());
  let waiters: Waiter[] | undefined;

  function flush(): void {
    const group = waiters;
    if (!group) return;
    waiters = undefined;
    try {
      sqlite.exec('COMMIT');
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      for (const waiter of group) waiter.reject(error);
      return;
    }
    afterCommit();
    for (const waiter of group) waiter.resolve();
  }

  async function write<T>(work: () => T): Promise<T> {
    if (!waiters) {
      sqlite.exec('BEGIN IMMEDIATE');
      waiters = [];
      setImmediate(flush);
    }
    const result = unit(work) as T;
    const group = waiters;
    await new Promise<void>((resolve, reject) => group.push({ resolve, reject }));
    return result;
  }

  return { write, flush };
}
