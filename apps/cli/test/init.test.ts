import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

afterAll(() => removeTempDirs());

// `svc init` works offline: no server and no token are needed to describe the workspace.
const env = { XDG_CONFIG_HOME: tempDir() };

/** A customer's repository of workspace acme, with an `agents/support` folder to run commands from. */
function repository(): { root: string; sub: string } {
  const root = tempDir('svc-init-');
  writeFileSync(join(root, 'svc.yaml'), 'workspace: acme\n');
  const sub = join(root, 'agents', 'support');
  mkdirSync(sub, { recursive: true });
  return { root, sub };
}

describe('svc init', () => {
  it('creates AGENTS.md beside svc.yaml with the workspace and the loop, then changes nothing when run again', async () => {
    const { root, sub } = repository();
    const created = await runSvc(['init'], env, undefined, sub);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toBe(
      `Created ${join(root, 'AGENTS.md')} with a section about svc (workspace acme).\n` +
        `Created ${join(root, '.mcp.json')} with the svc MCP server (svc mcp).\n`,
    );
    expect(existsSync(join(sub, 'AGENTS.md'))).toBe(false);
    const written = readFileSync(join(root, 'AGENTS.md'), 'utf8');
    expect(written).toContain('workspace `acme`');
    const loop = ['svc flags --save', 'agents/<slug>/instructions.md', 'svc push', 'svc eval'].map((step) => written.indexOf(step));
    expect(loop.every((at, i) => at > (loop[i - 1] ?? 0))).toBe(true);

    const again = await runSvc(['init'], env, undefined, sub);
    expect(again).toMatchObject({
      code: 0,
      stdout:
        `${join(root, 'AGENTS.md')} already mentions svc: left it unchanged.\n` +
        `${join(root, '.mcp.json')} already has an svc server: left it unchanged.\n`,
    });
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toBe(written);
  });

  it('appends the section to an AGENTS.md that does not mention svc, keeping every byte of it', async () => {
    const { root } = repository();
    // No final newline, CRLF line ends, non-ASCII text and a hyphenated service name that is not svc.
    const before = Buffer.from('# Contributing\r\n\r\nRun `pnpm test` before pushing — ¡siempre! The auth-svc lives elsewhere.', 'utf8');
    writeFileSync(join(root, 'AGENTS.md'), before);
    const appended = await runSvc(['init'], env, undefined, root);
    expect(appended).toMatchObject({ code: 0 });
    expect(appended.stdout).toContain(`Added a section about svc (workspace acme) to the end of ${join(root, 'AGENTS.md')}.\n`);
    const after = readFileSync(join(root, 'AGENTS.md'));
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.subarray(before.length).toString('utf8')).toMatch(
      /^\n\n## svc: [^\n]+\n\nThe agents under `agents\/<slug>\/` are deployed with svc to the workspace `acme`\./,
    );

    const again = await runSvc(['init', '--json'], env, undefined, root);
    expect(JSON.parse(again.stdout)).toEqual({
      file: join(root, 'AGENTS.md'),
      workspace: 'acme',
      outcome: 'unchanged',
      mcp: { file: join(root, '.mcp.json'), outcome: 'unchanged' },
    });
    expect(readFileSync(join(root, 'AGENTS.md')).equals(after)).toBe(true);
  });

  it('leaves an AGENTS.md that already mentions svc unchanged, and says so with exit 0', async () => {
    const { root } = repository();
    const before = 'Deploy with `svc push`; our own notes.\n';
    writeFileSync(join(root, 'AGENTS.md'), before);
    const res = await runSvc(['init', '--json', '--no-mcp'], env, undefined, root);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ file: join(root, 'AGENTS.md'), workspace: 'acme', outcome: 'unchanged' });
    expect(existsSync(join(root, '.mcp.json'))).toBe(false);
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toBe(before);
  });

  it('without svc.yaml writes at the git root, else in the folder it was called from (INIT_CWD under pnpm)', async () => {
    const repo = tempDir('svc-init-git-');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    mkdirSync(join(repo, 'src'));
    const inGit = await runSvc(['init', '--workspace', 'acme', '--json'], env, undefined, join(repo, 'src'));
    expect(JSON.parse(inGit.stdout)).toEqual({
      file: join(repo, 'AGENTS.md'),
      workspace: 'acme',
      outcome: 'created',
      mcp: { file: join(repo, '.mcp.json'), outcome: 'created' },
    });

    const plain = tempDir('svc-init-plain-');
    const called = await runSvc(['init'], { ...env, SVC_WORKSPACE: 'acme', INIT_CWD: plain }, undefined, tempDir('svc-elsewhere-'));
    expect(called.code).toBe(0);
    expect(readFileSync(join(plain, 'AGENTS.md'), 'utf8')).toContain('workspace `acme`');
  });

  it('.mcp.json: adds the svc server beside the others, keeps every other key, and changes nothing when run again', async () => {
    const { root } = repository();
    const mine = { mcpServers: { github: { command: 'gh-mcp', env: { TOKEN: '${GITHUB_TOKEN}' } } }, inputs: [{ id: 'x' }] };
    writeFileSync(join(root, '.mcp.json'), JSON.stringify(mine));
    const added = await runSvc(['init'], env, undefined, root);
    expect(added.stdout).toContain(`Added the svc MCP server (svc mcp) to ${join(root, '.mcp.json')}.\n`);
    const written = readFileSync(join(root, '.mcp.json'), 'utf8');
    const svc = { command: process.execPath, args: [bin, 'mcp'] };
    expect(JSON.parse(written)).toEqual({ ...mine, mcpServers: { ...mine.mcpServers, svc } });
    expect((await runSvc(['init'], env, undefined, root)).stdout).toContain('already has an svc server: left it unchanged');
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe(written);

    const broken = repository().root;
    writeFileSync(join(broken, '.mcp.json'), '{ "mcpServers": ');
    const refused = await runSvc(['init'], env, undefined, broken);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('.mcp.json is not valid JSON: left it unchanged')]);
    expect(readFileSync(join(broken, '.mcp.json'), 'utf8')).toBe('{ "mcpServers": ');
  });

  it('.mcp.json starts svc mcp as written, with no svc on PATH, on the server init was run against', async () => {
    const platform = await startPlatform();
    const client = new Client({ name: 'svc-init-test', version: '1.0.0' });
    try {
      const token = await createUserWithToken(platform, 'ada@example.com');
      expect((await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme' } })).status).toBe(201);
      const { root } = repository();
      expect((await runSvc(['init'], { ...env, SVC_BASE_URL: platform.url }, undefined, root)).code).toBe(0);
      const entry = JSON.parse(readFileSync(join(root, '.mcp.json'), 'utf8')).mcpServers.svc;
      expect(entry.env).toEqual({ SVC_BASE_URL: platform.url });

      // As a coding agent starts it: the entry's command, arguments and env over a shell's, where no `svc` is.
      const shell = { PATH: '/usr/bin:/bin', SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir(), SVC_TEST_RUN: process.env.SVC_TEST_RUN ?? '' };
      expect(() => execFileSync('sh', ['-c', 'command -v svc'], { env: shell })).toThrow();
      const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...shell, ...entry.env }, cwd: root });
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('flags_digest');
      // It reached the server named in the entry: acme's flags, none yet.
      const flags = await client.callTool({ name: 'list_flags', arguments: {} });
      expect([flags.isError, JSON.parse((flags.content as { text: string }[])[0]!.text)]).toEqual([undefined, { flags: [] }]);
    } finally {
      await client.close();
      await platform.stop();
    }
  });

  it('needs a workspace: a usage error naming the ways to give one, and no file', async () => {
    const plain = tempDir('svc-init-none-');
    const res = await runSvc(['init'], env, undefined, plain);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--workspace');
    expect(existsSync(join(plain, 'AGENTS.md'))).toBe(false);
  });
});
