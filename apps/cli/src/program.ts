import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { registerAgents } from './commands/agents.ts';
import { registerEval } from './commands/eval.ts';
import { registerFlags } from './commands/flags.ts';
import { registerGithub } from './commands/github.ts';
import { registerInit } from './commands/init.ts';
import { registerLogin } from './commands/login.ts';
import { registerMembers } from './commands/members.ts';
import { registerSender } from './commands/sender.ts';
import { registerWhoami } from './commands/whoami.ts';
import { registerWorkspaces } from './commands/workspaces.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** Usage errors are written as commander words them, or as the JSON error envelope under `--json`. */
function usageError(text: string, write: (text: string) => void, json: boolean): void {
  if (!json) return write(text.startsWith('error:') ? `svc: ${text}` : text);
  const message =
    text
      .replace(/^error: /, '')
      .split('\n')[0]
      ?.trim() ?? text;
  process.stdout.write(`${JSON.stringify({ error: { code: 'usage', message } }, null, 2)}\n`);
}

export function buildProgram({ json = false }: { json?: boolean } = {}): Command {
  const program = new Command('svc')
    .description('The svc developer CLI: workspaces, phone verification, agents and deployments, flags and evals, GitHub')
    .version(version, '-V, --version')
    .addOption(new Option('--base-url <url>', 'the svc server').env('SVC_BASE_URL').default('http://localhost:8080'))
    .option('--json', 'print machine-readable JSON')
    .option('-w, --workspace <slug>', 'the workspace (default: SVC_WORKSPACE, else the nearest svc.yaml)')
    .showHelpAfterError(!json)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => usageError(text, write, json) });
  registerLogin(program);
  registerWhoami(program);
  registerWorkspaces(program);
  registerMembers(program);
  registerSender(program);
  registerAgents(program);
  registerFlags(program);
  registerEval(program);
  registerInit(program);
  registerGithub(program);
  return program;
}
