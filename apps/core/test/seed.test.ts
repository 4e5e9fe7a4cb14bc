import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '@svc/server-kit';
import { expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { defaultConfig, startCore } from '../src/bootstrap.ts';
import { tempDir } from './temp-dir.ts';

const log = createLogger('core', { LOG_LEVEL: 'silent' });
const options = { port: 0, secretKey: randomBytes(32), config: { ...defaultConfig, localMode: true }, log };

it('seeds local mode once: dev@example.com owns demo, with a 0600 dev token that works', async () => {
  const dataDir = tempDir();
  const first = await startCore({ ...options, dataDir });
  const tokenFile = join(dataDir, 'dev-token');
  const token = readFileSync(tokenFile, 'utf8').trim();
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  const principal = await first.services.identity.authenticate(`Bearer ${token}`);
  expect(principal?.user.email).toBe('dev@example.com');
  expect(await first.services.workspaces.list(principal!.user.id)).toMatchObject([{ slug: 'demo', role: 'owner' }]);
  await first.stop();

  const second = await startCore({ ...options, dataDir });
  expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);
  expect(await second.services.identity.authenticate(`Bearer ${token}`)).toBeDefined();
  await second.stop();
});
