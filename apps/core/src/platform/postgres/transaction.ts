import { DomainError } from '@svc/domain';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Backoff, backoffMs } from '@svc/server-kit';
import { sqlState } from '../unavailable.ts';
import type { PgDb } from './database.ts';

export type PgTx = Parameters<Parameters<PgDb['transaction']>[0]>[0];

export interface TransactOptions {
  /**
   * `serializable` (the default): the transaction behaves as if it ran alone, as every write on SQLite does, so a
   * rule that reads then writes (one pending verification per number, the next version number) holds across cores.
   * `read committed`: for claims that lock their rows (`for update skip locked`) and need no more.
   */
  isolation?: 'serializable' | 'read committed';
}

/** Runs `work` in one transaction, retried from the start when PostgreSQL aborts it for a concurrent one. */
export type Transact = <T>(work: (tx: PgTx) => Promise<T>, options?: TransactOptions) => Promise<T>;

const retriedCodes = new Set(['40001', '40P01']); // serialization failure, deadlock
const duplicateKey = '23505';
const maxAttempts = 40;

/** The answer to a write a unique index refuses: the request clashed with data already there. */
export const conflict = () =>
  new DomainError('conflict', 'this conflicts with something saved before or at the same time; retry the request');

/** Before its next try, an aborted transaction waits a few milliseconds at random: 0-2 ms first, 0-50 ms at most. */
const retryBackoff: Backoff = { baseMs: 2, maxMs: 50 };

/** Runs `attempt` again when PostgreSQL aborts it for a concurrent transaction; a duplicate key answers `conflict`. */
async function retried<T>(attempt: () => Promise<T>): Promise<T> {
  for (let count = 1; ; count++) {
    try {
      return await attempt();
    } catch (error) {
      const state = sqlState(error);
      if (state && retriedCodes.has(state) && count < maxAttempts) {
        await sleep(backoffMs(count, retryBackoff));
        continue;
      }
      if (state === duplicateKey) throw conflict();
      throw error;
    }
  }
}

/**
 * The store's writes. A transaction PostgreSQL aborts for a concurrent one is run again (a few milliseconds later,
 * at random, so racing cores spread out); a duplicate key is answered as the domain error `conflict` (409), as on
 * SQLite: a unique index that refuses a write means the request clashed with data already there.
 */
export function transactor(db: PgDb): Transact {
  return (work, { isolation = 'serializable' } = {}) => retried(() => db.transaction(work, { isolationLevel: isolation }));
}

/**
 * Runs a write that is one statement reading and changing its rows at once, answered as `transact` answers.
 * PostgreSQL runs such a statement as a transaction of its own at read committed, exactly as
 * `transact(work, { isolation: 'read committed' })` would, without the round trips of its begin and commit.
 */
export const statement = <T>(write: () => Promise<T>): Promise<T> => retried(write);
