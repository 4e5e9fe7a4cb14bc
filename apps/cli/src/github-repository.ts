import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import hostedGitInfo from 'hosted-git-info';
import { CliError, exitCodes } from './errors.ts';
import { invokedFrom } from './repo.ts';

const run = promisify(execFile);

/** GitHub's own rules: an owner is 1 to 39 letters, digits or single hyphens; a name, letters, digits, `.`, `-`, `_`. */
const ownerAndName = /^([A-Za-z\d](?:[A-Za-z\d]|-(?=[A-Za-z\d])){0,38})\/([\w.-]{1,100})$/;

/**
 * `owner/name` from what a user typed or a git remote holds: `OWNER/REPO`, or a GitHub URL over https or ssh
 * (`https://github.com/o/r.git`, `git@github.com:o/r.git`, `ssh://git@github.com/o/r`); undefined for anything else.
 */
export function githubRepository(text: string): string | undefined {
  const typed = ownerAndName.exec(text.trim());
  if (typed && typed[2] !== '.' && typed[2] !== '..') return `${typed[1]}/${typed[2]?.replace(/\.git$/, '')}`;
  if (!/github\.com[:/]/i.test(text)) return undefined;
  const info = hostedGitInfo.fromUrl(text.trim());
  if (info?.type !== 'github' || !info.user || !info.project) return undefined;
  const repository = `${info.user}/${info.project}`;
  return ownerAndName.test(repository) ? repository : undefined;
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
