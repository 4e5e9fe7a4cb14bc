import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningCore, startCore } from '@svc/core/bootstrap';
import { startGateway } from '@svc/gateway';
import { createLogger } from '@svc/server-kit';

export interface TestPlatform {
  /** The gateway's base URL (http://localhost:<port>). */
  url: string;
  core: RunningCore;
  dataDir: string;
  stop(): Promise<void>;
}

const quiet = { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' };

export function tempDir(prefix = 'svc-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Core and gateway, each on port 0 over real HTTP, on a fresh SQLite file. */
export async function startPlatform(options: { localMode?: boolean } = {}): Promise<TestPlatform> {
  const dataDir = tempDir();
  const core = await startCore({ dataDir, port: 0, localMode: options.localMode, log: createLogger('core', quiet) });
  const gateway = await startGateway({ port: 0, coreUrl: core.url, log: createLogger('gateway', quiet) });
  return {
    url: gateway.url,
    core,
    dataDir,
    async stop() {
      await gateway.stop();
      await core.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new user with a developer token; returns the plain token. */
export async function createUserWithToken(platform: TestPlatform, email: string): Promise<string> {
  const { identity } = platform.core.services;
  const user = await identity.findOrCreateUser(email);
  return (await identity.issueToken(user.id, 'test token')).token;
}
