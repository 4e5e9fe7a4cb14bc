// Reads a bundle from disk with Node's fs, so it is not in the package's index, which every user of the schemas loads:
// import it as `@svc/domain/bundle-files`. The CLI reads bundles with it without loading the agent runtime.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isBundleFile } from './agents.ts';

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((e) => !e.name.startsWith('.'))
      .map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : Promise.resolve(e.isFile() ? [join(dir, e.name)] : []))),
  );
  return nested.flat();
}

/** A file of a bundle that is not text: manifests, instructions and knowledge are UTF-8 text. */
export class BinaryFileError extends Error {
  constructor(readonly paths: string[]) {
    super(`not UTF-8 text, so not deployable: ${paths.join(', ')} (agents are made of text files: YAML, markdown)`);
    this.name = 'BinaryFileError';
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function asText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Every file of a bundle in a folder: `svc.yaml` and everything under `agents/`, dot-files skipped. */
export async function bundlePaths(root: string): Promise<string[]> {
  const agents = existsSync(join(root, 'agents')) ? await walk(join(root, 'agents')) : [];
  return ['svc.yaml', ...agents.map((p) => relative(root, p).split(sep).join('/'))];
}

/**
 * The files a deployment is made of, read from a repository and keyed by their path in it: `paths` (by default
 * every bundle file in the folder), keeping only bundle files. `svc push` and local mode's seed both use it.
 * A file that is not UTF-8 text fails the whole read with a BinaryFileError naming each such file.
 */
export async function readBundleFiles(root: string, paths?: string[]): Promise<Record<string, string>> {
  const chosen = (paths ?? (await bundlePaths(root))).filter(isBundleFile);
  const read = await Promise.all(chosen.map(async (path) => [path, asText(await readFile(join(root, path)))] as const));
  const files: Record<string, string> = {};
  const binary: string[] = [];
  for (const [path, text] of read) {
    if (text === undefined) binary.push(path);
    else files[path] = text;
  }
  if (binary.length > 0) throw new BinaryFileError(binary);
  return files;
}
