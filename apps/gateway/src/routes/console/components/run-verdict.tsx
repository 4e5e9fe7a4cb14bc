import type { EvalRunView } from '@svc/domain';

/** A run's outcome as a person reads it: still running, cancelled, or passed only when no case failed or errored. */
export function runVerdict(run: EvalRunView): 'running' | 'cancelled' | 'passed' | 'failed' {
  if (run.status === 'cancelled') return 'cancelled';
  if (!run.finished) return 'running';
  return run.failed + run.errors === 0 ? 'passed' : 'failed';
}

const labels = { running: 'Running', cancelled: 'Cancelled', passed: 'Passed', failed: 'Failed' } as const;

export const RunVerdict = ({ run }: { run: EvalRunView }) => {
  const verdict = runVerdict(run);
  return <span className={`run-verdict ${verdict}`}>{labels[verdict]}</span>;
};

/** Done of the run's cases, and how they came out. */
export const RunCounts = ({ run }: { run: EvalRunView }) => (
  <>
    {run.done}/{run.cases} done · {run.passed} passed · {run.failed} failed · {run.errors} errors
    {run.regressions > 0 && <> · {run.regressions === 1 ? '1 regression' : `${run.regressions} regressions`}</>}
  </>
);
