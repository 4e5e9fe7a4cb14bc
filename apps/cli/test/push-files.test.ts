import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTempDirs, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

const demo = fileURLToPath(new URL('../../../examples/demo', import.meta.url));

let platform: TestPlatform;
let env: Record<string, string>;

beforeAll(async () => {
  platform = await startPlatform();
  const token = await createUserWithToken(platform, 'ada@example.com');
  env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir() };
  await runSvc(['workspaces', 'create', 'demo'], env);
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

/** A copy of the demo repository in git on `branch`, committed unless `commit` is false. */
function repository(branch: string, commit = true) {
  const repo = tempDir('svc-repo-');
  cpSync(demo, repo, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=ada@example.com', '-c', 'user.name=Ada', ...args], { cwd: repo, stdio: 'pipe' })
      .toString()
      .trim();
  git('init', '-q', '-b', branch);
  if (commit) {
    git('add', '.');
    git('commit', '-q', '-m', 'agents');
  }
  return { repo, git };
}

const deployedVersion = async (environment: string) => {
  const { identity, workspaces, deployments } = platform.core.services;
  const workspace = await workspaces.resolve('demo', (await identity.findOrCreateUser('ada@example.com')).id);
  const { environments } = await deployments.environments(workspace.id);
  return environments.find((e) => e.name === environment)?.version;
};

it("deploys an unborn branch (no commit yet) to the branch's environment, recording no commit", async () => {
  const { repo } = repository('feat/first', false);
  const pushed = await runSvc(['push', '--json'], env, undefined, repo);
  expect(pushed.code).toBe(0);
  expect(JSON.parse(pushed.stdout)).toMatchObject({
    environment: 'feat-first',
    dirty: true,
    version: { git_commit: null, git_branch: 'feat/first' },
  });
});

it('records the commit only for a clean tree, and says `dirty` otherwise', async () => {
  const { repo, git } = repository('feat/dirty');
  writeFileSync(join(repo, 'agents/support/instructions.md'), 'Changed, not committed.');
  const pushed = await runSvc(['push'], env, undefined, repo);
  expect(pushed.code).toBe(0);
  expect(pushed.stdout).not.toContain(git('rev-parse', '--short=7', 'HEAD'));
  expect(pushed.stderr).toContain('dirty');
  expect((await deployedVersion('feat-dirty'))?.git_commit).toBeNull();
  writeFileSync(join(repo, 'agents/support/instructions.md'), 'Changed and committed.');
  git('commit', '-q', '-am', 'instructions');
  const clean = await runSvc(['push', '--json'], env, undefined, repo);
  expect(JSON.parse(clean.stdout)).toMatchObject({ dirty: false, version: { git_commit: git('rev-parse', 'HEAD') } });
});

it('pushes tracked files and new untracked ones, but not ignored ones', async () => {
  const { repo, git } = repository('feat/files');
  writeFileSync(join(repo, '.gitignore'), 'agents/support/notes.local.md\n');
  writeFileSync(join(repo, 'agents/support/notes.local.md'), 'private scratch notes');
  writeFileSync(join(repo, 'agents/support/knowledge/refunds.md'), '# Refunds\nWithin 30 days.');
  const first = JSON.parse((await runSvc(['push', '--json'], env, undefined, repo)).stdout);
  expect(first.created).toBe(true);
  // Committing the new file and deleting the ignored one changes nothing that was pushed: the same version.
  git('add', '.');
  git('commit', '-q', '-m', 'refunds');
  rmSync(join(repo, 'agents/support/notes.local.md'));
  const second = JSON.parse((await runSvc(['push', '--json'], env, undefined, repo)).stdout);
  expect(second).toMatchObject({ created: false, version: { id: first.version.id } });
});

it('refuses binary files with a message naming them', async () => {
  const { repo } = repository('feat/binary');
  writeFileSync(
    join(repo, 'agents/support/knowledge/logo.png'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  );
  const pushed = await runSvc(['push'], env, undefined, repo);
  expect(pushed.code).toBe(2);
  expect(pushed.stderr).toContain('agents/support/knowledge/logo.png');
  expect(pushed.stderr).toContain('not UTF-8 text');
});
