import type { Command } from 'commander';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { repositoryArgument } from '../github-repository.ts';
import { printJson, printTable } from '../output.ts';
import { resolveWorkspace } from '../workspace.ts';

/** A repository linked to the workspace, as the API lists it. */
interface GithubLink {
  repository: string;
  installed: boolean;
  created_by: string;
  created_at: string;
}

async function context(command: Command) {
  const options = globalOptions(command);
  const { token } = await requireCredential(options.baseUrl);
  const workspace = await resolveWorkspace(command);
  const base = `/api/developer/v1/${encodeURIComponent(workspace)}/github/links`;
  return { api: new Api(options.baseUrl, token), options, workspace, base };
}

const notInstalled = (repository: string) =>
  `The svc GitHub App is not installed on ${repository} yet: install it there (the app's page on GitHub, "Install"); ` +
  'until then it leaves the repository alone.';

const linkPath = (base: string, repository: string) => `${base}/${repository.split('/').map(encodeURIComponent).join('/')}`;

export function registerGithub(program: Command): void {
  const github = program
    .command('github')
    .description('the GitHub repositories of the workspace: a preview eval comment on each pull request, the service-flags issue');

  github
    .command('connect')
    .description("link a repository to the workspace (owners and developers); default: the current clone's origin")
    .argument('[repository]', 'OWNER/REPO or a GitHub URL')
    .action(async (given: string | undefined, _opts, command: Command) => {
      const repository = await repositoryArgument(given);
      const { api, options, workspace, base } = await context(command);
      const link = await api.request<GithubLink>('POST', base, { repository });
      if (options.json) return printJson(link);
      const next = link.installed
        ? 'Each pull request now gets a preview eval comment, and the service-flags issue follows the open flags.'
        : notInstalled(link.repository);
      process.stdout.write(`Linked ${link.repository} to ${workspace}.\n${next}\n`);
    });

  github
    .command('status')
    .description('the repositories linked to the workspace, and whether the GitHub App is installed on each')
    .action(async (_opts, command: Command) => {
      const { api, options, workspace, base } = await context(command);
      const list = await api.request<{ links: GithubLink[] }>('GET', base);
      if (options.json) return printJson(list);
      if (list.links.length === 0) {
        process.stdout.write(`No repository is linked to ${workspace}: run \`svc github connect\` in a clone of one.\n`);
        return;
      }
      printTable(
        ['repository', 'app', 'linked by'],
        list.links.map((l) => [l.repository, l.installed ? 'installed' : 'not installed', `${l.created_by}, ${l.created_at.slice(0, 10)}`]),
      );
    });

  github
    .command('disconnect')
    .description("unlink a repository from the workspace (owners and developers); default: the current clone's origin")
    .argument('[repository]', 'OWNER/REPO or a GitHub URL')
    .action(async (given: string | undefined, _opts, command: Command) => {
      const repository = await repositoryArgument(given);
      const { api, options, workspace, base } = await context(command);
      // 204: the answer has no body, so the CLI says what was removed.
      await api.request('DELETE', linkPath(base, repository));
      if (options.json) return printJson({ repository, removed: true });
      process.stdout.write(`Unlinked ${repository} from ${workspace}: the GitHub App no longer acts on it for this workspace.\n`);
    });
}
