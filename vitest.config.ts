import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// This run's id, which its workers inherit: the processes tests start carry it, and the global teardown fails the
// run on any of them still running at its end.
process.env.SVC_TEST_RUN ??= randomUUID();

/**
 * Deadlines for a busy machine, the same in every package. A test owns its waits (`expect.poll`, a process's
 * output, a URL answering) and its timeout is above all of them: it fails on what it waits for, not on a slow box.
 */
const deadlines = { testTimeout: 120_000, hookTimeout: 120_000, expect: { poll: { timeout: 30_000 } } };

/**
 * The tests whose behaviour depends on the store, run a second time with core on PostgreSQL: services on the store,
 * concurrent requests and restarts through the gateway, what the GitHub App claims, and what core's metrics read. The store contract, the
 * two-core and the multi-process tests run on PostgreSQL in every run already.
 */
const onPostgresToo = [
  'apps/core/test/flags/*.test.ts',
  'apps/core/test/digest/{daily-mail,flags-issue-events,scheduled-run}.test.ts',
  'apps/core/test/{mail-claims,retention}.test.ts',
  'apps/gateway/test/{several-cores,core-down,lists}.test.ts',
  'apps/gateway/test/agents/deployments.test.ts',
  'apps/gateway/test/device-auth/{shared-limits,first-sign-in,rfc}.test.ts',
  'apps/gateway/test/evals/{runs,start,leases,finish-restart,replays,graders,events}.test.ts',
  'apps/gateway/test/flags/{races,lifecycle,snapshot,pages,fixing}.test.ts',
  'apps/gateway/test/github/{app,links}.test.ts',
  'apps/gateway/test/members/{races,api,links}.test.ts',
  'apps/gateway/test/metrics/*.test.ts',
  'apps/gateway/test/phone-verification/{verify-races,limits,states,delivery,verify-token,webhooks}.test.ts',
  'apps/github-app/test/restart.test.ts',
];

/** A project per package that has tests, named as the package is. */
const packageProjects = ['apps', 'packages', 'tooling'].flatMap((parent) =>
  readdirSync(parent, { withFileTypes: true }).flatMap((entry): TestProjectInlineConfiguration[] => {
    const root = `${parent}/${entry.name}`;
    if (!entry.isDirectory() || !readdirSync(root).includes('test')) return [];
    const { name } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { name: string };
    return [{ test: { name, root, ...deadlines } }];
  }),
);

export default defineConfig({
  test: {
    // Most of a test's time goes to waiting on sockets, processes and the database: more files at once than cores.
    maxWorkers: 4,
    globalSetup: ['packages/testkit/src/global-teardown.ts'],
    projects: [
      ...packageProjects,
      // Rules that hold across the repository, such as how long a function in an app may be.
      { test: { name: 'tooling', root: 'tooling', include: ['*.test.ts'], ...deadlines } },
      { test: { name: 'postgres', include: onPostgresToo, env: { SVC_TEST_STORE: 'postgres' }, ...deadlines } },
    ],
  },
});
