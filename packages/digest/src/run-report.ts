import type { EvalResultView, EvalRunDetailView, EvalRunView, GraderAgreementView } from '@svc/domain';
import { graderCare } from './grader-care.ts';
import { code, plural, utc } from './markdown.ts';
import { caseLine, caseSection, type ReplayedCase } from './run-case.ts';
import { runCounts, runModels, unfinished } from './run-summary.ts';
import { runVerdictText } from './run-verdict.ts';

export interface RunReportInput {
  workspace: string;
  run: EvalRunDetailView;
  /** The live run regressions compare with, or null when live has no finished run. */
  baseline: EvalRunView | null;
  /** Per result's case id: the visitor turns replayed, the agent's replies in its replay, the expected outcome. */
  cases: Record<string, ReplayedCase>;
  /** The run's page in the console. */
  url: string;
  /** The workspace's graders measured against people: a line warns of this run's that need care. */
  graders?: GraderAgreementView[];
}

function meta(run: EvalRunDetailView): string {
  const parts = [
    `Run ${code(run.id)}`,
    `version v${run.version.number} (${code(run.version.id)})`,
    run.agent ? `agent ${code(run.agent)} only` : undefined,
    `started by ${code(run.created_by)} (${run.trigger.replace('_', ' ')}), ${utc(run.created_at)}`,
    run.finished_at ? `${run.status === 'cancelled' ? 'cancelled' : 'finished'} ${utc(run.finished_at)}` : undefined,
    run.repeat === 1 ? undefined : `each case replayed ${run.repeat} times, passing with ${run.min_pass}`,
  ];
  return parts.filter(Boolean).join(' · ');
}

function section(title: string, note: string | undefined, parts: string[]): string[] {
  return parts.length === 0 ? [] : [`## ${title}`, ...(note ? [note] : []), ...parts];
}

/** Passes fold away: they are what a reader checks last. */
function collapsed(passes: EvalResultView[], run: EvalRunDetailView): string[] {
  if (passes.length === 0) return [];
  const summary = `<details><summary>${plural(passes.length, 'passing case')}</summary>`;
  return [summary, passes.map((r) => caseLine(r, run)).join('\n'), '</details>'];
}

/** An eval run as markdown: the verdict, the counts against live, then every case, the ones to look at first. */
export function renderRunReport({ workspace, run, baseline, cases, url, graders }: RunReportInput): string {
  const full = (r: EvalResultView) => caseSection(r, run, cases[r.case_id]);
  const regressions = run.results.filter((r) => r.regression);
  const failures = run.results.filter((r) => r.verdict === 'fail' && !r.regression);
  const errors = run.results.filter((r) => r.verdict === 'error');
  const passes = run.results.filter((r) => r.verdict === 'pass');
  const skipped = run.skipped_cases.map((s) => `${code(s.case_id)} (agent ${code(s.agent)})`);
  const parts = [
    `# Evals of ${code(workspace)} on ${code(run.environment)}, v${run.version.number}: ${runVerdictText(run)}`,
    meta(run),
    runCounts(run, run.results, baseline),
    ...unfinished(run),
    ...graderCare(run, graders),
    ...section(plural(regressions.length, 'regression'), '_Passed in the live baseline, failed here._', regressions.map(full)),
    ...section(plural(failures.length, 'failure'), undefined, failures.map(full)),
    ...section(plural(errors.length, 'error'), '_The replay or its grading could not finish._', errors.map(full)),
    ...section(plural(passes.length, 'pass', 'passes'), undefined, collapsed(passes, run)),
    ...section(
      `${plural(skipped.length, 'skipped case')}`,
      `Their agents are not in v${run.version.number} on ${code(run.environment)}:`,
      skipped.length ? [skipped.map((s) => `- ${s}`).join('\n')] : [],
    ),
    '## Models',
    runModels(run),
    `[The run in the console](${url})`,
  ];
  return `${parts.join('\n\n')}\n`;
}
