import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FlagView } from '@svc/domain';
import { removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

afterAll(() => removeTempDirs());

/** A GET of `path` as a client would make it: the exact bytes, and the type they were sent as. */
async function download(url: string, token: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('svc flags, against a server answering as the flags API does', () => {
  // Non-ASCII text, a byte order mark a text decoder would drop, backticks, and two final newlines: all must
  // reach stdout and the saved file exactly as sent.
  const digest = Buffer.from('\uFEFF# Flags digest of `acme`\n\n## 2 open flags\n\nCafé — ¿sí? 👍 ````\n\n', 'utf8');
  const capped = Buffer.from('# Flags digest of `acme`, agent `sales`\n\n## 1,203 open flags, the newest 50 below\n', 'utf8');
  const flag = (id: string, note: string | null) => ({ id, status: 'open', note });
  const flags = [flag('flg_1', 'Say 30 days.'), flag('flg_2', null), flag('flg_3', 'Ask for the order number.')];
  // The open flags in two pages, as the API answers them a hundred at a time.
  const pages: Record<string, unknown> = {
    '/api/developer/v1/acme/flags?status=open&limit=100': { flags: flags.slice(0, 2), next_cursor: 'c2' },
    '/api/developer/v1/acme/flags?status=open&limit=100&cursor=c2': { flags: flags.slice(2), next_cursor: null },
  };
  const seen: { path?: string; headers: IncomingHttpHeaders }[] = [];
  let server: Server;
  let env: Record<string, string>;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url, headers: req.headers });
      const page = pages[req.url ?? ''];
      if (req.url === '/api/developer/v1/acme/flags.md' || req.url === '/api/developer/v1/acme/flags.md?agent=sales') {
        res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(req.url.endsWith('sales') ? capped : digest);
      } else if (page) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
      } else {
        const body = { error: { code: 'workspace_not_found', message: 'no workspace "other"' } };
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    env = { SVC_BASE_URL: url, SVC_TOKEN: 'svc_test', SVC_WORKSPACE: 'acme', XDG_CONFIG_HOME: tempDir() };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('prints the digest byte for byte as the server sent it', async () => {
    const res = await runSvc(['flags'], env);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(Buffer.from(res.stdout, 'utf8').equals(digest)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ path: '/api/developer/v1/acme/flags.md', headers: { authorization: 'Bearer svc_test' } });
  });

  it('--save writes the same bytes to flags.md where it was called from, and says where and how many flags', async () => {
    const here = tempDir('svc-flags-');
    const saved = await runSvc(['flags', '--save'], { ...env, INIT_CWD: here }, undefined, tempDir('svc-elsewhere-'));
    expect(saved).toMatchObject({ code: 0, stderr: '' });
    expect(saved.stdout).toBe(`Saved the flags digest of acme (2 open flags) to ${join(here, 'flags.md')}.\n`);
    expect(readFileSync(join(here, 'flags.md')).equals(digest)).toBe(true);

    mkdirSync(join(here, 'docs'));
    const named = await runSvc(['flags', '--save', 'docs/for-agent.md', '--json'], env, undefined, here);
    expect(JSON.parse(named.stdout)).toEqual({ file: join(here, 'docs', 'for-agent.md'), workspace: 'acme', flags: 2, open: 2 });
    expect(readFileSync(join(here, 'docs', 'for-agent.md')).equals(digest)).toBe(true);
  });

  it("--agent asks for one agent's digest; --save says how many of the open flags it shows and how to get the rest", async () => {
    const here = tempDir('svc-flags-');
    const saved = await runSvc(['flags', '--agent', 'sales', '--save'], env, undefined, here);
    expect(saved).toMatchObject({ code: 0, stderr: '' });
    expect(seen.at(-1)?.path).toBe('/api/developer/v1/acme/flags.md?agent=sales');
    expect(saved.stdout).toBe(
      `Saved the flags digest of acme (the newest 50 of 1203 open flags; svc flags --all for every one) to ${join(here, 'flags.md')}.\n`,
    );
    expect(readFileSync(join(here, 'flags.md')).equals(capped)).toBe(true);
  });

  it('--save into a folder that does not exist fails and says why', async () => {
    const here = tempDir('svc-flags-');
    const res = await runSvc(['flags', '--save', 'missing/flags.md'], env, undefined, here);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`svc: cannot write ${join(here, 'missing', 'flags.md')}: its folder does not exist\n`);
  });

  it('--json prints every open flag, page after page', async () => {
    const res = await runSvc(['flags', '--json'], env);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ flags });
  });

  it("answers the server's error, with nothing on stdout", async () => {
    const res = await runSvc(['flags', '--workspace', 'other'], env);
    expect(res).toMatchObject({ code: 1, stdout: '', stderr: 'svc: no workspace "other" (workspace_not_found)\n' });
  });
});

