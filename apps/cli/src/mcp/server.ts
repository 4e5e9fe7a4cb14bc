import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { flagsDigestCap } from '@svc/domain';
import type { Api } from '../api.ts';
import { type DigestRequest, flagsDigest } from '../flags-digest.ts';
import { defineEvalCaseTools } from './case-tools.ts';
import { defineFlagTools } from './flag-tools.ts';
import { serverInstructions } from './instructions.ts';
import { defineReleaseTools } from './release-tools.ts';
import { defineEvalRunTools } from './run-tools.ts';
import { type ToolContext, toolDefiner } from './tool-kit.ts';

export interface McpContext {
  api: Api;
  workspace: string;
  version: string;
}

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
  const context: ToolContext = { api, workspace, base, decoder, digest, tool: toolDefiner(server, tools) };

  // In the order of the loop, which is the order clients list them in.
  defineFlagTools(context);
  defineEvalCaseTools(context);
  defineReleaseTools(context);
  defineEvalRunTools(context);

  server.registerResource(
    'flags',
    `svc://${workspace}/flags.md`,
    { title: `Flags of ${workspace}`, description: `The open flags digest: the newest ${flagsDigestCap}`, mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await digest() }] }),
  );
  return { server, tools };
}
