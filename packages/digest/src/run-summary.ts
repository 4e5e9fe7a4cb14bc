import type { EvalResultView, EvalRunDetailView, EvalRunView } from '@svc/domain';
import { code, count, plural } from './markdown.ts';

/** The blocks every summary of a run shares: the report, the pull request comment. */

const tokens = (run: EvalRunView) => `${count(run.tokens.input)} in, ${count(run.tokens.output)} out`;
const perCase = (run: EvalRunView) => (run.done === 0 ? '-' : count(Math.round((run.tokens.input + run.tokens.output) / run.done)));

/** This run's counts and tokens beside the live baseline's, as a table. */
export function runCounts(run: EvalRunDetailView, results: EvalResultView[], baseline: EvalRunView | null): string {
  const flaky = results.filter((r) => r.verdict === 'fail' && r.flaky).length;
  const rows: [string, string, string][] = [
    ['Passed', `${count(run.passed)} of ${count(run.cases)}`, baseline ? `${count(baseline.passed)} of ${count(baseline.cases)}` : ''],
    ['Failed', flaky ? `${count(run.failed)} (${count(flaky)} flaky)` : count(run.failed), baseline ? count(baseline.failed) : ''],
    ['Errors', count(run.errors), baseline ? count(baseline.errors) : ''],
    ['Regressions', count(run.regressions), ''],
    ['Skipped', count(run.skipped), baseline ? count(baseline.skipped) : ''],
    ['Tokens', tokens(run), baseline ? tokens(baseline) : ''],
    ['Tokens per case', perCase(run), baseline ? perCase(baseline) : ''],
  ];
  if (!baseline) {
    return [
      '| | This run |',
      '|---|---:|',
      ...rows.map(([name, now]) => `| ${name} | ${now} |`),
      '',
      'No finished run on live to compare with, so no case counts as a regression.',
    ].join('\n');
  }
  return [
    `| | This run | Live baseline: run ${code(baseline.id)}, v${baseline.version.number} |`,
    '|---|---:|---:|',
    ...rows.map(([name, now, then]) => `| ${name} | ${now} | ${then} |`),
  ].join('\n');
}

/** The cases a cancelled or unfinished run has not done, in one sentence, or nothing. */
export function unfinished(run: EvalRunDetailView): string[] {
  const left = run.cases - run.done;
  if (left <= 0) return [];
  return [
    run.status === 'cancelled' ? `${plural(left, 'case')} did not run: the run was cancelled.` : `${plural(left, 'case')} still running.`,
  ];
}

/** The agents' models and who graded them: the judges, or the deterministic grader and its rule. */
export function runModels(run: EvalRunDetailView): string {
  const agents = run.agent_models.length === 0 ? 'none replayed' : run.agent_models.map((m) => code(m)).join(', ');
  const grader =
    run.grader === 'deterministic'
      ? 'the **deterministic grader**, as no judge model is configured: each phrase in double quotes in the expected ' +
        "outcome must appear, ignoring case, in the agent's last reply"
      : `${run.grader.split(',').length === 1 ? 'judge' : 'judges'} ${run.grader
          .split(',')
          .map((m) => code(m))
          .join(', ')}, each of another model family than the agent it grades`;
  return [`- Agents: ${agents}`, `- Grader: ${grader}`].join('\n');
}
