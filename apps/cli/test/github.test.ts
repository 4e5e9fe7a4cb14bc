import { execFileSync } from 'node:child_process';
import { removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

let platform: TestPlatform;
let env: Record<string, string>;

beforeAll(async () => {
  platform = await startPlatform();
  const token = await createUserWithToken(platform, 'ada@example.com');
  await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme' } });
  env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, SVC_WORKSPACE: 'acme', XDG_CONFIG_HOME: tempDir() };
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

/** A fresh clone-like folder: a git repository whose `origin` is `url`. */
function cloneWithOrigin(url: string): string {
  const dir = tempDir('svc-clone-');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { PATH: process.env.PATH }, stdio: 'ignore' });
  git('init', '-q');
  git('remote', 'add', 'origin', url);
  return dir;
}

const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

describe('svc github', () => {
  it("connects the clone's origin (ssh), shows it not installed until the app is, then installed, and disconnects it", async () => {
    const clone = cloneWithOrigin('git@github.com:Acme/Support-Bot.git');
    const connected = await runSvc(['github', 'connect'], env, undefined, clone);
    expect(connected.code).toBe(0);
    expect(connected.stdout.split('\n')[0]).toBe('Linked Acme/Support-Bot to acme.');
    expect(connected.stdout).toContain('The svc GitHub App is not installed on Acme/Support-Bot yet');

    const before = await runSvc(['github', 'status'], env);
    const [header, row, ...rest] = before.stdout.trim().split('\n');
    expect(header).toMatch(/^REPOSITORY\s+APP\s+LINKED BY$/);
    expect(row).toMatch(/^Acme\/Support-Bot\s+not installed\s+ada@example\.com, \d{4}-\d{2}-\d{2}$/);
    expect(rest).toEqual([]);

    // The app hears it was installed there (any case: GitHub's names are case-insensitive).
    await platform.core.services.github.installations.sync(42, ['acme/support-bot'], [], false);
    const after = json((await runSvc(['--json', 'github', 'status'], env)).stdout);
    expect(after).toEqual({
      links: [{ repository: 'Acme/Support-Bot', installed: true, created_by: 'ada@example.com', created_at: expect.any(String) }],
    });

    const gone = await runSvc(['github', 'disconnect'], env, undefined, clone);
    expect(gone).toMatchObject({
      code: 0,
      stdout: 'Unlinked Acme/Support-Bot from acme: the GitHub App no longer acts on it for this workspace.\n',
    });
    expect((await runSvc(['github', 'status'], env)).stdout).toBe(
      'No repository is linked to acme: run `svc github connect` in a clone of one.\n',
    );
  });

  it('takes OWNER/REPO or an https URL as the argument, and answers --json', async () => {
    const byUrl = await runSvc(['--json', 'github', 'connect', 'https://github.com/acme/shop.js.git'], env);
    expect(byUrl.code).toBe(0);
    expect(json(byUrl.stdout)).toMatchObject({ repository: 'acme/shop.js', installed: false, created_by: 'ada@example.com' });
    const again = await runSvc(['github', 'connect', 'ACME/Shop.js'], env);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringMatching(/is linked to this workspace already \(repository_linked\)\n$/) });
    const removed = await runSvc(['--json', 'github', 'disconnect', 'acme/shop.js'], env);
    expect(json(removed.stdout)).toEqual({ repository: 'acme/shop.js', removed: true });
    const twice = await runSvc(['--json', 'github', 'disconnect', 'acme/shop.js'], env);
    expect(twice.code).toBe(1);
    expect(json(twice.stdout)).toMatchObject({ error: { code: 'link_not_found' } });
  });

  it('a repository linked to another workspace is refused without naming it', async () => {
    const bob = await createUserWithToken(platform, 'bob@example.com');
    await request(`${platform.url}/cli/workspaces`, { token: bob, json: { slug: 'globex-secret' } });
    const bobs = { ...env, SVC_TOKEN: bob, SVC_WORKSPACE: 'globex-secret' };
    expect((await runSvc(['github', 'connect', 'globex/bot'], bobs)).code).toBe(0);
    const taken = await runSvc(['--json', 'github', 'connect', 'globex/bot'], env);
    expect(taken.code).toBe(1);
    expect(json(taken.stdout)).toMatchObject({ error: { code: 'repository_linked' } });
    expect(taken.stdout).not.toContain('globex-secret');
  });

  it('a supervisor reads the links but cannot change them', async () => {
    const sam = await createUserWithToken(platform, 'sam@example.com');
    const { store } = platform.core.services;
    await store.workspaces.addMember(
      (await store.workspaces.findBySlug('acme'))!.id,
      (await store.users.findByEmail('sam@example.com'))!.id,
      'supervisor',
      new Date().toISOString(),
    );
    const asSam = { ...env, SVC_TOKEN: sam };
    const refused = await runSvc(['github', 'connect', 'acme/docs'], asSam);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/\(forbidden\)\n$/) });
    expect((await runSvc(['github', 'status'], asSam)).code).toBe(0);
  });

  it('usage errors exit 2 before asking the server; no credential exits 4', async () => {
    const outsideGit = await runSvc(['github', 'connect'], env, undefined, tempDir('svc-plain-'));
    expect(outsideGit).toMatchObject({ code: 2, stderr: expect.stringContaining('no repository: pass OWNER/REPO') });
    const gitlab = await runSvc(['github', 'connect'], env, undefined, cloneWithOrigin('https://gitlab.com/acme/bot.git'));
    expect(gitlab).toMatchObject({
      code: 2,
      stderr: 'svc: the origin remote (https://gitlab.com/acme/bot.git) is not on GitHub: pass OWNER/REPO\n',
    });
    const bad = await runSvc(['--json', 'github', 'disconnect', 'not a repo'], env);
    expect(bad.code).toBe(2);
    expect(json(bad.stdout)).toEqual({
      error: { code: 'usage', message: '"not a repo" is not a GitHub repository: expected OWNER/REPO or a GitHub URL' },
    });
    const signedOut = await runSvc(['github', 'status'], { ...env, SVC_TOKEN: '' });
    expect(signedOut.code).toBe(4);
  });
});
