import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTempDirs, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';
import { svcOnTerminal } from './spawn-svc.ts';

const demo = fileURLToPath(new URL('../../../examples/demo', import.meta.url));

let platform: TestPlatform;
let env: Record<string, string>;
let repo: string;

beforeAll(async () => {
  platform = await startPlatform();
  const token = await createUserWithToken(platform, 'ada@example.com');
  env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir() };
  await runSvc(['workspaces', 'create', 'demo'], env);
  repo = tempDir('svc-repo-');
  cpSync(demo, repo, { recursive: true });
  expect((await runSvc(['push', '--env', 'preview'], env, undefined, repo)).code).toBe(0);
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

describe('--json', () => {
  it('prints a usage error as the JSON error envelope on stdout, exit 2', async () => {
    const result = await runSvc(['--json', 'deploy-everything'], env);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({ error: { code: 'usage', message: "unknown command 'deploy-everything'" } });
  });

  it("prints the server's error answer, issues included, for an invalid manifest", async () => {
    writeFileSync(join(repo, 'agents/support/agent.yaml'), 'name: Support\nmodel: nonsense\n');
    const result = await runSvc(['push', '--json'], env, undefined, repo);
    expect(result.code).toBe(1);
    const body = JSON.parse(result.stdout);
    expect(body.error.code).toBe('invalid_manifest');
    expect(body.issues).toEqual([expect.objectContaining({ file: 'agents/support/agent.yaml', path: 'model' })]);
    const human = await runSvc(['push'], env, undefined, repo);
    expect(human.stderr).toContain('agents/support/agent.yaml');
    cpSync(join(demo, 'agents/support/agent.yaml'), join(repo, 'agents/support/agent.yaml'));
  });

  it('prints "not signed in" as JSON with exit 4', async () => {
    const result = await runSvc(['--json', 'whoami'], { SVC_BASE_URL: platform.url, XDG_CONFIG_HOME: tempDir() });
    expect(result.code).toBe(4);
    expect(JSON.parse(result.stdout).error.code).toBe('unauthorized');
  });

  it('names an unreachable server with its own code, server_unreachable, exit 1', async () => {
    const result = await runSvc(['--json', 'workspaces'], { ...env, SVC_BASE_URL: 'http://127.0.0.1:9' });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toEqual({ code: 'server_unreachable', message: expect.stringContaining('cannot reach') });
  });

  it('answers `secrets set` in JSON', async () => {
    const result = await runSvc(['--json', 'secrets', 'set', 'API_KEY', '--env', 'preview'], env, 'k-123\n', repo);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ name: 'API_KEY', environment: 'preview', set: true });
  });
});

describe('help', () => {
  it('`svc` alone prints the help on stdout and exits 0, promising only commands that exist', async () => {
    const result = await runSvc([], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: svc /);
    const listed = [...result.stdout.split('Commands:')[1]!.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]);
    expect(listed).toEqual(expect.arrayContaining(['login', 'workspaces', 'members', 'sender', 'push', 'flags', 'eval', 'github']));
    // The description names what the commands do: phone verification is the API's, no command's.
    const description = result.stdout.split('\n\n')[1]!.replace(/\s+/g, ' ');
    expect(description).toContain('workspaces and members, the WhatsApp sender');
    expect(description).not.toContain('phone verification');
  });

  it("a command's help lists the global options it inherits, as gh's does", async () => {
    const result = await runSvc(['workspaces', 'create', '--help'], env);
    expect(result.code).toBe(0);
    const global = result.stdout.split('Global Options:')[1] ?? '';
    for (const option of ['--json', '-w, --workspace <slug>', '--base-url <url>']) expect(global).toContain(option);
  });
});

it('prints its version, the one in its package.json, however it is asked', async () => {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  for (const args of [['--version'], ['-V'], ['--json', '--version'], ['--version', '--base-url', 'http://127.0.0.1:1']]) {
    expect(await runSvc(args, env)).toMatchObject({ code: 0, stdout: `${version}\n` });
  }
});

it('signs out with exit 0 when already signed out', async () => {
  const result = await runSvc(['logout'], { SVC_BASE_URL: platform.url, XDG_CONFIG_HOME: tempDir() });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Not signed in');
});

it('reads a secret typed at a terminal without echoing it', async () => {
  // `script` gives the CLI a real pseudo-terminal, as a person at a shell has.
  // Only what a shell would pass: an inherited INIT_CWD (pnpm test sets it) would point svc at another folder.
  const terminal = svcOnTerminal('secrets set TYPED_KEY --env preview', { TERM: 'xterm', ...env, NO_COLOR: '1' }, repo);
  await terminal.waitForOutput('Value of TYPED_KEY', { stream: 'stdout' });
  terminal.child.stdin?.write('hunter2-secret\r');
  expect(await terminal.exited).toBe(0);
  expect(terminal.output('stdout')).toContain('Set TYPED_KEY in preview.');
  expect(terminal.output('stdout')).not.toContain('hunter2-secret');
  const { identity, workspaces, deployments } = platform.core.services;
  const workspace = await workspaces.resolve('demo', (await identity.findOrCreateUser('ada@example.com')).id);
  expect((await deployments.secretValues(workspace.id, 'preview')).TYPED_KEY).toBe('hunter2-secret');
});
