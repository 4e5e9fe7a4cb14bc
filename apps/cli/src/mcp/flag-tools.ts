import { agentSlug, flag, flagListQuery, flagsDigestCap, flagWithHistory } from '@svc/domain';
import { z } from 'zod';
import { everyItem } from '../pages.ts';
import { json, reads, text, type ToolContext } from './tool-kit.ts';

/** The tools that read the workspace's flags: the digest to start from, the list, and one flag in full. */
export function defineFlagTools({ api, workspace, base, digest, tool }: ToolContext): void {
  tool(
    'flags_digest',
    {
      title: 'Flags digest',
      description:
        `The newest ${flagsDigestCap} open flags of workspace ${workspace} as one markdown document: each wrong agent reply a ` +
        'person flagged, with the conversation and their note saying what the agent should have said, and instructions at ' +
        'the top; it says how many more there are. Read this first when asked to fix the agents.',
      inputSchema: {
        agent: agentSlug.optional().describe("only this agent's flags"),
        all: z.boolean().optional().describe('every open flag with a note, not only the newest (default: false)'),
      },
      annotations: reads,
    },
    async (request) => text(await digest(request)),
  );

  tool(
    'list_flags',
    {
      title: 'List flags',
      description: `The flags of workspace ${workspace} as JSON, open ones unless another status is asked for.`,
      inputSchema: {
        status: flagListQuery.shape.status.unwrap().optional().describe('open (default), fixed, removed or all'),
        agent: agentSlug.optional().describe("only this agent's flags"),
      },
      annotations: reads,
      outputSchema: z.object({ flags: z.array(flag) }),
    },
    async ({ status, agent }) => json({ flags: await everyItem(api, `${base}/flags`, 'flags', { status, agent }) }),
  );

  tool(
    'get_flag',
    {
      title: 'Get a flag',
      description:
        'One flag as JSON, by its id (as list_flags gives it): the flagged reply, the conversation before it, the note ' +
        'saying what the agent should have said, what the agent did on that turn (tool calls, knowledge lookups), its ' +
        'eval case and its history.',
      inputSchema: { id: z.string().max(100).describe('the flag id') },
      annotations: reads,
      outputSchema: flagWithHistory,
    },
    async ({ id }) => json(await api.request('GET', `${base}/flags/${encodeURIComponent(id)}`)),
  );
}
