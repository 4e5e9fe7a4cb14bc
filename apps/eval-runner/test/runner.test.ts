import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@svc/server-kit';
import { startPlatform } from '@svc/gateway/testing';
import { expect, it } from 'vitest';
import { startRunner } from '../src/runner.ts';

const log = createLogger('eval-runner', { LOG_LEVEL: 'silent' });

it('connects to core, keeps polling, and stops promptly', async () => {
  const platform = await startPlatform();
  const runner = startRunner({ coreUrl: platform.core.url, pollMs: 60_000, log });
  await runner.connected;
  const started = Date.now();
  await runner.stop();
  expect(Date.now() - started).toBeLessThan(1000);
  await platform.stop();
});

it('waits for a core that starts later', async () => {
  const runner = startRunner({ coreUrl: 'http://127.0.0.1:9', pollMs: 50, log });
  const outcome = await Promise.race([runner.connected.then(() => 'connected'), new Promise((r) => setTimeout(r, 300, 'waiting'))]);
  expect(outcome).toBe('waiting');
  await runner.stop();
});

it('runs as its own process and exits 0 on SIGTERM', async () => {
  const platform = await startPlatform();
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), main], {
    env: { PATH: process.env.PATH, CORE_URL: platform.core.url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('connected to core')) resolve();
    }),
  );
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  await platform.stop();
}, 30_000);
