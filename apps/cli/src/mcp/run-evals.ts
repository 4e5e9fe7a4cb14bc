import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { environmentForBranch, type EvalRunView } from '@svc/domain';
import type { Api } from '../api.ts';
import type { RunState } from '../eval-progress.ts';
import { runSummary } from '../eval-summary.ts';
import { followRun } from '../run-watch.ts';
import { currentBranch } from '../repo.ts';

export interface RunEvalsArgs {
  environment?: string;
  agent?: string;
  repeat?: number;
  wait?: boolean;
}

const progressOf = (run: RunState) =>
  `${run.done} of ${run.cases} cases done: ${run.passed} passed, ${run.failed} failed, ${run.errors} errors`;

/**
 * The `run_evals` tool: starts a run on the environment (the current branch's by default). Without `wait`, answers
 * its id. With it, follows the run as `svc eval` does (its event stream, else polling), sends an MCP progress
 * notification each time more cases are done (when the client asked for progress), and answers the summary `svc eval`
 * prints, regressions against live first. A client that cancels the call stops the wait, not the run.
 */
export async function runEvals(
  api: Api,
  workspace: string,
  { environment, agent, repeat, wait }: RunEvalsArgs,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
): Promise<string> {
  const runs = `/api/developer/v1/${encodeURIComponent(workspace)}/evals/runs`;
  const started = await api.request<EvalRunView>('POST', runs, {
    environment: environment ?? environmentForBranch(await currentBranch()),
    agent,
    repeat,
  });
  const links = {
    page: `${api.baseUrl}/w/${encodeURIComponent(workspace)}/evals/${encodeURIComponent(started.id)}`,
    markdown: `${api.baseUrl}${runs}/${encodeURIComponent(started.id)}.md`,
  };
  const on = `${started.cases} cases on ${started.environment} (v${started.version.number})`;
  if (!wait) return `Started eval run ${started.id} of ${on}. Read its progress with get_eval_run; its page: ${links.page}`;

  const progressToken = extra._meta?.progressToken;
  let reported = -1;
  const run = await followRun({
    api,
    path: `${runs}/${encodeURIComponent(started.id)}`,
    started,
    signal: extra.signal,
    update: (state) => {
      if (progressToken === undefined || state.done === reported) return;
      reported = state.done;
      const params = { progressToken, progress: state.done, total: state.cases, message: progressOf(state) };
      void extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
    },
  });
  return `Eval run ${run.id} of ${on}.\n\n${runSummary(run, links)}`;
}
