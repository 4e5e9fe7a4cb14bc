import { agentSlug, evalCase, evalCaseMaxTurns } from '@svc/domain';
import { z } from 'zod';
import { everyItem } from '../pages.ts';
import { json, reads, type ToolContext } from './tool-kit.ts';

/** An eval case's fields, only typed: the API checks them (and the caller's role), so its refusal is the tool error. */
const caseFields = {
  agent: z.string().describe("the agent's slug, as its folder under agents/"),
  turns: z.array(z.string()).describe(`the visitor's messages, oldest first: 1 to ${evalCaseMaxTurns}`),
  expected: z
    .string()
    .describe('what the agent should do or say; without a judge model, each phrase in double quotes must appear in the reply'),
};

/** The tools for the workspace's eval cases: list them, add one by hand, edit one added by hand. */
export function defineEvalCaseTools({ api, base, tool }: ToolContext): void {
  tool(
    'list_eval_cases',
    {
      title: 'List eval cases',
      description: "The eval cases of the workspace's agents as JSON (visitor turns and the expected outcome), of one agent if named.",
      inputSchema: { agent: agentSlug.optional().describe("the agent's slug, as its folder under agents/") },
      annotations: reads,
      outputSchema: z.object({ cases: z.array(evalCase) }),
    },
    async ({ agent }) => json({ cases: await everyItem(api, `${base}/evals/cases`, 'cases', { agent }) }),
  );

  tool(
    'add_eval_case',
    {
      title: 'Add an eval case',
      description:
        'Add an eval case by hand, as `svc cases add` does: the visitor turns to replay (oldest first) and the outcome ' +
        'expected of the reply to the last one. Every run replays it from then on; cases made from flags come with them.',
      inputSchema: caseFields,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      outputSchema: evalCase,
    },
    async (input) => json(await api.request('POST', `${base}/evals/cases`, input)),
  );

  tool(
    'update_eval_case',
    {
      title: 'Edit an eval case',
      description:
        'Change a case added by hand: the fields given replace its own. A case made from a flag changes through its flag ' +
        '(case_owned_by_flag); a supervisor changes only the cases they added.',
      inputSchema: {
        id: z.string().max(100).describe('the case id, as list_eval_cases gives it'),
        agent: caseFields.agent.optional(),
        turns: caseFields.turns.optional(),
        expected: caseFields.expected.optional(),
      },
      // The fields given replace the case's; the same change again changes nothing.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      outputSchema: evalCase,
    },
    async ({ id, ...change }) => json(await api.request('PATCH', `${base}/evals/cases/${encodeURIComponent(id)}`, change)),
  );
}
