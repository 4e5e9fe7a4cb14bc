import { type EvalRunView, percent } from '@svc/domain';

/** A finished run's share of cases that passed, from 0 to 1; null for a run with no case. */
export const passRate = (run: Pick<EvalRunView, 'passed' | 'cases'>): number | null => (run.cases === 0 ? null : run.passed / run.cases);

/**
 * One line comparing a run's pass rate with live's: live's rate, this run's, and the change in points, e.g.
 * `Pass rate: live 80 % (v5) → this branch 90 %, +10 points.`
 */
export function passRateLine(run: EvalRunView, live: EvalRunView | null): string {
  const now = passRate(run);
  const then = live && passRate(live);
  if (now === null) return 'Pass rate: no case ran.';
  if (then === null || then === undefined) return `Pass rate: this branch ${percent(now)} %; live has no finished run to compare with.`;
  const change = percent(now) - percent(then);
  const said = change === 0 ? 'no change' : `${change > 0 ? '+' : '−'}${Math.abs(change)} point${Math.abs(change) === 1 ? '' : 's'}`;
  return `Pass rate: live ${percent(then)} % (v${live!.version.number}) → this branch ${percent(now)} %, ${said}.`;
}
