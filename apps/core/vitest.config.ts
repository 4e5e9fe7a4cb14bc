import { defineProject } from 'vitest/config';

// Tests on PostgreSQL create and drop databases in their hooks: seconds each when the server is busy.
export default defineProject({
  test: { hookTimeout: 60_000 },
});
