import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((e) => !e.name.startsWith('.'))
      .map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : Promise.resolve(e.isFile() ? [join(dir, e.name)] : []))),
  );
  return nested.flat();
}

/**
 * The files a deployment is made of, read from a repository: `svc.yaml` and everything under `agents/`
 * (dot-files skipped), keyed by their path in the repository. `svc push` and local mode's seed both use it.
 */
export async function readBundleFiles(root: string): Promise<Record<string, string>> {
  const agents = existsSync(join(root, 'agents')) ? await walk(join(root, 'agents')) : [];
  const paths = ['svc.yaml', ...agents.map((p) => relative(root, p).split(sep).join('/'))];
  const entries = await Promise.all(paths.map(async (path) => [path, await readFile(join(root, path), 'utf8')] as const));
  return Object.fromEntries(entries);
}
