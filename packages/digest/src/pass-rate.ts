import { type EvalResultView, type EvalRunView, percent } from '@svc/domain';
import { plural } from './markdown.ts';
import { sharedCases } from './shared-cases.ts';

/** A finished run's share of cases that passed, from 0 to 1; null for a run with no case. */
export const passRate = (run: Pick<EvalRunView, 'passed' | 'cases'>): number | null => (run.cases === 0 ? null : run.passed / run.cases);

const points = (change: number) =>
  change === 0 ? 'no change' : `${change > 0 ? '+' : '−'}${Math.abs(change)} point${Math.abs(change) === 1 ? '' : 's'}`;

/**
 * One line comparing a run's pass rate with live's on the cases both ran (from each result's verdict in the
 * baseline), e.g. `Pass rate: live 80 % (v5) → this branch 90 %, +10 points.`, or, when cases were added or removed
 * since, `Pass rate on the 10 cases both ran: live 80 % (v5) → this branch 90 %, +10 points.`
 */
export function passRateLine(run: EvalRunView, results: EvalResultView[], live: EvalRunView | null): string {
  const now = passRate(run);
  if (now === null) return 'Pass rate: no case ran.';
  if (!live || passRate(live) === null) return `Pass rate: this branch ${percent(now)} %; live has no finished run to compare with.`;
  const shared = sharedCases(run, results, live);
  if (shared.shared === 0) return `Pass rate: this branch ${percent(now)} %; no case of it ran on live to compare with.`;
  const here = percent(shared.thisRun.pass / shared.shared);
  const there = percent(shared.baseline.pass / shared.shared);
  const same = shared.shared === run.cases && shared.shared === live.cases;
  const on = same ? 'Pass rate' : `Pass rate on the ${plural(shared.shared, 'case')} both ran`;
  return `${on}: live ${there} % (v${live.version.number}) → this branch ${here} %, ${points(here - there)}.`;
}
