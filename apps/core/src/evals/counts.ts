import { and, type Column, eq, lte, type SQL, sql } from 'drizzle-orm';

/**
 * How both stores keep a run's results and counts as reports land, in SQL that reads the same on SQLite and
 * PostgreSQL. A run has one `eval_results` row per case, made with the run; each report adds its replay there, and
 * the replay that completes a case grades it and adds it to the run's counts, in the report's transaction. The rules
 * are those of `resultOf` and `gradeRun`, which the store contract checks them against.
 */

/** The grader's verdict from a case's replays: pass with at least min_pass passed, error when all errored, else fail. */
export const gradedSql = (passed: string, errored: string, replays: string, minPass: string) =>
  `(case when ${passed} >= ${minPass} then 'pass' when ${errored} = ${replays} then 'error' else 'fail' end)`;

/**
 * A regression: a failure of a case that passed in the baseline, unless the grader's failure is flaky (some replays
 * passed) and no person confirmed it.
 */
export const regressionSql = (r: { baseline: string; verdict: string; graded: string; passed: string; overridden: string }) =>
  `coalesce(${r.baseline} = 'pass' and ${r.verdict} = 'fail' and not (${r.graded} = 'fail' and ${r.passed} > 0 and not ${r.overridden}), false)`;

/**
 * The `set` of an update of `eval_results` that adds one reported replay (`pass`, `error`: 1 or 0): the last one
 * grades the case. No person can have overridden a case before its replays are all done.
 */
export function resultAddingReplay(pass: string, error: string): string {
  const replays = 'eval_results.replays + 1';
  const passed = `eval_results.passed + ${pass}`;
  const errored = `eval_results.errored + ${error}`;
  const graded = `(case when ${replays} = eval_results.total then ${gradedSql(passed, errored, replays, 'eval_results.min_pass')} end)`;
  const regression = regressionSql({ baseline: 'eval_results.baseline', verdict: graded, graded, passed, overridden: 'false' });
  return `replays = ${replays}, passed = ${passed}, errored = ${errored}, graded = ${graded}, verdict = ${graded}, regression = ${regression}`;
}

/**
 * The `set` of an update of `eval_runs` that adds a result just reported (its `verdict`, null while replays are left,
 * and `regression`) and the replay's tokens.
 */
export const runAddingResult = (verdict: string, regression: string, inputTokens: string, outputTokens: string) =>
  [
    `done = done + (case when ${verdict} is not null then 1 else 0 end)`,
    `passed = passed + (case when ${verdict} = 'pass' then 1 else 0 end)`,
    `failed = failed + (case when ${verdict} = 'fail' then 1 else 0 end)`,
    `errors = errors + (case when ${verdict} = 'error' then 1 else 0 end)`,
    `regressions = regressions + (case when ${regression} then 1 else 0 end)`,
    `input_tokens = input_tokens + ${inputTokens}`,
    `output_tokens = output_tokens + ${outputTokens}`,
  ].join(', ');

/** The `set` of an update of `eval_runs` that counts its results again (after a person's verdict moved one). */
export const runRecounted = (() => {
  const count = (where: string) => `(select count(*) from eval_results r where r.run_id = eval_runs.id and ${where})`;
  return [
    `done = ${count('r.verdict is not null')}`,
    `passed = ${count(`r.verdict = 'pass'`)}`,
    `failed = ${count(`r.verdict = 'fail'`)}`,
    `errors = ${count(`r.verdict = 'error'`)}`,
    `regressions = ${count('r.regression')}`,
  ].join(', ');
})();

/** A case's verdict in a run's baseline, for the result rows a run is made with (both SQL expressions of the caller's). */
export const baselineVerdictSql = (baselineRunId: string, caseId: string) =>
  `(select b.verdict from eval_results b where b.run_id = ${baselineRunId} and b.case_id = ${caseId})`;

/**
 * The `set` of an update of one result that a person's verdict (`override`: 'pass', 'fail' or null for none) replaces
 * or gives back to the grader.
 */
