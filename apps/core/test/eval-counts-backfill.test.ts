import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { queryPostgres } from '@svc/testkit';
import type { Verdict } from '@svc/domain';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrationsFolders } from '../src/migrations.ts';
import type { EvalRunRecord } from '../src/evals/store.ts';
import { createPostgresStore } from '../src/postgres-store.ts';
import { createSqliteStore } from '../src/sqlite-store.ts';
import type { Store } from '../src/store.ts';
import { evalsWorkspace, startEvalRun } from './records.ts';
import { tempDir } from './temp-dir.ts';
import { migratedPostgresDatabase } from './test-stores.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

/** The statements of the migration `name` that derive what it keeps from the records made before it: after `from`. */
function backfill(folder: string, name: string, from: string): string[] {
  const file = readdirSync(folder).find((file) => file.endsWith(`_${name}.sql`))!;
  const text = readFileSync(join(folder, file), 'utf8');
  return text
    .slice(text.indexOf(from))
    .split('--> statement-breakpoint')
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/** The migrations that derive what they keep, what the records before them looked like, and what they keep. */
const migrations = [
  {
    name: 'stored_run_counts',
    what: 'results and counts',
    from: '-- Runs made before',
    forgotten: [
      'delete from eval_results',
      'update eval_runs set cases = 0, done = 0, passed = 0, failed = 0, errors = 0, regressions = 0, input_tokens = 0, output_tokens = 0',
    ],
    kept: runCounts,
  },
  {
    name: 'grader_reviews',
    what: "graders' reviews",
    from: '-- Reviews given before',
    forgotten: ['delete from grader_reviews'],
    kept: async (store: Store) => (await store.evalRuns.reviewTallies('ws_1', '2000-01-01')).map((tally) => JSON.stringify(tally)).sort(),
  },
];

/** A baseline on live, a run with replays, a flaky case, overrides and a regression against it, and a cancelled run. */
async function history(store: Store): Promise<void> {
  const cases = ['c1', 'c2', 'c3', 'c4'];
  await evalsWorkspace(store, cases, at(0));
  let minute = 10;
  const run = async (id: string, changes: Partial<EvalRunRecord>, verdicts: Record<string, Verdict>) => {
    await startEvalRun(store, id, cases, at(2), changes);
    minute += 2;
    for (const e of await store.evalWork.lease('runner', 100, at(minute), at(minute + 1))) {
      const verdict = verdicts[`${e.caseId}_${e.attempt}`];
      if (!verdict) continue;
      const tokens = { input: e.attempt, output: 7 };
      await store.evalWork.report({
        executionId: e.id,
        leaseId: e.leaseId!,
        verdict,
        reasoning: '',
        tokens,
        judgeTokens: tokens,
        replay: null,
        at: at(minute),
      });
    }
  };
  await run('run_base', {}, { c1_1: 'pass', c2_1: 'pass', c3_1: 'fail', c4_1: 'error' });
  await store.evalRuns.finish('run_base', at(20), []);
  await run(
    'run_pr',
    { environment: 'preview', repeat: 2, minPass: 2, baselineRunId: 'run_base' },
    { c1_1: 'pass', c1_2: 'fail', c2_1: 'fail', c2_2: 'fail', c3_1: 'pass', c3_2: 'pass', c4_1: 'error', c4_2: 'fail' },
  );
  await store.evalRuns.override('run_pr', 'c1', { runId: 'run_pr', caseId: 'c1', verdict: 'fail', by: 'ada@example.com', at: at(30) });
  await store.evalRuns.override('run_base', 'c3', { runId: 'run_base', caseId: 'c3', verdict: 'pass', by: 'ada@example.com', at: at(30) });
  await run('run_cancelled', { repeat: 2 }, { c1_1: 'pass', c1_2: 'pass', c2_1: 'fail' });
  await store.evalRuns.cancel('ws_1', 'run_cancelled', at(40));
}

/** Each run's counts and baseline verdicts, as the store reads them. */
async function runCounts(store: Store) {
  return Promise.all(
    ['run_base', 'run_pr', 'run_cancelled'].map(async (id) => ({
      counts: (await store.evalRuns.find(id))!.counts,
      baselines: await store.evalRuns.baselineVerdicts(id),
    })),
  );
}

describe.each(migrations)('the migration $name', ({ name, what, from, forgotten, kept }) => {
  it(`derives on SQLite the ${what} the store keeps, for records made before them`, async () => {
    const file = join(tempDir(), 'svc.db');
    const store = createSqliteStore(file);
    await history(store);
    const before = await kept(store);
    expect(before).not.toEqual([]);
    const db = new Database(file);
    for (const statement of [...forgotten, ...backfill(migrationsFolders.sqlite, name, from)]) db.exec(statement);
    db.close();
    expect(await kept(store)).toEqual(before);
    await store.close();
  });

  it(`derives on PostgreSQL the ${what} the store keeps, for records made before them`, async () => {
    const url = await migratedPostgresDatabase();
    const store = await createPostgresStore(url);
    await history(store);
    const before = await kept(store);
    for (const statement of [...forgotten, ...backfill(migrationsFolders.postgres, name, from)]) await queryPostgres(url, statement);
    expect(await kept(store)).toEqual(before);
    await store.close();
  });
});

it('keeps the counts of a run with replays, a flaky case, overrides and a regression', async () => {
  const store = createSqliteStore(join(tempDir(), 'svc.db'));
  await history(store);
  expect((await runCounts(store))[1]!.counts).toMatchObject({ done: 4, passed: 1, failed: 3, errors: 0, regressions: 2 });
  await store.close();
});
