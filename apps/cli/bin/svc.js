#!/usr/bin/env node
// The CLI as built by `pnpm build` (tsup, into dist/): plain JavaScript, nothing compiled at start.
await import('../dist/main.js').catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/main.js')) throw error;
  process.stderr.write('svc: this checkout of the CLI is not built yet; run `pnpm build` at the repository root\n');
  process.exit(1);
});
