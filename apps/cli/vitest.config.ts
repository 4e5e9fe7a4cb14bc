import { defineProject } from 'vitest/config';

// These tests run the real `svc` binary, often several times per test: a second or more each on a loaded machine.
export default defineProject({
  test: { testTimeout: 30_000 },
});
