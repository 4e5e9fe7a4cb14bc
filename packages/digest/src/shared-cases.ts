import type { EvalResultView, EvalRunView, Verdict } from '@svc/domain';
import { count, plural } from './markdown.ts';

type Tally = Record<Verdict, number>;

/** A run against the live baseline on the cases both ran: each result's own verdict and its verdict in the baseline. */
export interface SharedCases {
  /** The run's cases, and the baseline's. */
  here: number;
  live: number;
  /** The run's done cases that ran in the baseline too. */
  shared: number;
  /** The run's done cases the baseline did not run. */
  added: number;
  /** The baseline's cases this run did not run (removed since, or of another agent). */
  dropped: number;
  /** On the shared cases: how they did here, and how they did in the baseline. */
  thisRun: Tally;
  baseline: Tally;
}

const tally = (verdicts: Verdict[]): Tally => ({
  pass: verdicts.filter((v) => v === 'pass').length,
  fail: verdicts.filter((v) => v === 'fail').length,
  error: verdicts.filter((v) => v === 'error').length,
});

/** The comparison with live on the cases both ran, from each result's stored baseline verdict: no other run is read. */
export function sharedCases(run: Pick<EvalRunView, 'cases'>, results: EvalResultView[], baseline: Pick<EvalRunView, 'cases'>): SharedCases {
  const shared = results.filter((r) => r.baseline !== null);
  // Cases a cancelled or unfinished run has not done yet are not "only in live": the run says so apart.
  const notDone = Math.max(0, run.cases - results.length);
  return {
    here: run.cases,
    live: baseline.cases,
    shared: shared.length,
    added: results.length - shared.length,
    dropped: Math.max(0, baseline.cases - shared.length - notDone),
    thisRun: tally(shared.map((r) => r.verdict)),
    baseline: tally(shared.map((r) => r.baseline!)),
  };
}

/**
 * What the comparison is on, in a sentence: e.g. `12 cases here, 10 in live: compared on the 10 both ran; 2 new.`,
 * or `Compared on the 10 cases both ran.` when the sets are the same.
 */
export function sharedCasesText(c: SharedCases): string {
  const changes = [
    c.added > 0 ? `${count(c.added)} new` : undefined,
    c.dropped > 0 ? `${count(c.dropped)} only in live` : undefined,
  ].filter(Boolean);
  if (changes.length === 0 && c.here === c.live) return `Compared on the ${plural(c.shared, 'case')} both ran.`;
  const both = c.shared === 0 ? 'no case ran in both' : `compared on the ${count(c.shared)} both ran`;
  return `${plural(c.here, 'case')} here, ${count(c.live)} in live: ${both}${changes.length ? `; ${changes.join(', ')}` : ''}.`;
}
