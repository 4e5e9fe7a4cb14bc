import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTempDirs, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

const demo = fileURLToPath(new URL('../../../examples/demo', import.meta.url));

let platform: TestPlatform;
let env: Record<string, string>;
let repo: string;

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' }).toString().trim();

beforeAll(async () => {
  platform = await startPlatform();
  const token = await createUserWithToken(platform, 'ada@example.com');
  env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir() };
  await runSvc(['workspaces', 'create', 'demo'], env);
  // A customer's repository: the demo manifest, in git, on a feature branch.
  repo = tempDir('svc-repo-');
  cpSync(demo, repo, { recursive: true });
  git('init', '-q', '-b', 'feat/Refund-Flow');
  git('-c', 'user.email=ada@example.com', '-c', 'user.name=Ada', 'add', '.');
  git('-c', 'user.email=ada@example.com', '-c', 'user.name=Ada', 'commit', '-q', '-m', 'agents');
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

describe('svc push, envs, publish', () => {
  it('deploys the branch to its environment from any folder of the repo, found by svc.yaml', async () => {
    const sub = join(repo, 'agents', 'support');
    const pushed = await runSvc(['push'], env, undefined, sub);
    expect(pushed.code).toBe(0);
    expect(pushed.stdout).toMatch(
      new RegExp(
        `^Created v1 \\(sha256:[0-9a-f]{12}, commit ${git('rev-parse', '--short=7', 'HEAD')}, by ada@example.com\\), deployed to feat-refund-flow\\.\\n$`,
      ),
    );
    // The demo's tool needs the environment's BACKEND_URL and BACKEND_TOKEN: the push says how to set them.
    expect(pushed.stderr).toBe(
      'warning: feat-refund-flow has no secret BACKEND_TOKEN, BACKEND_URL; the tool calls that use them fail until set:\n' +
        '  svc secrets set BACKEND_TOKEN --env feat-refund-flow\n  svc secrets set BACKEND_URL --env feat-refund-flow\n',
    );
    const again = await runSvc(['push'], env, undefined, repo);
    expect(again.stdout).toContain('Unchanged content: v1');
  });

  it('deploys a detached HEAD to preview, lists environments and publishes to live', async () => {
    git('checkout', '-q', '--detach');
    writeFileSync(join(repo, 'agents/support/instructions.md'), 'Be even briefer.');
    const pushed = await runSvc(['push', '--json'], env, undefined, repo);
    expect(JSON.parse(pushed.stdout)).toMatchObject({ environment: 'preview', created: true, version: { number: 2 } });
    const published = await runSvc(['publish'], env, undefined, repo);
    expect(published.stdout).toContain('Published v2');
    const envs = await runSvc(['envs'], env, undefined, repo);
    const rows = envs.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/).slice(0, 2));
    expect(rows).toEqual([
      ['feat-refund-flow', 'v1'],
      ['live', 'v2'],
      ['preview', 'v2'],
    ]);
  });

  it('explains a bad manifest by file and path', async () => {
    const broken = tempDir('svc-broken-');
    cpSync(demo, broken, { recursive: true });
    writeFileSync(join(broken, 'agents/support/agent.yaml'), 'name: Acme\nmodel: gpt-5\n');
    const pushed = await runSvc(['push', '--env', 'preview'], env, undefined, broken);
    expect(pushed.code).toBe(1);
    expect(pushed.stderr).toContain('agents/support/agent.yaml at model: expected "scripted"');
  });

  it('sets secrets from stdin and lists only their names', async () => {
    const set = await runSvc(['secrets', 'set', 'BACKEND_TOKEN', '--env', 'live'], env, 'tok-from-stdin\n', repo);
    expect(set.stdout).toBe('Set BACKEND_TOKEN in live.\n');
    const list = await runSvc(['secrets', 'list', '--env', 'live'], env, undefined, repo);
    expect(list.stdout).toMatch(/^NAME\s+UPDATED\nBACKEND_TOKEN\s+\d{4}-/);
    expect(list.stdout).not.toContain('tok-from-stdin');
  });

  it('refuses secrets of an environment that does not exist, and publishing live to itself', async () => {
    const set = await runSvc(['secrets', 'set', 'BACKEND_TOKEN', '--env', 'lvie'], env, 'tok\n', repo);
    expect(set).toMatchObject({ code: 1, stdout: '' });
    expect(set.stderr).toMatch(/^svc: no environment "lvie".*\(environment_not_found\)\n$/);
    const list = await runSvc(['secrets', 'list', '--env', 'lvie'], env, undefined, repo);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('(environment_not_found)');
    const published = await runSvc(['publish', '--from', 'live'], env, undefined, repo);
    expect(published.code).toBe(1);
    expect(published.stderr).toMatch(/^svc: from: live cannot be published to itself.*\(invalid_request\)\n$/);
  });
});

it('finds no workspace outside a repository without --workspace', async () => {
  const empty = tempDir('svc-empty-');
  mkdirSync(join(empty, 'x'));
  const res = await runSvc(['envs'], env, undefined, join(empty, 'x'));
  expect(res.code).toBe(2);
  expect(res.stderr).toContain('svc.yaml');
});

it('finds svc.yaml from where `pnpm svc` was called (INIT_CWD), not from the folder pnpm runs it in', async () => {
  const res = await runSvc(['envs'], { ...env, INIT_CWD: join(repo, 'agents') }, undefined, tempDir('svc-elsewhere-'));
  expect(res.code).toBe(0);
  expect(res.stdout).toContain('feat-refund-flow');
});
