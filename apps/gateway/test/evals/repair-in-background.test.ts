import { createPostgresDatabase, holdLock, queryPostgres, request } from '@svc/testkit';
import { afterAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { flaggedLiveRun, reportAll } from './setup.ts';

const platforms: TestPlatform[] = [];
afterAll(() => Promise.all(platforms.map((platform) => platform.stop())));

/** Copies of a run, `count` of them, with its executions and results: the history of a busy workspace. */
async function copiesOf(databaseUrl: string, runId: string, count: number): Promise<void> {
  // Every column copied as it is, the ids made new: what later columns hold is copied too.
  const copy = (table: string, where: string, changes: string) => `
    insert into ${table}
    select (jsonb_populate_record(null::${table}, to_jsonb(t) || ${changes})).*
    from ${table} t, generate_series(1, ${count}) n where ${where}`;
  await queryPostgres(databaseUrl, copy('eval_runs', 't.id = $1', `jsonb_build_object('id', t.id || '_' || n)`), [runId]);
  await queryPostgres(
    databaseUrl,
    copy('eval_executions', 't.run_id = $1', `jsonb_build_object('id', t.id || '_' || n, 'run_id', t.run_id || '_' || n)`),
    [runId],
  );
  await queryPostgres(databaseUrl, copy('eval_results', 't.run_id = $1', `jsonb_build_object('run_id', t.run_id || '_' || n)`), [runId]);
}

it('a core starting on a long history serves at once, and repairs what a stopped core left undone in the background', async () => {
  const databaseUrl = await createPostgresDatabase();
  const first = await startPlatform({ databaseUrl, evalConcurrency: 0 });
  platforms.push(first);
  // An earlier version finished a live run that passed the flag's case, then stopped before fixing the flag; hundreds
  // of live runs that passed it follow.
  const { ws, flagId, runId } = await flaggedLiveRun(first, 'long-history');
  await reportAll(first.core.services.store);
  expect(await first.core.services.store.evalRuns.finish(runId, new Date().toISOString(), [])).toBe('finished');
  await copiesOf(databaseUrl, runId, 500);
  await first.halt();

  // Whatever the repair waits for (here, another session holding the flags, with no deadline before the test's own),
  // core serves meanwhile.
  const lock = await holdLock(databaseUrl, 'lock table flags in access exclusive mode');
  let second: TestPlatform;
  try {
    second = await startPlatform({ databaseUrl, secretKey: first.secretKey, evalConcurrency: 0, statementTimeoutMs: 600_000 });
    platforms.push(second);
    expect((await request(`${second.url}/healthz`)).status).toBe(200);
    const runs = await request(`${second.url}/api/developer/v1/${ws.slug}/evals/runs?environment=live&limit=3`, { token: ws.token });
    expect(runs.status).toBe(200);
    expect(runs.body.runs).toHaveLength(3);
  } finally {
    await lock.release();
  }
  const flag = async () => (await request(`${second.url}/api/developer/v1/${ws.slug}/flags/${flagId}`, { token: ws.token })).body;
  await expect.poll(async () => (await flag()).status).toBe('fixed');
  expect((await flag()).history.at(-1)).toMatchObject({ actor: 'svc', from_status: 'open', to_status: 'fixed' });
});