/**
 * Against the real platform: needs the flags API (`POST/GET /api/developer/v1/:workspace/flags`, `GET .../flags.md`).
 * It fails until that API is merged, and proves then that the CLI and the API give the same bytes.
 */
describe('svc flags, against the platform (needs the flags API)', () => {
  const demo = fileURLToPath(new URL('../../../examples/demo', import.meta.url));
  let platform: TestPlatform;
  let token: string;
  let env: Record<string, string>;
  let repo: string;
  const api = (path: string, json?: unknown) => request(`${platform.url}${path}`, { token, json });

  beforeAll(async () => {
    platform = await startPlatform();
    token = await createUserWithToken(platform, 'ada@example.com');
    await api('/cli/workspaces', { slug: 'demo' });
    repo = tempDir('svc-repo-');
    cpSync(demo, repo, { recursive: true });
    env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir() };
    expect((await runSvc(['push', '--env', 'preview'], env, undefined, repo)).code).toBe(0);

    const chat = (await api('/api/v1/demo/chats', { agent: 'support', environment: 'preview' })).body;
    const say = async (text: string) => (await api(`/api/v1/demo/chats/${chat.chat_id}/messages`, { text })).body.message_id as string;
    const refund = await say('¿Puedo pedir un refund después de 40 días? ```');
    const shipping = await say('How long does shipping take?');
    const flagged = await api('/api/developer/v1/demo/flags', { message_id: refund, note: 'Solo 30 días: say `30 days` — 👍' });
    expect(flagged.status).toBe(201);
    expect((await api('/api/developer/v1/demo/flags', { message_id: shipping })).status).toBe(201);
  });
  afterAll(() => platform.stop());

  it('svc flags prints exactly the bytes of GET flags.md', async () => {
    const served = await download(`${platform.url}/api/developer/v1/demo/flags.md`, token);
    expect(served).toMatchObject({ status: 200, type: 'text/markdown; charset=utf-8' });
    expect(served.bytes.toString('utf8')).toContain('Solo 30 días');
    const res = await runSvc(['flags'], env, undefined, repo);
    expect(res.code).toBe(0);
    expect(Buffer.from(res.stdout, 'utf8').equals(served.bytes)).toBe(true);
  });

  it('--save writes those bytes and counts the one flag with a note', async () => {
    const served = await download(`${platform.url}/api/developer/v1/demo/flags.md`, token);
    const res = await runSvc(['flags', '--save'], env, undefined, repo);
    expect(res.stdout).toBe(`Saved the flags digest of demo (1 open flag) to ${join(repo, 'flags.md')}.\n`);
    expect(readFileSync(join(repo, 'flags.md')).equals(served.bytes)).toBe(true);
  });

  it('--all renders every open flag as the server renders its digest; --agent keeps one agent', async () => {
    const served = await download(`${platform.url}/api/developer/v1/demo/flags.md`, token);
    const all = await runSvc(['flags', '--all'], env, undefined, repo);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    // One flag with a note: nothing is left out, so every one is the server's digest, byte for byte.
    expect(Buffer.from(all.stdout, 'utf8').equals(served.bytes)).toBe(true);
    const support = await download(`${platform.url}/api/developer/v1/demo/flags.md?agent=support`, token);
    expect((await runSvc(['flags', '--agent', 'support'], env, undefined, repo)).stdout).toBe(support.bytes.toString('utf8'));
    expect((await runSvc(['flags', '--all', '--agent', 'support'], env, undefined, repo)).stdout).toBe(support.bytes.toString('utf8'));
    const none = await runSvc(['flags', '--all', '--agent', 'sales', '--save'], env, undefined, repo);
    expect(none.stdout).toBe(`Saved the flags digest of demo (no open flags with a note) to ${join(repo, 'flags.md')}.\n`);
    expect(readFileSync(join(repo, 'flags.md'), 'utf8')).toBe(
      '# Flags digest of `demo`, agent `sales`\n\nNo open flags with a note: nothing to fix.\n',
    );
  });

  it('--json prints the list of GET flags', async () => {
    const served = (await api('/api/developer/v1/demo/flags')).body as { flags: FlagView[] };
    const res = await runSvc(['flags', '--json'], env, undefined, repo);
    expect(JSON.parse(res.stdout)).toEqual({ flags: served.flags });
    expect(served.flags.map((f) => f.note).sort()).toEqual(['Solo 30 días: say `30 days` — 👍', null]);
  });
});
