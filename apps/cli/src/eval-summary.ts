import { runVerdict, runVerdictText } from '@svc/digest';
import type { EvalResultView, EvalRunDetailView } from '@svc/domain';
import { caseName } from './case-name.ts';
import { stdoutColors as c } from './output.ts';

export interface RunLinks {
  /** The run's page in the console. */
  page: string;
  /** The run's report as markdown. */
  markdown: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function entry(result: EvalResultView): string {
  const flaky = result.flaky ? [`flaky ${result.repeats.passed}/${result.repeats.total}`] : [];
  return `  ${caseName(result, flaky)}: ${oneLine(result.reasoning)}`;
}

function block(title: string, results: EvalResultView[]): string[] {
  return results.length === 0 ? [] : [title, ...results.map(entry), ''];
}

function tally(run: EvalRunDetailView): string {
  const flaky = run.results.filter((r) => r.verdict === 'fail' && r.flaky).length;
  const parts = [
    `${run.passed} passed`,
    `${run.failed} failed${flaky ? ` (${flaky} flaky)` : ''}`,
    plural(run.errors, 'error'),
    plural(run.regressions, 'regression'),
  ];
  const left = run.cases - run.done;
  const unrun = left > 0 && run.status === 'cancelled' ? `; ${left} not run (cancelled)` : '';
  return `${plural(run.cases, 'case')}: ${parts.join(', ')}${unrun}.`;
}

function skipped(run: EvalRunDetailView): string[] {
  if (run.skipped_cases.length === 0) return [];
  const agents = [...new Set(run.skipped_cases.map((s) => s.agent))].sort();
  return [
    `Skipped ${plural(run.skipped_cases.length, 'case')} of ${agents.join(', ')}: not in v${run.version.number} on ${run.environment}.`,
  ];
}

const grader = (run: EvalRunDetailView) =>
  run.grader === 'deterministic'
    ? 'Graded by the deterministic grader (no judge model is configured): each phrase in double quotes in the expected outcome must appear in the last reply.'
    : `Graded by ${run.grader.includes(',') ? 'judges' : 'judge'} ${run.grader.split(',').join(', ')}.`;

/** The end of `svc eval`: what to look at first, then the counts, the grader and where the full report is. */
export function runSummary(run: EvalRunDetailView, links: RunLinks): string {
  const verdict = runVerdict(run);
  const paint = verdict === 'passed' ? c.green : c.red;
  const regressions = run.results.filter((r) => r.regression);
  const failures = run.results.filter((r) => r.verdict === 'fail' && !r.regression);
  const errors = run.results.filter((r) => r.verdict === 'error');
  return [
    paint(c.bold(`Evals on ${run.environment} (v${run.version.number}): ${runVerdictText(run)}`)),
    '',
    ...block(c.red('Regressions (passed on live, fail here):'), regressions),
    ...block('Failures:', failures),
    ...block('Errors:', errors),
    tally(run),
    ...skipped(run),
    grader(run),
    `Report: ${links.page}`,
    `Markdown: ${links.markdown}`,
    '',
  ].join('\n');
}
