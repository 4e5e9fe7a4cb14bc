import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repositoryName } from '@svc/domain';
import hostedGitInfo from 'hosted-git-info';
import { CliError, exitCodes } from './errors.ts';
import { invokedFrom } from './repo.ts';

const run = promisify(execFile);

/** `owner/name` by GitHub's rules, as the server checks it. */
const isRepository = (text: string): boolean => repositoryName.safeParse(text).success;

/**
 * `owner/name` from what a user typed or a git remote holds: `OWNER/REPO`, or a GitHub URL over https or ssh
 * (`https://github.com/o/r.git`, `git@github.com:o/r.git`, `ssh://git@github.com/o/r`); undefined for anything else.
 */
export function githubRepository(text: string): string | undefined {
  const typed = text.trim().replace(/\.git$/, '');
  if (isRepository(typed)) return typed;
  if (!/github\.com[:/]/i.test(text)) return undefined;
  const info = hostedGitInfo.fromUrl(text.trim());
  if (info?.type !== 'github' || !info.user || !info.project) return undefined;
  const repository = `${info.user}/${info.project}`;
  return isRepository(repository) ? repository : undefined;
}

/** The repository a command names, else the GitHub repository the current clone's `origin` points at. */
export async function repositoryArgument(given: string | undefined): Promise<string> {
  if (given !== undefined) {
    const repository = githubRepository(given);
    if (!repository) throw new CliError(`"${given}" is not a GitHub repository: expected OWNER/REPO or a GitHub URL`, exitCodes.usage);
    return repository;
  }
  const origin = await run('git', ['remote', 'get-url', 'origin'], { cwd: invokedFrom() }).then(
    (out) => out.stdout.trim(),
    () => undefined,
  );
  if (!origin)
    throw new CliError('no repository: pass OWNER/REPO, or run inside a git clone whose `origin` remote is on GitHub', exitCodes.usage);
  const repository = githubRepository(origin);
  if (!repository) throw new CliError(`the origin remote (${origin}) is not on GitHub: pass OWNER/REPO`, exitCodes.usage);
  return repository;
}
