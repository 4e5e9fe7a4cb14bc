import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@svc/server-kit';
import { afterAll, beforeAll } from 'vitest';
import { type RunningCore, startCore } from '../src/bootstrap.ts';

/** Core on a free port and a fresh data dir for this test file's tests; removed after them. */
export function runningCore(): { readonly url: string; readonly services: RunningCore['services'] } {
  let core: RunningCore | undefined;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-core-'));
    core = await startCore({ dataDir, port: 0, secretKey: randomBytes(32), log: createLogger('core', { LOG_LEVEL: 'silent' }) });
  });
  afterAll(async () => {
    await core?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
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
