import type { VersionView } from '@svc/domain';
import type { Command } from 'commander';
import { Api } from '../api.ts';
import { type Deployment, pushWorkingTree } from '../deploy.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { CliError, exitCodes } from '../errors.ts';
import { printJson, printTable } from '../output.ts';
import { readSecret } from '../stdin.ts';
import { resolveWorkspace } from '../workspace.ts';

/** A deploy succeeds without the secrets its tools use; their calls fail until the secrets are set. */
function warnOfMissingSecrets({ environment, missing_secrets: missing }: Deployment): void {
  if (missing.length === 0) return;
  process.stderr.write(
    `warning: ${environment} has no secret ${missing.join(', ')}; the tool calls that use ${missing.length > 1 ? 'them' : 'it'} fail until set:\n` +
      missing.map((name) => `  svc secrets set ${name} --env ${environment}\n`).join(''),
  );
}

async function workspaceApi(command: Command) {
  const options = globalOptions(command);
  const { token } = await requireCredential(options.baseUrl);
  const workspace = await resolveWorkspace(command);
  return { api: new Api(options.baseUrl, token), options, workspace, base: `/api/developer/v1/${encodeURIComponent(workspace)}` };
}

const describeVersion = (v: VersionView) =>
  `v${v.number} (${v.content_hash.slice(0, 19)}${v.git_commit ? `, commit ${v.git_commit.slice(0, 7)}` : ''}, by ${v.author})`;

export function registerAgents(program: Command): void {
  program
    .command('push')
    .description("deploy this repository's agents to the current branch's environment (preview on a detached HEAD)")
    .option('--env <name>', 'deploy to this environment instead')
    .action(async (opts: { env?: string }, command: Command) => {
      const { api, options, base } = await workspaceApi(command);
      const { dirty, ...deployed } = await pushWorkingTree(api, base, opts.env);
      warnOfMissingSecrets(deployed);
      if (options.json) return printJson({ ...deployed, dirty });
      const what = deployed.created ? 'Created' : 'Unchanged content:';
      process.stdout.write(`${what} ${describeVersion(deployed.version)}, deployed to ${deployed.environment}.\n`);
      if (dirty) process.stderr.write('Note: dirty: the pushed files differ from any commit, so no commit is recorded.\n');
    });

  program
    .command('publish')
    .description("promote an environment's version to live (owner or developer)")
    .option('--from <env>', 'the environment to publish', 'preview')
    .action(async (opts: { from: string }, command: Command) => {
      const { api, options, workspace, base } = await workspaceApi(command);
      const published = await api.request<Deployment & { eval_run_id: string | null }>('POST', `${base}/publish`, { from: opts.from });
      warnOfMissingSecrets(published);
      if (options.json) return printJson(published);
      process.stdout.write(`Published ${describeVersion(published.version)} from ${opts.from} to live.\n`);
      if (published.eval_run_id) {
        const page = `${options.baseUrl}/w/${encodeURIComponent(workspace)}/evals/${encodeURIComponent(published.eval_run_id)}`;
        process.stdout.write(`Eval run of every case on live started; a pass there marks its flag fixed: ${page}\n`);
      }
    });

  program
    .command('envs')
    .description('environments and their deployed versions')
    .action(async (_opts, command: Command) => {
      const { api, options, base } = await workspaceApi(command);
      const { environments } = await api.request<{ environments: { name: string; version: VersionView | null; updated_at: string }[] }>(
        'GET',
        `${base}/environments`,
      );
      if (options.json) return printJson({ environments });
      if (environments.length === 0) return void process.stdout.write('Nothing deployed yet. Run `svc push`.\n');
      printTable(
        ['environment', 'version', 'commit', 'agents', 'updated'],
        environments.map((e) => [
          e.name,
          e.version ? `v${e.version.number}` : '-',
          e.version?.git_commit?.slice(0, 7) ?? '',
          e.version?.agents.join(',') ?? '',
          e.updated_at.slice(0, 16).replace('T', ' '),
        ]),
      );
    });

  const secrets = program.command('secrets').description("an environment's secrets, for the agents' tools");
  secrets
    .command('set')
    .description('set a secret: typed at a hidden prompt, or piped on stdin')
    .argument('<name>', 'UPPER_SNAKE_CASE')
    .requiredOption('--env <name>', 'the environment')
    .action(async (name: string, opts: { env: string }, command: Command) => {
      const { api, options, base } = await workspaceApi(command);
      const value = await readSecret(`Value of ${name}`);
      if (!value) throw new CliError('the value is empty: type it at the prompt or pipe it on stdin', exitCodes.usage);
      await api.request('PUT', `${base}/environments/${encodeURIComponent(opts.env)}/secrets/${encodeURIComponent(name)}`, { value });
      if (options.json) return printJson({ name, environment: opts.env, set: true });
      process.stdout.write(`Set ${name} in ${opts.env}.\n`);
    });
  secrets
    .command('list')
    .description('the names of the secrets (never their values)')
    .requiredOption('--env <name>', 'the environment')
    .action(async (opts: { env: string }, command: Command) => {
      const { api, options, base } = await workspaceApi(command);
      const listed = await api.request<{ secrets: { name: string; updated_at: string }[] }>(
        'GET',
        `${base}/environments/${encodeURIComponent(opts.env)}/secrets`,
      );
      if (options.json) return printJson(listed);
      if (listed.secrets.length === 0) return void process.stdout.write(`No secrets in ${opts.env}.\n`);
      printTable(
        ['name', 'updated'],
        listed.secrets.map((s) => [s.name, s.updated_at.slice(0, 16).replace('T', ' ')]),
      );
    });
}
