import type { EvalResultView, EvalRunDetailView, EvalRunView } from '@svc/domain';
import { code, count, plural } from './markdown.ts';
import { sharedCases, sharedCasesText } from './shared-cases.ts';

/** The blocks every summary of a run shares: the report, the pull request comment. */

const tokens = (run: EvalRunView) => `${count(run.tokens.input)} in, ${count(run.tokens.output)} out`;
const perCase = (run: EvalRunView) => (run.done === 0 ? '-' : count(Math.round((run.tokens.input + run.tokens.output) / run.done)));

type Row = [name: string, here: string, live: string];

/** The run's own counts, when there is no baseline to set them beside. */
function alone(run: EvalRunDetailView, results: EvalResultView[]): string {
  const flaky = results.filter((r) => r.verdict === 'fail' && r.flaky).length;
  const rows: Row[] = [
    ['Passed', `${count(run.passed)} of ${count(run.cases)}`, ''],
    ['Failed', flaky ? `${count(run.failed)} (${count(flaky)} flaky)` : count(run.failed), ''],
    ['Errors', count(run.errors), ''],
    ['Regressions', count(run.regressions), ''],
    ['Skipped', count(run.skipped), ''],
    ['Tokens', tokens(run), ''],
    ['Tokens per case', perCase(run), ''],
  ];
  return [
    '| | This run |',
    '|---|---:|',
    ...rows.map(([name, now]) => `| ${name} | ${now} |`),
    '',
    'No finished run on live to compare with, so no case counts as a regression.',
  ].join('\n');
}

/**
 * This run's counts beside the live baseline's on the cases both ran (from each result's verdict in the baseline),
 * with the cases only one of them ran said apart, so that adding cases never reads as a change of the agent.
 */
export function runCounts(run: EvalRunDetailView, results: EvalResultView[], baseline: EvalRunView | null): string {
  if (!baseline) return alone(run, results);
  const shared = sharedCases(run, results, baseline);
  const flaky = results.filter((r) => r.baseline !== null && r.verdict === 'fail' && r.flaky).length;
  const added = results.filter((r) => r.baseline === null);
  const rows: Row[] = [
    ['Cases both ran', count(shared.shared), count(shared.shared)],
    ['Passed', count(shared.thisRun.pass), count(shared.baseline.pass)],
    ['Failed', flaky ? `${count(shared.thisRun.fail)} (${count(flaky)} flaky)` : count(shared.thisRun.fail), count(shared.baseline.fail)],
    ['Errors', count(shared.thisRun.error), count(shared.baseline.error)],
    ...(shared.added > 0
      ? [['New cases', `${count(shared.added)}: ${count(added.filter((r) => r.verdict === 'pass').length)} passed`, ''] as Row]
      : []),
    ...(shared.dropped > 0 ? [['Only in live', '', count(shared.dropped)] as Row] : []),
    ['Regressions', count(run.regressions), ''],
    ['Skipped', count(run.skipped), count(baseline.skipped)],
    ['Tokens', tokens(run), tokens(baseline)],
    ['Tokens per case', perCase(run), perCase(baseline)],
  ];
  return [
    sharedCasesText(shared),
    '',
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
