import type { EvalRunView } from '@svc/domain';
import { plural } from './markdown.ts';

/** Where a run stands, as its title, the CLI and the pull request comment say it. */
export type RunVerdict = 'running' | 'cancelled' | 'passed' | 'regressed' | 'failed';

type RunCounts = Pick<EvalRunView, 'status' | 'finished' | 'failed' | 'errors' | 'regressions'>;

/** A cancelled run never passes: some of its cases never ran. Regressions outrank other failures. */
export function runVerdict(run: RunCounts): RunVerdict {
  if (run.status === 'cancelled') return 'cancelled';
  if (!run.finished) return 'running';
  if (run.regressions > 0) return 'regressed';
  return run.failed + run.errors > 0 ? 'failed' : 'passed';
}

/** The verdict in a few words: `passed`, `2 regressions`, `failed`, `cancelled` or `running`. */
export function runVerdictText(run: RunCounts): string {
  const verdict = runVerdict(run);
  return verdict === 'regressed' ? plural(run.regressions, 'regression') : verdict;
}
