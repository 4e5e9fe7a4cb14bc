import { deploymentResult, environmentName, publishResult } from '@svc/domain';
import { z } from 'zod';
import { pushWorkingTree } from '../deploy.ts';
import { json, type ToolContext } from './tool-kit.ts';

/** What `push` answers: the deployment, and whether the files pushed differ from every commit. */
const deployment = deploymentResult.extend({ dirty: z.boolean().meta({ description: 'the files pushed differ from every commit' }) });

/** The tools that change what the agents run: push the working tree to an environment, publish a version to live. */
export function defineReleaseTools({ api, base, tool }: ToolContext): void {
  tool(
    'push',
    {
      title: 'Push the agents',
      description:
        "Deploy this repository's agents (the working tree) to the current git branch's environment (feat/x deploys to feat-x), " +
        'or to the environment named, as `svc push` does. Run the evals on that environment next.',
      inputSchema: { environment: environmentName.optional().describe("default: the current branch's environment") },
      // It replaces what the environment runs; the same content again changes nothing.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      outputSchema: deployment,
    },
    async ({ environment }) => json(await pushWorkingTree(api, base, environment)),
  );

  tool(
    'publish',
    {
      title: 'Publish to live',
      description:
        "Promote an environment's version (default: preview; usually the branch's, once its evals pass) to live, where " +
        'visitors talk to it, as `svc publish` does, and start an eval run of every case on live. Only owners and ' +
        'developers may: the API refuses others (forbidden). Ask the user before publishing.',
      inputSchema: { from: environmentName.optional().describe('the environment whose version goes live (default: preview)') },
      // Live's version is replaced, and each publish starts another eval run, whose replays call the agents' tools.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      outputSchema: publishResult,
    },
    async ({ from }) => json(await api.request('POST', `${base}/publish`, { from })),
  );
}
