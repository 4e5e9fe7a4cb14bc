import type { EvalResultView, EvalRunDetailView, EvalRunView, GraderAgreementView } from '@svc/domain';
import { graderCare } from './grader-care.ts';
import { largestFitting } from './github-limits.ts';
import { passRateLine } from './pass-rate.ts';
import { code, count, inline, plural } from './markdown.ts';
import { caseLine, caseName } from './run-case.ts';
import { runCounts, runModels, unfinished } from './run-summary.ts';
import { runVerdict, runVerdictText } from './run-verdict.ts';

export interface FinishedPreview {
  workspace: string;
  run: EvalRunDetailView;
  /** The live run regressions compare with, or null when live has no finished run. */
  baseline: EvalRunView | null;
  /** The run's page in the console, where every case is shown in full. */
  url: string;
  /** The pull request's head commit the run replays. */
  commit?: string;
  /** The workspace's graders measured against people: a line warns of this run's that need care. */
  graders?: GraderAgreementView[];
}

const icons = { running: '⏳', cancelled: '⚪', passed: '✅', regressed: '❌', failed: '❌' } as const;

/** How much of a case's finding the table shows: the lists above it show more. */
const tableFinding = 300;

const onLive = { pass: 'passed on live', fail: 'failed on live', error: 'errored on live' } as const;

/** The cases a reviewer reads first, in the order they matter: what broke, what this change fixed, what still fails. */
function groups(run: EvalRunDetailView) {
  const failing = (r: EvalResultView) => r.verdict !== 'pass';
  const regressions = run.results.filter((r) => r.regression);
  const flaky = run.results.filter((r) => failing(r) && r.flaky && !r.regression);
  const stillFailing = run.results.filter((r) => failing(r) && !r.flaky && !r.regression);
  const fixed = run.results.filter((r) => r.verdict === 'pass' && (r.baseline === 'fail' || r.baseline === 'error'));
  return { regressions, fixed, stillFailing, flaky };
}

/** Why a failing case is listed: how it did on live, and an error said as one. */
function failingNotes(result: EvalResultView): string[] {
  const live = result.baseline === null ? 'not run on live' : result.baseline === 'pass' ? onLive.pass : `${onLive[result.baseline]} too`;
  return [result.verdict === 'error' ? 'error' : undefined, live].filter((note): note is string => note !== undefined);
}

/** A list of cases cut to `max` lines, the rest counted with a link to where they are. */
function list(title: string, note: string, lines: string[], max: number, url: string): string[] {
  if (lines.length === 0) return [];
  const shown = lines.slice(0, max);
  const rest = lines.length - shown.length;
  const more = rest === 0 ? [] : [`- … and ${plural(rest, 'more case')}: [every case in the console](${url})`];
  return [`### ${title}`, note, [...shown, ...more].join('\n')];
}

function verdictCell(result: EvalResultView): string {
  const notes = [
    result.regression ? 'regression' : undefined,
    result.flaky ? 'flaky' : undefined,
    result.override ? 'overridden' : undefined,
  ];
  const shown = notes.filter(Boolean);
  return shown.length === 0 ? result.verdict : `${result.verdict} (${shown.join(', ')})`;
}

function tableRow(result: EvalResultView): string {
  const cells = [
    caseName(result),
    code(result.agent),
    verdictCell(result),
    result.baseline ?? '-',
    `${result.repeats.passed}/${result.repeats.total}`,
    count(result.tokens.input + result.tokens.output),
    inline(result.reasoning, tableFinding),
  ];
  return `| ${cells.join(' | ')} |`;
}

/** Every case as a table folded away, its first `rows` rows when the whole would not fit in a comment. */
function table(run: EvalRunDetailView, rows: number, url: string): string[] {
  const total = run.results.length;
  if (total === 0) return [];
  const summary = `<details><summary>${total === 1 ? 'The case' : `All ${count(total)} cases`}</summary>`;
  if (rows === 0) return [summary, `Too many cases for a comment: [every case in the console](${url}).`, '</details>'];
  const head = ['| Case | Agent | Verdict | Live | Replays passed | Tokens | Finding |', '|---|---|---|---|---:|---:|---|'];
  const cut = rows < total ? [`Showing ${count(rows)} of ${count(total)} cases: [every case in the console](${url}).`] : [];
  return [summary, [...head, ...run.results.slice(0, rows).map(tableRow)].join('\n'), ...cut, '</details>'];
}

function render({ workspace, run, baseline, url, commit, graders }: FinishedPreview, rows: number, perList: number): string {
  const { regressions, fixed, stillFailing, flaky } = groups(run);
  const where = [
    `Workspace ${code(workspace)}`,
    `environment ${code(run.environment)}`,
    `version v${run.version.number} (${code(run.version.id)})`,
    commit ? `commit ${code(commit.slice(0, 7))}` : undefined,
    `[run ${code(run.id)}](${url})`,
  ];
  const parts = [
    `## ${icons[runVerdict(run)]} svc evals: ${runVerdictText(run)}`,
    where.filter(Boolean).join(' · '),
    passRateLine(run, run.results, baseline),
    runCounts(run, run.results, baseline),
    ...unfinished(run),
    ...graderCare(run, graders),
    ...list(
      plural(regressions.length, 'regression'),
      '_Passed on live, fail here._',
      regressions.map((r) => caseLine(r, run)),
      perList,
      url,
    ),
    ...list(
      `${count(fixed.length)} fixed`,
      '_Failed on live, pass here._',
      fixed.map((r) => caseLine(r, run, [onLive[r.baseline ?? 'fail']])),
      perList,
      url,
    ),
    ...list(
      `${count(stillFailing.length)} still failing`,
      '_Fail or error here, not as regressions: how each did on live is beside it._',
      stillFailing.map((r) => caseLine(r, run, failingNotes(r))),
      perList,
      url,
    ),
    ...list(
      `${count(flaky.length)} flaky`,
      `_Passed some replays, fewer than the ${run.min_pass} needed._`,
      flaky.map((r) => caseLine(r, run)),
      perList,
      url,
    ),
    '### Models',
    runModels(run),
    ...table(run, rows, url),
    `[The run in the console](${url})`,
  ];
  return `${parts.join('\n\n')}\n`;
}

/**
 * A finished (or cancelled) preview run. When it would not fit in a comment, the table of cases is cut first, then
 * the lists above it; both say how many cases they leave out and link to the run, where every case is.
 */
export function finishedPreview(input: FinishedPreview, marker: string): string {
  const total = input.run.results.length;
  const withMarker = (rows: number, perList: number) => `${marker}\n${render(input, rows, perList)}`;
  const rows = largestFitting(total, (n) => withMarker(n, total));
  if (rows !== undefined) return withMarker(rows, total);
  const perList = largestFitting(total, (n) => withMarker(0, n)) ?? 0;
  return withMarker(0, perList);
}
