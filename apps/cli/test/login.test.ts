import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { removeTempDirs, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsPath } from '../src/credentials.ts';
import { startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';
import { spawnSvc, svcOnTerminal } from './spawn-svc.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

async function decide(userCode: string, decision: 'approved' | 'denied') {
  const { identity, deviceAuth } = platform.core.services;
  const user = await identity.findOrCreateUser('ada@example.com');
  await deviceAuth.decide(userCode, user.id, decision, '127.0.0.1');
}

describe('svc login', () => {
  it('prints the code and URL, waits for approval, and stores the token 0600', async () => {
    const env = { SVC_BASE_URL: platform.url, XDG_CONFIG_HOME: tempDir() };
    const login = spawnSvc(['login'], env);
    // The code's line, and the next, which may arrive a moment later.
    const [, code] = await login.waitForOutput(/one-time code: ([A-Z]{4}-[A-Z]{4})\n.*\n/, { stream: 'stderr' });
    expect(login.output('stderr')).toContain(`${platform.url}/device?user_code=${code}`);
    expect(login.output('stderr')).not.toContain('Press Enter');
    await decide(code!, 'approved');
    expect(await login.exited).toBe(0);
    expect(login.output('stdout')).toContain(`Signed in to ${platform.url} as ada@example.com`);
    const path = credentialsPath(env);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).hosts[platform.url].token).toMatch(/^svc_/);

    const whoami = await runSvc(['whoami'], env);
    expect(whoami.stdout).toContain(`from ${path}`);

    const logout = await runSvc(['logout'], env);
    expect(logout.code).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8')).hosts[platform.url]).toBeUndefined();
    const { tokens } = await platform.core.services.identity
      .findOrCreateUser('ada@example.com')
      .then((u) => platform.core.services.identity.listTokens(u.id, { limit: 100 }));
    expect(tokens.filter((t) => t.name.startsWith('svc CLI'))).toEqual([]);
  });

  it("says the server's reason when it refuses to start a sign-in", async () => {
    const login = await runSvc(['login', '--email', 'ada@example.com', '--no-browser'], {
      SVC_BASE_URL: platform.url,
      XDG_CONFIG_HOME: tempDir(),
    });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('this server cannot send mail (no SMTP_URL) (email_not_configured)');
  });

  it('says clearly when the sign-in is denied', async () => {
    const login = spawnSvc(['login', '--no-browser'], { SVC_BASE_URL: platform.url, XDG_CONFIG_HOME: tempDir() });
    const [, code] = await login.waitForOutput(/one-time code: ([A-Z]{4}-[A-Z]{4})/, { stream: 'stderr' });
    await decide(code!, 'denied');
    expect(await login.exited).toBe(1);
    expect(login.output('stderr')).toContain('svc: the sign-in was denied in the browser');
  });
});

describe('svc login, when time runs out', () => {
  it('says the code expired', async () => {
    let offsetMs = 0;
    const expiring = await startPlatform({ clock: () => new Date(Date.now() + offsetMs) });
    const login = spawnSvc(['login'], { SVC_BASE_URL: expiring.url, XDG_CONFIG_HOME: tempDir() });
    await login.waitForOutput(/one-time code/, { stream: 'stderr' });
    offsetMs = 901_000;
    expect(await login.exited).toBe(1);
    expect(login.output('stderr')).toContain('the code expired before it was approved; run `svc login` again');
    await expiring.stop();
  });
});

describe('svc login, on a terminal with stderr sent to a file', () => {
  it('writes no colour codes into the file', async () => {
    const dir = tempDir();
    const errors = join(dir, 'stderr.txt');
    // stdout stays the pseudo-terminal `script` provides; only stderr is a file.
    const login = svcOnTerminal(`login --no-browser 2>'${errors}'`, {
      SVC_BASE_URL: platform.url,
      XDG_CONFIG_HOME: dir,
      TERM: 'xterm-256color',
    });
    let code: string | undefined;
    while (!code) {
      code = /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(existsSync(errors) ? readFileSync(errors, 'utf8') : '')?.[1];
      if (!code) await sleep(50);
    }
    await decide(code, 'denied');
    await login.exited;
    const written = readFileSync(errors, 'utf8');
    expect(written).toContain('Not signed in.');
    expect(written).not.toContain('\u001b[');
  });
});
