import { randomBytes } from 'node:crypto';
import { createLogger } from '@svc/server-kit';
import { afterAll, beforeAll } from 'vitest';
import { type RunningCore, startCore } from '../src/bootstrap.ts';
import { tempDir } from './temp-dir.ts';

/** Core on a free port and a fresh data dir, for this test file's tests. */
export function runningCore(): { readonly url: string; readonly services: RunningCore['services'] } {
  let core: RunningCore | undefined;
  beforeAll(async () => {
    core = await startCore({ dataDir: tempDir(), port: 0, secretKey: randomBytes(32), log: createLogger('core', { LOG_LEVEL: 'silent' }) });
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
  };
}
