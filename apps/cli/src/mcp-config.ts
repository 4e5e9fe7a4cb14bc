import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CliError } from './errors.ts';
import { defaultBaseUrl } from './base-url.ts';

/** The CLI's own entry point: what `svc` runs, whether installed globally, aliased or run from a checkout. */
const cliEntry = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

export interface McpEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/**
 * The entry coding agents (Claude Code, Cursor...) read from a project's `.mcp.json` to start `svc mcp`: this node
 * and this CLI by their absolute paths, so it starts without an `svc` on PATH (an alias is no command), and the
 * server it was set up for, unless it is the default.
 */
export function mcpEntry(baseUrl: string): McpEntry {
  const entry: McpEntry = { command: process.execPath, args: [cliEntry, 'mcp'] };
  if (baseUrl !== defaultBaseUrl) entry.env = { SVC_BASE_URL: baseUrl };
  return entry;
}

export type McpOutcome = 'created' | 'added' | 'unchanged';

/**
 * Adds the `svc` server to the `.mcp.json` at `file`, creating it if there is none. Every other key and server is
 * kept as it was; an `svc` entry already there (perhaps changed by hand) is left alone, so running it again changes
 * nothing. A file that is not a JSON object is not touched.
 */
export async function addMcpEntry(file: string, entry: McpEntry): Promise<McpOutcome> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  let config: { mcpServers?: Record<string, unknown> } = {};
  if (text !== undefined) {
    try {
      config = JSON.parse(text) as typeof config;
    } catch {
      throw new CliError(`${file} is not valid JSON: left it unchanged; add "svc": ${JSON.stringify(entry)} to its mcpServers`);
    }
    const servers = config?.mcpServers;
    if (
      typeof config !== 'object' ||
      config === null ||
      Array.isArray(config) ||
      (servers !== undefined && (typeof servers !== 'object' || servers === null))
    ) {
      throw new CliError(`${file} is not an object with mcpServers: left it unchanged`);
    }
    if (servers && 'svc' in servers) return 'unchanged';
  }
  const updated = { ...config, mcpServers: { ...config.mcpServers, svc: entry } };
  await writeFile(file, `${JSON.stringify(updated, null, 2)}\n`, text === undefined ? { flag: 'wx' } : {});
  return text === undefined ? 'created' : 'added';
}
