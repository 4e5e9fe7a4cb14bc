import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const run = promisify(execFile);

/**
 * Where the user ran the command: `pnpm svc` (and any package-manager script) runs from the package's folder,
 * and says where it was called from in INIT_CWD.
 */
export const invokedFrom = (): string => process.env.INIT_CWD || process.cwd();

/** The nearest folder upwards from `from` that holds an `svc.yaml`. */
export function findRepoRoot(from = invokedFrom()): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'svc.yaml'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The workspace slug that `svc.yaml` names, when it names one. */
export async function manifestWorkspace(root: string): Promise<string | undefined> {
  try {
    const parsed = parse(await readFile(join(root, 'svc.yaml'), 'utf8')) as { workspace?: unknown } | null;
    return typeof parsed?.workspace === 'string' ? parsed.workspace : undefined;
  } catch {
    return undefined;
  }
}

/** The top folder of the git work tree holding `from`, or undefined outside git. */
export async function findGitRoot(from = invokedFrom()): Promise<string | undefined> {
  try {
    return (await run('git', ['rev-parse', '--show-toplevel'], { cwd: from })).stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The branch checked out where `from` is, unborn ones included; undefined on a detached HEAD or outside git. */
export async function currentBranch(from = invokedFrom()): Promise<string | undefined> {
  // symbolic-ref names the branch even before its first commit; it fails on a detached HEAD.
  const branch = await run('git', ['symbolic-ref', '--short', '-q', 'HEAD'], { cwd: from }).catch(() => undefined);
  return branch?.stdout.trim() || undefined;
}

export interface GitState {
  /** The current branch, unborn ones included; undefined on a detached HEAD or outside git. */
  branch?: string;
  /** HEAD's commit, only when the bundle's files are exactly as committed. */
  commit?: string;
  /** The bundle's files differ from HEAD (changed, staged or new files), so no commit describes them. */
  dirty: boolean;
  /** The bundle files git would push: tracked ones that exist, and untracked ones that are not ignored. */
  paths?: string[];
}

const bundlePathspec = ['--', 'svc.yaml', 'agents'];

/** What git knows of the repository at `root`; `{ dirty: false }` outside git. */
export async function gitState(root: string): Promise<GitState> {
  const git = async (...args: string[]) => (await run('git', args, { cwd: root, maxBuffer: 64 * 1024 * 1024 })).stdout;
  try {
    await git('rev-parse', '--git-dir');
  } catch {
    return { dirty: false };
  }
  const branch = await currentBranch(root);
  const head = (await git('rev-parse', '--verify', '-q', 'HEAD').catch(() => '')).trim() || undefined;
  const dirty = (await git('status', '--porcelain', '--untracked-files=all', ...bundlePathspec)).trim() !== '';
  const listed = (await git('ls-files', '-z', '--cached', '--others', '--exclude-standard', ...bundlePathspec)).split('\0');
  const paths = [...new Set(listed)].filter((path) => path && existsSync(join(root, path))).sort();
  return { branch, commit: dirty ? undefined : head, dirty: dirty || !head, paths };
}
