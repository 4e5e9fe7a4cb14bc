import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import {
  agentSlug,
  deploymentResult,
  environmentName,
  evalCase,
  evalCaseMaxTurns,
  evalRunDetail,
  flag,
  flagListQuery,
  flagsDigestCap,
  flagWithHistory,
  maxRepeat,
  publishResult,
} from '@svc/domain';
import { z } from 'zod';
import type { Api } from '../api.ts';
import { pushWorkingTree } from '../deploy.ts';
import { CliError } from '../errors.ts';
import { type DigestRequest, flagsDigest } from '../flags-digest.ts';
import { everyItem } from '../pages.ts';
import { serverInstructions } from './instructions.ts';
import { runEvals } from './run-evals.ts';

export interface McpContext {
  api: Api;
  workspace: string;
  version: string;
}

/** A tool's answer: text for the model. */
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
/** A JSON answer: structured, as the tool's `outputSchema` says, and the same JSON as text for clients that read text. */
const json = (value: object): CallToolResult => ({
  ...text(JSON.stringify(value, null, 2)),
  structuredContent: value as Record<string, unknown>,
});

/** What a tool does to the workspace, as MCP's annotations say it; every tool acts on svc alone unless `openWorldHint`. */
const reads: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** An eval case's fields, only typed: the API checks them (and the caller's role), so its refusal is the tool error. */
const caseFields = {
  agent: z.string().describe("the agent's slug, as its folder under agents/"),
  turns: z.array(z.string()).describe(`the visitor's messages, oldest first: 1 to ${evalCaseMaxTurns}`),
  expected: z
    .string()
    .describe('what the agent should do or say; without a judge model, each phrase in double quotes must appear in the reply'),
};

/** What `push` answers: the deployment, and whether the files pushed differ from every commit. */
const deployment = deploymentResult.extend({ dirty: z.boolean().meta({ description: 'the files pushed differ from every commit' }) });

/**
 * A failure as a tool error the model reads, with our error code: the server's error answer as it came
 * (`{"error":{"code":"forbidden",...}}`), or the same envelope for the CLI's own failures.
 */
function toolError(error: unknown): CallToolResult {
  const envelope =
    error instanceof CliError
      ? error.toJson()
      : { error: { code: 'failed', message: error instanceof Error ? error.message : String(error) } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }] };
}

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A tool's work, its failures answered as tool errors. */
const answering =
  <A>(work: (args: A, extra: ToolExtra) => Promise<CallToolResult>) =>
  async (args: A, extra: ToolExtra): Promise<CallToolResult> => {
    try {
      return await work(args, extra);
    } catch (error) {
      return toolError(error);
    }
  };

/** The server, and the names of its tools. */
export interface McpService {
  server: McpServer;
  tools: ReadonlySet<string>;
}

/**
 * The loop from a flag to a fix as tools for a coding agent: read the flags, push a fix to the branch's environment,
 * run the evals there and read what failed. Every call acts on one workspace, as the caller's token allows.
 */
export function createMcpServer({ api, workspace, version }: McpContext): McpService {
  const base = `/api/developer/v1/${encodeURIComponent(workspace)}`;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const digest = async (request: DigestRequest = {}) => decoder.decode((await flagsDigest(api, workspace, request)).bytes);
  const server = new McpServer({ name: 'svc', version }, { instructions: serverInstructions(workspace) });
  const tools = new Set<string>();

  /**
   * A tool taking exactly these arguments: one it does not know is refused, not ignored (a misspelt `agnt`). With an
   * `outputSchema`, its answers are `json(...)` of that shape.
   */
  function tool<Shape extends z.ZodRawShape>(
    name: string,
    config: { title: string; description: string; inputSchema: Shape; annotations: ToolAnnotations; outputSchema?: z.ZodObject },
    work: (args: z.infer<z.ZodObject<Shape>>, extra: ToolExtra) => Promise<CallToolResult>,
  ): void {
    tools.add(name);
    const { title, description } = config;
    // Its own object rather than the named schema, which JSON Schema would give as a `$ref`: MCP wants an object at the top.
    const outputSchema = config.outputSchema && z.object(config.outputSchema.shape);
    const annotations = { title, ...config.annotations };
    const inputSchema = z.strictObject(config.inputSchema);
    server.registerTool<z.ZodObject, typeof inputSchema>(
      name,
      { title, description, inputSchema, outputSchema, annotations },
      answering(work),
    );
  }

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

  server.registerResource(
    'flags',
    `svc://${workspace}/flags.md`,
    { title: `Flags of ${workspace}`, description: `The open flags digest: the newest ${flagsDigestCap}`, mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await digest() }] }),
  );
  return { server, tools };
}
