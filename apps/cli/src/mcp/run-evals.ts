import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { environmentForBranch, type EvalRunDetailView, type EvalRunView } from '@svc/domain';
import type { Api } from '../api.ts';
import { runSummary } from '../eval-summary.ts';
import { currentBranch } from '../repo.ts';

const pollMs = 500;

export interface RunEvalsArgs {
  environment?: string;
  agent?: string;
  repeat?: number;
  wait?: boolean;
}

const progressOf = (run: EvalRunDetailView) =>
  `${run.done} of ${run.cases} cases done: ${run.passed} passed, ${run.failed} failed, ${run.errors} errors, ${run.regressions} regressions`;

/**
 * The `run_evals` tool: starts a run on the environment (the current branch's by default). Without `wait`, answers
 * its id. With it, sends an MCP progress notification each time more cases are done (when the client asked for
 * progress), and answers the summary `svc eval` prints, regressions against live first. A client that cancels the
 * call stops the wait, not the run.
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
  for (;;) {
    const run = await api.request<EvalRunDetailView>('GET', `${runs}/${encodeURIComponent(started.id)}`);
    if (progressToken !== undefined && run.done !== reported) {
      reported = run.done;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: run.done, total: run.cases, message: progressOf(run) },
      });
    }
    if (run.finished) return `Eval run ${run.id} of ${on}.\n\n${runSummary(run, links)}`;
    await sleep(pollMs, undefined, { signal: extra.signal });
  }
}