export function resultOverridden(override: string): string {
  const verdict = `coalesce(${override}, eval_results.graded)`;
  const regression = regressionSql({
    baseline: 'eval_results.baseline',
    verdict,
    graded: 'eval_results.graded',
    passed: 'eval_results.passed',
    overridden: `(${override} is not null)`,
  });
  return `verdict = ${verdict}, regression = ${regression}`;
}

/**
 * The `set` of an update of the results compared with a case whose verdict in their baseline changed (`verdict`: the
 * baseline's new verdict).
 */
export function resultRebased(verdict: string): string {
  const overridden = `exists (select 1 from eval_overrides o where o.run_id = eval_results.run_id and o.case_id = eval_results.case_id)`;
  const regression = regressionSql({
    baseline: verdict,
    verdict: 'eval_results.verdict',
    graded: 'eval_results.graded',
    passed: 'eval_results.passed',
    overridden,
  });
  return `baseline = ${verdict}, regression = ${regression}`;
}

/** What adding a replay made of its case: its verdict once every replay is done (else null), and whether it regressed. */
export interface ResultAdded {
  verdict: 'pass' | 'fail' | 'error' | null;
  /** 1 or 0, as SQLite answers a boolean. */
  regression: number;
}

/**
 * Open flags with a note whose case passed a finished run on `environment` after the flag last changed, of a version
 * other than the flagged reply's, with the first such run: a pass there should have fixed the flag. A page of `limit` flags by id after `after`, read from the open
 * flags and, for each, its case's passes by index, whatever the history.
 */
export const passedWhileOpenSql = (environment: string, after: string, limit: string) => `
  select f.id as "flagId", f.workspace_id as "workspaceId", r.id as "runId", r.version_id as "versionId", r.finished_at as "finishedAt"
  from flags f
  join eval_runs r on r.id = (
    select x.run_id from eval_results x join eval_runs pr on pr.id = x.run_id
    where x.case_id = f.eval_case_id and x.verdict = 'pass'
      and pr.environment = ${environment} and pr.status = 'finished' and pr.finished_at > f.updated_at
      and pr.version_id <> f.version_id
    order by pr.finished_at, pr.id
    limit 1
  )
  where f.status = 'open' and f.note is not null and f.eval_case_id is not null and f.id > ${after}
  order by f.id
  limit ${limit}
`;

/** The columns of results and runs that `passedBy` reads, as both stores' tables have them. */
interface PassColumns {
  results: { caseId: Column; verdict: Column };
  runs: { workspaceId: Column; environment: Column; versionId: Column; status: Column; finishedAt: Column };
}

/**
 * The finished runs on `environment` of `versionId` that passed a case by `by`, read from the case's passes (the
 * verdict a literal, as in the partial index `eval_results_case_idx`).
 */
export const passedBy = (
  { results, runs }: PassColumns,
  pass: { workspaceId: string; environment: string; caseId: string; versionId: string; by: string },
): SQL | undefined =>
  and(
    eq(results.caseId, pass.caseId),
    eq(results.verdict, sql`'pass'`),
    eq(runs.workspaceId, pass.workspaceId),
    eq(runs.environment, pass.environment),
    eq(runs.versionId, pass.versionId),
    eq(runs.status, 'finished'),
    lte(runs.finishedAt, pass.by),
  );

/**
 * Adds `delta` (1, or -1 to take it back) to the tally in `grader_reviews` of the review that the person's verdict on
 * a result (`runId`, `caseId`, SQL expressions of the caller's) makes, if it has one and the grader could grade it.
 */
export const reviewTallied = (delta: 1 | -1, runId: string, caseId: string) => `
  insert into grader_reviews (workspace_id, day, grader, graded, person, reviews)
  select r.workspace_id, substr(o.at, 1, 10),
    coalesce((select e.judge from eval_executions e where e.run_id = o.run_id and e.case_id = o.case_id limit 1), ''),
    x.graded, o.verdict, ${delta}
  from eval_overrides o
  join eval_runs r on r.id = o.run_id
  join eval_results x on x.run_id = o.run_id and x.case_id = o.case_id
  where o.run_id = ${runId} and o.case_id = ${caseId} and x.graded in ('pass', 'fail')
  on conflict (workspace_id, day, grader, graded, person) do update set reviews = grader_reviews.reviews + excluded.reviews
`;
