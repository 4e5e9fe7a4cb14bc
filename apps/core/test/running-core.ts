import { randomBytes } from 'node:crypto';
import { createLogger, deriveInternalToken } from '@svc/server-kit';
import { afterAll, beforeAll } from 'vitest';
import { type RunningCore, startCore } from '../src/bootstrap.ts';
import { tempDir } from './temp-dir.ts';

/**
 * Core on a free port and a fresh data dir, for this test file's tests, with the internal token its callers
 * present.
 */
export function runningCore(): { readonly url: string; readonly services: RunningCore['services']; readonly internalToken: string } {
  let core: RunningCore | undefined;
  const secretKey = randomBytes(32);
  beforeAll(async () => {
    core = await startCore({ dataDir: tempDir(), port: 0, secretKey, log: createLogger('core', { LOG_LEVEL: 'silent' }) });
  });
  afterAll(() => core?.stop());
  const started = () => {
    if (!core) throw new Error('core starts in beforeAll');
    return core;
  };
  return {
    get url() {
      return started().url;
    },
    get services() {
      return started().services;
    },
    internalToken: deriveInternalToken(secretKey),
  };
}
