import type { CoreClient } from '@svc/core-client';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs, type Logger } from '@svc/server-kit';
import type { HeldExecutions } from './held-executions.ts';
import type { ExecutionReport, LeasedExecution } from './replay.ts';

/** Tries of a report before the case is left to its lease's expiry. */
const reportAttempts = 5;

/** Reports a replayed execution's result with its lease, and lets go of the execution; throws when core never took it. */
export type ReportExecution = (result: ExecutionReport, execution: LeasedExecution) => Promise<void>;

/**
 * Reports results to core. A report that failed is tried again while the lease is held; core answers whether it took
 * the result or another runner, which leased the case after this one lost it, will report it.
 */
export function executionReporter({
  core,
  log,
  pollMs,
  executions,
}: {
  core: CoreClient;
  log: Logger;
  /** How long the runner waits before asking core again: a report waits no longer before its first retry. */
  pollMs: number;
  executions: HeldExecutions;
}): ReportExecution {
  const { held, reporting } = executions;
  /**
   * A report that failed is tried again after a second (`pollMs` if shorter), twice as long at each try: about 15 s
   * in all, enough to ride out a core's restart; spread ±20 % so the runners a restart failed together spread out.
   */
  const reportBackoff = { baseMs: Math.min(pollMs, 1000), maxMs: 8_000, jitter: [0.8, 1.2] } as const;

  /** Sends the report, again on failures while the lease is held; says whether core took it or another runner will. */
  async function reportOnce(result: ExecutionReport, execution: LeasedExecution): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { accepted } = await core.evalWork.report.mutate(result);
        if (accepted)
          log.info(
            { run: execution.run_id, case: execution.case_id, attempt: execution.attempt, verdict: result.verdict },
            'case finished',
          );
        else
          log.warn({ run: execution.run_id, case: execution.case_id }, 'case finished after its lease was lost; another runner reports it');
        return;
      } catch (error) {
        if (attempt >= reportAttempts) throw error;
        await sleep(backoffMs(attempt, reportBackoff));
      }
    }
  }

  return async (result, execution) => {
    reporting.add(execution.id);
    try {
      await reportOnce(result, execution);
    } finally {
      // In one step: a renewal's answer coming in between would find it held and not reporting.
      held.delete(execution.id);
      reporting.delete(execution.id);
    }
  };
}
