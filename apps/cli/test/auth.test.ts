import { statSync } from 'node:fs';
import { removeTempDirs, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsPath, storeToken } from '../src/credentials.ts';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

let platform: TestPlatform;
let adaToken: string;
let bobToken: string;

beforeAll(async () => {
  platform = await startPlatform();
  adaToken = await createUserWithToken(platform, 'ada@example.com');
  bobToken = await createUserWithToken(platform, 'bob@example.com');
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

describe('credentials', () => {
  it('uses the token stored for the server under $XDG_CONFIG_HOME/svc, and says so', async () => {
    const configHome = tempDir();
    const path = credentialsPath({ XDG_CONFIG_HOME: configHome });
    await storeToken(path, platform.url, adaToken);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const res = await runSvc(['whoami', '--base-url', platform.url], { XDG_CONFIG_HOME: configHome });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`Signed in to ${platform.url} as ada@example.com`);
    expect(res.stdout).toContain(`from ${path}`);
  });

  it('lets SVC_TOKEN win over the stored token', async () => {
    const configHome = tempDir();
    await storeToken(credentialsPath({ XDG_CONFIG_HOME: configHome }), platform.url, adaToken);
    const res = await runSvc(['whoami', '--json'], {
      XDG_CONFIG_HOME: configHome,
      SVC_BASE_URL: platform.url,
      SVC_TOKEN: bobToken,
    });
    expect(JSON.parse(res.stdout)).toMatchObject({ user: { email: 'bob@example.com' }, token_source: 'SVC_TOKEN' });
  });

  it('exits 4 with advice when there is no token, or the server rejects it', async () => {
    const none = await runSvc(['workspaces'], { XDG_CONFIG_HOME: tempDir(), SVC_BASE_URL: platform.url });
    expect(none.code).toBe(4);
    expect(none.stderr).toBe(`svc: not signed in to ${platform.url}: run \`svc login\` or set SVC_TOKEN\n`);
    const bad = await runSvc(['whoami'], { XDG_CONFIG_HOME: tempDir(), SVC_BASE_URL: platform.url, SVC_TOKEN: 'svc_revoked' });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('svc login');
  });

  it('rejects a --base-url that is not a URL as a usage error', async () => {
    const res = await runSvc(['workspaces', '--base-url', 'localhost:8080'], { SVC_TOKEN: adaToken });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--base-url must be an http(s) URL');
  });
});
