import { randomUUID } from 'node:crypto';
import { defineConfig } from 'vitest/config';

// This run's id, which its workers inherit: the processes tests start carry it, and the global teardown fails the
// run on any of them still running at its end.
process.env.SVC_TEST_RUN ??= randomUUID();

export default defineConfig({
  test: {
    projects: ['apps/*', 'packages/*'],
    globalSetup: ['packages/testkit/src/global-teardown.ts'],
  },
});
