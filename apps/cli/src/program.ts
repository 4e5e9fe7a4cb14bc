import { Command, Option } from 'commander';
import { defaultBaseUrl } from './base-url.ts';
import { version } from './version.ts';

/** How a command module adds its commands to the program. */
type Register = (program: Command) => void;

// Each command's module (and what it imports: zod schemas, spinners, YAML...) loads only when that command runs, so
// `svc --version` and a command's start load nothing else; help loads them all, to list them.
const agents = async (): Promise<Register> => (await import('./commands/agents.ts')).registerAgents;
const login = async (): Promise<Register> => (await import('./commands/login.ts')).registerLogin;
const github = async (): Promise<Register> => (await import('./commands/github.ts')).registerGithub;
const commandModules: Record<string, () => Promise<Register>> = {
  login,
  logout: login,
  whoami: async () => (await import('./commands/whoami.ts')).registerWhoami,
  workspaces: async () => (await import('./commands/workspaces.ts')).registerWorkspaces,
  members: async () => (await import('./commands/members.ts')).registerMembers,
  sender: async () => (await import('./commands/sender.ts')).registerSender,
  push: agents,
  publish: agents,
  envs: agents,
  secrets: agents,
  flags: async () => (await import('./commands/flags.ts')).registerFlags,
  eval: async () => (await import('./commands/eval.ts')).registerEval,
  cases: async () => (await import('./commands/cases.ts')).registerCases,
  mcp: async () => (await import('./commands/mcp.ts')).registerMcp,
  init: async () => (await import('./commands/init.ts')).registerInit,
  github,
};
/** Every command module once, in the order help lists them. */
const allModules = [...new Set(Object.values(commandModules))];

/** The global options that take a value: what follows them is not a command's name. */
const valueOptions = new Set(['--base-url', '-w', '--workspace']);

/** The command a command line names (its first word that is neither an option nor an option's value), if any. */
function commandOf(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return undefined;
    if (valueOptions.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

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

/** The program for the command line `args` (without node and the script): with the commands it may run. */
export async function buildProgram(args: string[], { json = false }: { json?: boolean } = {}): Promise<Command> {
  const program = new Command('svc')
    .description('The svc developer CLI: workspaces and members, the WhatsApp sender, agents and deployments, flags and evals, GitHub')
    .version(version, '-V, --version')
    .addOption(new Option('--base-url <url>', 'the svc server').env('SVC_BASE_URL').default(defaultBaseUrl))
    .option('--json', 'print machine-readable JSON')
    .option('-w, --workspace <slug>', 'the workspace (default: SVC_WORKSPACE, else the nearest svc.yaml)')
    .showHelpAfterError(!json)
    // Every command's help lists the options it inherits (`--json`, `-w`, `--base-url`), as gh's does.
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({ outputError: (text, write) => usageError(text, write, json) });
  const named = commandOf(args);
  const onlyVersion = named === undefined && (args.includes('-V') || args.includes('--version'));
  const modules = named && commandModules[named] ? [commandModules[named]] : onlyVersion ? [] : allModules;
  for (const register of await Promise.all(modules.map((load) => load()))) register(program);
  return program;
}
