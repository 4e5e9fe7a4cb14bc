import type { EvalRunView, Verdict } from '@svc/domain';
import type { CallOptions, CoreClient } from '../../core-client.ts';

/** How many of an environment's newest runs its trend is drawn from, and how many live results a case's strip shows. */
export const trendRuns = 30;
export const stripResults = 10;

/** The runs a trend is drawn from: finished ones with cases (a cancelled run says nothing of the agent), oldest first. */
export const finishedRuns = (newestFirst: EvalRunView[], max: number): EvalRunView[] =>
  newestFirst
    .filter((run) => run.status === 'finished' && run.cases > 0)
    .slice(0, max)
    .reverse();

/** One result in a case's strip: the run, its version, and the case's verdict there. */
export interface CaseResult {
  runId: string;
  version: number;
  verdict: Verdict;
}

/** A case is flaky when its verdict flips between two runs of the same version: nothing changed but the dice. */
export const isFlaky = (history: CaseResult[]): boolean =>
  history.some((result, i) => i > 0 && result.version === history[i - 1]!.version && result.verdict !== history[i - 1]!.verdict);

/** The environment whose latest finished run other environments' trends are read against. */
const live = 'live';

/**
 * The trend of each environment with finished runs (`only` narrows it to one), from its newest `trendRuns` runs, and
 * live's latest finished run among as many.
 */
export async function environmentTrends(core: CoreClient, workspace: string, caller: CallOptions, only?: string) {
  const names = only ? [only] : (await core.agents.environments.query({ workspace }, caller)).environments.map((e) => e.name);
  const pages = await Promise.all(
    [...new Set([...names, live])].map(async (environment) => {
      const { runs } = await core.evals.runs.list.query({ workspace, environment, limit: trendRuns }, caller);
      return { environment, runs: finishedRuns(runs, trendRuns) };
    }),
  );
  return {
    trends: pages.filter(({ environment, runs }) => names.includes(environment) && runs.length > 0),
    live: pages.find(({ environment }) => environment === live)?.runs.at(-1) ?? null,
  };
}

/** Each of these cases' results in live's last finished runs, oldest run first. */
export async function liveCaseHistories(
  core: CoreClient,
  workspace: string,
  caseIds: string[],
  caller: CallOptions,
): Promise<Map<string, CaseResult[]>> {
  if (caseIds.length === 0) return new Map();
  const { histories } = await core.evals.cases.liveHistories.query({ workspace, case_ids: caseIds, runs: stripResults }, caller);
  return new Map(histories.map((h) => [h.case_id, h.results.map((r) => ({ runId: r.run_id, version: r.version, verdict: r.verdict }))]));
}
