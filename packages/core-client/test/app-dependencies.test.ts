import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

const apps = new URL('../../../apps/', import.meta.url);
const manifests = readdirSync(apps)
  .map((dir) => new URL(`${dir}/package.json`, apps))
  .filter((file) => existsSync(file))
  .map((file) => JSON.parse(readFileSync(file, 'utf8')) as Manifest);
const appNames = new Set(manifests.map(({ name }) => name));

// Installing an app installs its dependencies: another app's would bring that app's drivers and servers along. An
// app reaches core through @svc/core-client, and other apps only in its tests, as devDependencies.
it('no app depends on another app, or on the test platform', () => {
  expect([...appNames]).toEqual(expect.arrayContaining(['@svc/core', '@svc/gateway', '@svc/eval-runner', '@svc/github-app', '@svc/cli']));
  const onApps = manifests.flatMap(({ name, dependencies = {} }) =>
    Object.keys(dependencies)
      .filter((dependency) => appNames.has(dependency) || dependency === '@svc/test-platform')
      .map((dependency) => `${name} depends on ${dependency}`),
  );
  expect(onApps).toEqual([]);
});
