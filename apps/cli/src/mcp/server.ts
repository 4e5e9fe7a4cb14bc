import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { agentSlug, environmentName, flagListQuery, flagsDigestCap, maxRepeat } from '@svc/domain';
import { z } from 'zod';
import type { Api } from '../api.ts';
import { pushWorkingTree } from '../deploy.ts';
import { CliError } from '../errors.ts';
import { type DigestRequest, flagsDigest } from '../flags-digest.ts';
import { everyItem } from '../pages.ts';
import { runEvals } from './run-evals.ts';

export interface McpContext {
  api: Api;
  workspace: string;
  version: string;
}

/** A tool's answer: text for the model. */
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const json = (value: unknown): CallToolResult => text(JSON.stringify(value, null, 2));

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
  const server = new McpServer({ name: 'svc', version });
  const tools = new Set<string>();

  /** A tool taking exactly these arguments: one it does not know is refused, not ignored (a misspelt `agnt`). */
  function tool<Shape extends z.ZodRawShape>(
    name: string,
    config: { title: string; description: string; inputSchema: Shape },
    work: (args: z.infer<z.ZodObject<Shape>>, extra: ToolExtra) => Promise<CallToolResult>,
  ): void {
    tools.add(name);
    const { title, description } = config;
    const inputSchema = z.strictObject(config.inputSchema);
    server.registerTool<z.ZodRawShape, typeof inputSchema>(name, { title, description, inputSchema }, answering(work));
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
    },
    async ({ status, agent }) => json({ flags: await everyItem(api, `${base}/flags`, 'flags', { status, agent }) }),
  );

  tool(
    'list_eval_cases',
    {
      title: 'List eval cases',
      description: "The eval cases of the workspace's agents as JSON (visitor turns and the expected outcome), of one agent if named.",
      inputSchema: { agent: agentSlug.optional().describe("the agent's slug, as its folder under agents/") },
    },
    async ({ agent }) => json({ cases: await everyItem(api, `${base}/evals/cases`, 'cases', { agent }) }),
  );

  tool(
    'push',
    {
      title: 'Push the agents',
      description:
        "Deploy this repository's agents (the working tree) to the current git branch's environment (feat/x deploys to feat-x), " +
        'or to the environment named, as `svc push` does. Run the evals on that environment next.',
      inputSchema: { environment: environmentName.optional().describe("default: the current branch's environment") },
    },
    async ({ environment }) => json(await pushWorkingTree(api, base, environment)),
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
    },
    async (args, extra) => text(await runEvals(api, workspace, args, extra)),
  );

  tool(
    'get_eval_run',
    {
      title: 'Get an eval run',
      description: "An eval run's progress and results as JSON, regressions first.",
      inputSchema: { id: z.string().max(100).describe('the run id') },
    },
    async ({ id }) => json(await api.request('GET', `${base}/evals/runs/${encodeURIComponent(id)}`)),
  );

  tool(
    'eval_report',
    {
      title: 'Eval run report',
      description: "An eval run's report in markdown: what failed and why, regressions first, with each conversation.",
      inputSchema: { id: z.string().max(100).describe('the run id') },
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
