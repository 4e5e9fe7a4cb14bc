import { Command, Option } from 'commander';
import { registerAgents } from './commands/agents.ts';
import { registerLogin } from './commands/login.ts';
import { registerSender } from './commands/sender.ts';
import { registerWhoami } from './commands/whoami.ts';
import { registerWorkspaces } from './commands/workspaces.ts';

export function buildProgram(): Command {
  const program = new Command('svc')
    .description('The svc developer CLI: workspaces, phone verification, flags and evals')
    .addOption(
      new Option('--base-url <url>', 'the svc server').env('SVC_BASE_URL').default('http://localhost:8080'),
    )
    .option('--json', 'print machine-readable JSON')
    .option('-w, --workspace <slug>', 'the workspace (default: SVC_WORKSPACE, else the nearest svc.yaml)')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text.startsWith('error:') ? `svc: ${text}` : text) });
  registerLogin(program);
  registerWhoami(program);
  registerWorkspaces(program);
  registerSender(program);
  registerAgents(program);
  return program;
}
