import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  gypfile?: boolean;
}

const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Where `name` is installed for the package in `from`, looked up as Node looks it up: node_modules, then upward. */
function installed(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/** Every package `svc` installs with it: the CLI's production dependencies and theirs, the workspace's included. */
function productionClosure(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (dir: string) => {
    const manifest = readManifest(dir);
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const at = installed(name, dir);
      if (!at || found.has(at)) continue; // an optional dependency for another platform is not installed
      found.set(at, name);
      visit(at);
    }
  };
  visit(root);
  return found;
}

/** A package that builds or ships a compiled Node addon. */
const isNative = (dir: string) =>
  readManifest(dir).gypfile === true || existsSync(join(dir, 'binding.gyp')) || readdirSync(dir).some((f) => f.endsWith('.node'));

it('installs svc without native modules, databases or model SDKs', () => {
  const closure = productionClosure(fileURLToPath(new URL('..', import.meta.url)));
  const names = [...new Set(closure.values())];
  expect(names).toContain('@svc/domain');
  for (const heavy of ['@svc/agent-runtime', 'better-sqlite3', 're2', 'openai', '@anthropic-ai/sdk', 'pg', 'ioredis']) {
    expect(names, heavy).not.toContain(heavy);
  }
  expect([...closure].filter(([dir]) => isNative(dir)).map(([, name]) => name)).toEqual([]);
});
