import type { Workspace, WorkspaceList } from '@svc/domain';
import { type Command, Option } from 'commander';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { printJson, printTable } from '../output.ts';

async function authedApi(command: Command) {
  const options = globalOptions(command);
  const { token } = await requireCredential(options.baseUrl);
  return { api: new Api(options.baseUrl, token), options };
}

export function registerWorkspaces(program: Command): void {
  const workspaces = program
    .command('workspaces')
    .description('list your workspaces')
    .action(async (_opts, command: Command) => {
      const { api, options } = await authedApi(command);
      const { workspaces: list } = await api.request<WorkspaceList>('GET', '/cli/workspaces');
      if (options.json) return printJson({ workspaces: list });
      if (list.length === 0) {
        process.stdout.write('No workspaces yet. Create one with `svc workspaces create <slug>`.\n');
        return;
      }
      printTable(
        ['slug', 'name', 'role', 'created'],
        list.map((w) => [w.slug, w.name ?? '', w.role, w.created_at.slice(0, 10)]),
      );
    });

  workspaces
    .command('create')
    .description('create a workspace you own')
    .argument('<slug>', 'lowercase letters, digits and dashes, 3 to 40 characters')
    .addOption(new Option('--name <name>', 'a display name'))
    .action(async (slug: string, opts: { name?: string }, command: Command) => {
      const { api, options } = await authedApi(command);
      const created = await api.request<Workspace>('POST', '/cli/workspaces', { slug, name: opts.name });
      if (options.json) return printJson(created);
      process.stdout.write(`Created workspace ${created.slug}${created.name ? ` (${created.name})` : ''}; you are its owner.\n`);
    });
}
