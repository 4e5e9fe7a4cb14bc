import type { EvalResultView, EvalRunView, Verdict } from '@svc/domain';
import type { EvalExecutionRecord, EvalOverrideRecord, EvalRunRecord } from './store.ts';

/** What a run's grading needs to know of a case, beside its replays. */
interface CaseContext {
  override: EvalOverrideRecord | undefined;
  /** The case's verdict in the baseline run, if it ran there. */
  baseline: Verdict | null;
  /** The case's first visitor turn, shortened (`caseQuestion`); empty when the case is gone or not read. */
  question?: string;
}

const sum = (items: { input: number; output: number }[]) =>
  items.reduce((total, t) => ({ input: total.input + t.input, output: total.output + t.output }), { input: 0, output: 0 });

/**
 * The grader's verdict on a case from its replays: it passes when at least `min_pass` of them pass; it errors only
 * when every replay errored; otherwise it fails.
 */
export function gradedVerdict(minPass: number, replays: { passed: number; errored: number; total: number }): Verdict {
  return replays.passed >= minPass ? 'pass' : replays.errored === replays.total ? 'error' : 'fail';
}

/**
 * A case's result from its replays (`gradedVerdict`), flaky when it fails with some replays passed. A person's
 * override replaces the verdict, and a regression is a failure (not flaky) of a case that passed in the baseline.
 */
export function resultOf(run: Pick<EvalRunRecord, 'minPass'>, replays: EvalExecutionRecord[], context: CaseContext): EvalResultView {
  const [first] = replays;
  if (!first) throw new Error('a result needs its replays');
  const passed = replays.filter((r) => r.verdict === 'pass').length;
  const errored = replays.filter((r) => r.verdict === 'error').length;
  const graded = gradedVerdict(run.minPass, { passed, errored, total: replays.length });
  const flaky = graded === 'fail' && passed > 0;
  const verdict: Verdict = context.override?.verdict ?? graded;
  const shown = replays.find((r) => r.verdict === graded) ?? first;
  return {
    case_id: first.caseId,
    question: context.question ?? '',
    agent: first.agent,
    verdict,
    graded,
    flaky: verdict === 'fail' && flaky,
    reasoning: shown.reasoning ?? '',
    replay_chat_id: shown.replayChatId,
    regression: context.baseline === 'pass' && verdict === 'fail' && !(flaky && !context.override),
    baseline: context.baseline,
    repeats: { passed, total: replays.length },
    override: context.override ? { verdict: context.override.verdict, by: context.override.by, at: context.override.at } : null,
    judge: first.judge,
    tokens: sum(replays.map((r) => r.tokens)),
  };
}

const rank = (r: EvalResultView) => (r.regression ? 0 : r.verdict === 'fail' ? 1 : r.verdict === 'error' ? 2 : 3);

/** Regressions first, then the other failures, errors, and passes; in the order the cases were made within each. */
export const byImportance = (results: EvalResultView[]) => [...results].sort((a, b) => rank(a) - rank(b));

/** Replays grouped by case, in the order they were created. */
export function replaysByCase(executions: EvalExecutionRecord[]): Map<string, EvalExecutionRecord[]> {
  const byCase = new Map<string, EvalExecutionRecord[]>();
  for (const execution of executions) {
    const replays = byCase.get(execution.caseId);
    if (replays) replays.push(execution);
    else byCase.set(execution.caseId, [execution]);
  }
  return byCase;
}

/** The cases whose every replay is done, with their results; counted and ordered. */
export function gradeRun(
  run: EvalRunRecord,
  executions: EvalExecutionRecord[],
  overrides: EvalOverrideRecord[],
  baseline: Map<string, Verdict>,
  questions = new Map<string, string>(),
): { results: EvalResultView[]; counts: Pick<EvalRunView, 'cases' | 'done' | 'passed' | 'failed' | 'errors' | 'regressions' | 'tokens'> } {
  const byCase = replaysByCase(executions);
  const overrideOf = new Map(overrides.map((o) => [o.caseId, o]));
  const results: EvalResultView[] = [];
  for (const [caseId, replays] of byCase) {
    if (!replays.every((r) => r.status === 'done')) continue;
    const context = { override: overrideOf.get(caseId), baseline: baseline.get(caseId) ?? null, question: questions.get(caseId) ?? '' };
    results.push(resultOf(run, replays, context));
  }
  const count = (verdict: Verdict) => results.filter((r) => r.verdict === verdict).length;
  return {
    results: byImportance(results),
    counts: {
      cases: byCase.size,
      done: results.length,
      passed: count('pass'),
      failed: count('fail'),
      errors: count('error'),
      regressions: results.filter((r) => r.regression).length,
      tokens: sum(executions.map((e) => e.tokens)),
    },
  };
}
