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
const invokedFrom = () => process.env.INIT_CWD || process.cwd();

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

/** The current branch (undefined on a detached HEAD or outside git) and commit. */
export async function gitState(root: string): Promise<{ branch?: string; commit?: string }> {
  const git = async (...args: string[]) => (await run('git', args, { cwd: root })).stdout.trim();
  try {
    const branch = await git('rev-parse', '--abbrev-ref', 'HEAD');
    const commit = await git('rev-parse', 'HEAD').catch(() => undefined);
    return { branch: branch === 'HEAD' ? undefined : branch, commit };
  } catch {
    return {};
  }
}
