#!/usr/bin/env node
// The CLI as built by `pnpm build` (tsup, into dist/): plain JavaScript, nothing compiled at start.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // What scripts and `svc --version` checks run most: answered before the command parser loads, which costs a
  // third of the start on a slow machine. Any other use of the flag goes through the program, which prints the same.
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  await import('../dist/main.js').catch((error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/main.js')) throw error;
    process.stderr.write('svc: this checkout of the CLI is not built yet; run `pnpm build` at the repository root\n');
    process.exit(1);
  });
}
