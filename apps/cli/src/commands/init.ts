import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { globalOptions } from '../context.ts';
import { CliError } from '../errors.ts';
import { addMcpEntry, mcpEntry, type McpOutcome } from '../mcp-config.ts';
import { printJson } from '../output.ts';
import { findGitRoot, findRepoRoot, invokedFrom } from '../repo.ts';
import { resolveWorkspace } from '../workspace.ts';

/** What a coding agent working in the repository should know about svc. */
export const agentsSection = (workspace: string) => `## svc: the conversational agents of this repository

The agents under \`agents/<slug>/\` are deployed with svc to the workspace \`${workspace}\`. People mark wrong
agent replies in svc's inbox as flags, with a note saying what the agent should have said; every flag is an
eval case too. To work on them:

1. \`svc flags --save\` writes the open flags to \`flags.md\`, with instructions at the top: read it.
2. Fix the agent: its instructions (\`agents/<slug>/instructions.md\`), tools (\`agents/<slug>/agent.yaml\`) or
   knowledge (\`agents/<slug>/knowledge/\`). Never special-case the exact sentence of a flagged conversation.
3. \`svc push\` deploys the branch to its own environment (\`feat/x\` to \`feat-x\`).
4. \`svc eval\` replays every eval case on that environment; it exits 1 while any case fails.

The same loop is served as MCP tools by \`svc mcp\` (\`flags_digest\`, \`push\`, \`run_evals\`, \`eval_report\`...), which
\`.mcp.json\` starts for coding agents that read it.
`;

/**
 * Whether a file already speaks of svc: the word on its own, as in `svc push` or `svc.yaml`, but not as part
 * of a hyphenated name such as `auth-svc`, which is some other service.
 */
const mentionsSvc = (text: string) => /(^|[^\w-])svc(?![\w-])/i.test(text);

type Outcome = 'created' | 'appended' | 'unchanged';

/** Writes the section into `file`, keeping every byte already there; a file that mentions svc is left alone. */
async function writeSection(file: string, section: string): Promise<Outcome> {
  const existing = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing === undefined) {
    // `wx`: a file that appeared since it was looked for is not overwritten; it is read again instead.
    const created = await writeFile(file, `# AGENTS.md\n\n${section}`, { flag: 'wx' }).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
    return created ? 'created' : writeSection(file, section);
  }
  const text = existing.toString('utf8');
  if (mentionsSvc(text)) return 'unchanged';
  const separator = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  await appendFile(file, `${separator}${section}`);
  return 'appended';
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description("write a section about svc into the repository's AGENTS.md, and the svc MCP server into its .mcp.json, for coding agents")
    .option('--no-mcp', 'leave .mcp.json alone')
    .action(async (opts: { mcp: boolean }, command: Command) => {
      const options = globalOptions(command);
      const workspace = await resolveWorkspace(command);
      const root = findRepoRoot() ?? (await findGitRoot()) ?? invokedFrom();
      const file = join(root, 'AGENTS.md');
      const outcome = await writeSection(file, agentsSection(workspace)).catch((error: Error) => {
        throw new CliError(`cannot write ${file}: ${error.message}`);
      });
      const mcpFile = join(root, '.mcp.json');
      const mcp = opts.mcp ? { file: mcpFile, outcome: await addMcpEntry(mcpFile, mcpEntry(options.baseUrl)) } : undefined;
      if (options.json) return printJson({ file, workspace, outcome, ...(mcp && { mcp }) });
      const said: Record<Outcome, string> = {
        created: `Created ${file} with a section about svc (workspace ${workspace}).`,
        appended: `Added a section about svc (workspace ${workspace}) to the end of ${file}.`,
        unchanged: `${file} already mentions svc: left it unchanged.`,
      };
      const mcpSaid: Record<McpOutcome, string> = {
        created: `Created ${mcpFile} with the svc MCP server (svc mcp).`,
        added: `Added the svc MCP server (svc mcp) to ${mcpFile}.`,
        unchanged: `${mcpFile} already has an svc server: left it unchanged.`,
      };
      process.stdout.write(`${said[outcome]}\n${mcp ? `${mcpSaid[mcp.outcome]}\n` : ''}`);
    });
}
