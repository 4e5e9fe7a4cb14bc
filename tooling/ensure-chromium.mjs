#!/usr/bin/env node
// The browser tests drive Debian's Chromium through playwright-core, which downloads no browser of its own.
// `pnpm test` runs this first: it installs Chromium from the distribution's packages when it is missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const asRoot = process.getuid?.() === 0;
const sudo = asRoot ? [] : ['sudo', '-n'];
const run = (args) =>
  execFileSync(args[0], args.slice(1), {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });

console.error(`Chromium is not at ${path}; installing Debian's chromium package for the browser tests...`);
try {
  run([...sudo, 'apt-get', 'update', '-qq']);
  run([...sudo, 'apt-get', 'install', '-y', '-qq', 'chromium']);
} catch {
  console.error(
    `Could not install Chromium (apt-get needs root or passwordless sudo). Install it yourself ` +
      `(apt-get install chromium), or point CHROMIUM_PATH at a Chromium or Chrome binary, then run pnpm test again.`,
  );
  process.exit(1);
}
if (!existsSync(path)) {
  console.error(`apt-get installed chromium, but not at ${path}: set CHROMIUM_PATH to where it is.`);
  process.exit(1);
}
