import { setTimeout as sleep } from 'node:timers/promises';
import { createPostgresDatabase, dropPostgresDatabases, holdLock } from '@svc/testkit';
import type pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { withCallBudget } from '../src/platform/call-budget.ts';
import { budgetedPool } from '../src/platform/postgres/call-deadlines.ts';
import { unavailable } from '../src/platform/unavailable.ts';

afterAll(dropPostgresDatabases);

const statementTimeoutMs = 10_000;

/** Runs `work` with a budgeted pool of `max` connections on a new database, then ends the pool. */
async function onPool(work: (pool: pg.Pool, url: string) => Promise<void>, max = 2): Promise<void> {
  const url = await createPostgresDatabase();
  const pool = budgetedPool(
    { connectionString: url, max, connectionTimeoutMillis: 5_000, statement_timeout: statementTimeoutMs },
    { statementTimeoutMs, connectTimeoutMs: 5_000 },
  );
  pool.on('error', () => {});
  try {
    await work(pool, url);
  } finally {
    await pool.end();
  }
}

/** How long `work` took to fail, and what it failed with as core answers it (503 `core_unavailable` or not). */
async function failure(work: () => Promise<unknown>): Promise<{ ms: number; answer: string | undefined }> {
  const started = performance.now();
  const error = await work().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return { ms: performance.now() - started, answer: error === undefined ? 'no failure' : unavailable(error)?.code };
}

it("gives a call's statements one budget between them: the one that outlasts it is cancelled, and the next is not sent", () =>
  onPool(async (pool) => {
    const sent: string[] = [];
    const { ms, answer } = await failure(() =>
      withCallBudget(1_000, async () => {
        for (const seconds of [0.6, 0.6, 0]) {
          sent.push(`select pg_sleep(${seconds})`);
          await pool.query(`select pg_sleep(${seconds})`);
        }
      }),
    );
    expect(answer).toBe('core_unavailable');
    expect(sent).toHaveLength(2);
    // The second statement, which alone would have ended well, was cancelled as the call's 1 s ran out.
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(statementTimeoutMs / 2);
    // The connection whose statement was cancelled serves again.
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  }));

it('gives a transaction the budget of its call, waits for a lock included, and rolls it back', () =>
  onPool(async (pool, url) => {
    await pool.query('create table counted (n int)');
    const lock = await holdLock(url, 'lock table counted in access exclusive mode');
    const { ms, answer } = await failure(() =>
      withCallBudget(800, async () => {
        const client = await pool.connect();
        try {
          await client.query('begin');
          await client.query('select pg_sleep(0.3)');
          await client.query('insert into counted values (1)');
          await client.query('commit');
        } catch (error) {
          await client.query('rollback');
          throw error;
        } finally {
          client.release();
        }
      }),
    );
    await lock.release();
    expect(answer).toBe('core_unavailable');
    expect(ms).toBeLessThan(statementTimeoutMs / 2);
    // Rolled back, and the connection serves again.
    expect((await pool.query('select count(*)::int as n from counted')).rows).toEqual([{ n: 0 }]);
  }));

it('counts only the time a call waits on the database, and leaves work outside calls to the statement timeout', () =>
  onPool(async (pool) => {
    await pool.query('select 1'); // a connection open, as a busy core has
    // A chat turn waits for its model longer than its budget, then writes.
    const afterModel = await withCallBudget(1_000, async () => {
      await sleep(1_500);
      return (await pool.query('select 1 as one')).rows;
    });
    expect(afterModel).toEqual([{ one: 1 }]);
    // A delivery loop's statement has no call's budget.
    expect((await pool.query('select pg_sleep(0.4), 2 as two')).rows[0].two).toBe(2);
    // Nor has the work a call set off and left running (a delivery it woke), though it runs in the call's context.
    const setOff = await withCallBudget(100, async () => {
      const later = sleep(10).then(() => pool.query('select pg_sleep(0.4), 3 as three'));
      return { later };
    });
    expect((await setOff.later).rows[0].three).toBe(3);
  }));

it("ends a call's wait for a connection with its budget, and hands the connection that came late to the next", () =>
  onPool(async (pool) => {
    const holder = await pool.connect();
    const { ms, answer } = await failure(() => withCallBudget(300, () => pool.query('select 1')));
    expect(answer).toBe('core_unavailable');
    // Short of the pool's own wait for a connection, 5 s.
    expect(ms).toBeLessThan(4_000);
    holder.release();
    expect((await pool.query('select 3 as three')).rows).toEqual([{ three: 3 }]);
  }, 1));

it('never cancels the statement after the one a deadline caught: the connections serve the next calls whole', () =>
  onPool(async (pool) => {
    // Deadlines that fall as statements end, and next statements sent at once on the same connections.
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        await withCallBudget(20 + (i % 10), () => pool.query('select pg_sleep(0.025)')).catch(() => undefined);
        await pool.query('select pg_sleep(0.01)');
      }),
    );
  }, 4));
