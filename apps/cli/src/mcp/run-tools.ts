import { agentSlug, environmentName, evalRunDetail, maxRepeat } from '@svc/domain';
import { z } from 'zod';
import { runEvals } from './run-evals.ts';
import { json, reads, text, type ToolContext } from './tool-kit.ts';

/** The tools for eval runs: start one (and wait for it, if asked), read its results, read its report. */
export function defineEvalRunTools({ api, workspace, base, decoder, tool }: ToolContext): void {
  tool(
    'run_evals',
    {
      title: 'Run the evals',
      description:
        "Replay the workspace's eval cases against an environment (default: the current branch's) and grade each reply. " +
        'With wait, reports progress as cases finish and returns the summary, regressions against live first; without it, ' +
        'returns the run id at once (read it with get_eval_run).',
      inputSchema: {
        environment: environmentName.optional(),
        agent: agentSlug.optional().describe("only this agent's cases"),
        repeat: z.number().int().min(1).max(maxRepeat).optional().describe('replay each case this many times'),
        wait: z.boolean().optional().describe('wait for the run to finish (default: false)'),
      },
      // Each call starts a run (it adds, replaces nothing), whose replays call the agents' tools and the judge model.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args, extra) => text(await runEvals(api, workspace, args, extra)),
  );

  tool(
    'get_eval_run',
    {
      title: 'Get an eval run',
      description: "An eval run's progress and results as JSON, regressions first.",
      inputSchema: { id: z.string().max(100).describe('the run id') },
      annotations: reads,
      outputSchema: evalRunDetail,
    },
    async ({ id }) => json(await api.request('GET', `${base}/evals/runs/${encodeURIComponent(id)}`)),
  );

  tool(
    'eval_report',
    {
      title: 'Eval run report',
      description: "An eval run's report in markdown: what failed and why, regressions first, with each conversation.",
      inputSchema: { id: z.string().max(100).describe('the run id') },
      annotations: reads,
    },
    async ({ id }) => text(decoder.decode(await api.bytes(`${base}/evals/runs/${encodeURIComponent(id)}.md`, 'text/markdown'))),
  );
}
