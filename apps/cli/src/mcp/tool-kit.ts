import type { TextDecoder } from 'node:util';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Api } from '../api.ts';
import { CliError } from '../errors.ts';
import type { DigestRequest } from '../flags-digest.ts';

/** A tool's answer: text for the model. */
export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
/** A JSON answer: structured, as the tool's `outputSchema` says, and the same JSON as text for clients that read text. */
export const json = (value: object): CallToolResult => ({
  ...text(JSON.stringify(value, null, 2)),
  structuredContent: value as Record<string, unknown>,
});

/** What a tool does to the workspace, as MCP's annotations say it; every tool acts on svc alone unless `openWorldHint`. */
export const reads: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

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

/** What the client sends with a call besides its arguments: its progress token, its cancellation. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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

/** How a tool presents itself: its title and description, its arguments, what it does, and the shape of its answers. */
export interface ToolConfig<Shape extends z.ZodRawShape> {
  title: string;
  description: string;
  inputSchema: Shape;
  annotations: ToolAnnotations;
  outputSchema?: z.ZodObject;
}

/**
 * Adds a tool taking exactly these arguments: one it does not know is refused, not ignored (a misspelt `agnt`). With an
 * `outputSchema`, its answers are `json(...)` of that shape.
 */
export type DefineTool = <Shape extends z.ZodRawShape>(
  name: string,
  config: ToolConfig<Shape>,
  work: (args: z.infer<z.ZodObject<Shape>>, extra: ToolExtra) => Promise<CallToolResult>,
) => void;

/** Defines tools on `server`, adding each one's name to `tools`. */
export function toolDefiner(server: McpServer, tools: Set<string>): DefineTool {
  return (name, config, work) => {
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
  };
}

/** What every group of tools works with: the API, the workspace they act on, and the way to add a tool. */
export interface ToolContext {
  api: Api;
  workspace: string;
  /** The workspace's developer API, `/api/developer/v1/<workspace>`. */
  base: string;
  /** Reads the API's markdown answers. */
  decoder: TextDecoder;
  /** The workspace's flags digest, as markdown. */
  digest: (request?: DigestRequest) => Promise<string>;
  tool: DefineTool;
}
