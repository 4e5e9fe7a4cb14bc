import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const run = promisify(execFile);

/** The nearest folder upwards from `from` that holds an `svc.yaml`. */
export function findRepoRoot(from = process.cwd()): string | undefined {
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

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((e) => !e.name.startsWith('.'))
      .map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : Promise.resolve(e.isFile() ? [join(dir, e.name)] : []))),
  );
  return nested.flat();
}

/** The files a deployment is made of: `svc.yaml` and everything under `agents/`, by repository path. */
export async function bundleFiles(root: string): Promise<Record<string, string>> {
  const paths = ['svc.yaml', ...(existsSync(join(root, 'agents')) ? await walk(join(root, 'agents')) : []).map((p) => relative(root, p).split(sep).join('/'))];
  const entries = await Promise.all(paths.map(async (path) => [path, await readFile(join(root, path), 'utf8')] as const));
  return Object.fromEntries(entries);
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
