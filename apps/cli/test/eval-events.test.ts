import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';

let platform: TestPlatform;
let token: string;

const agentFiles = (slug: string) => ({
  'svc.yaml': `workspace: ${slug}\n`,
  'agents/sales/agent.yaml':
    'name: Sales\nmodel: scripted\nscripted:\n  rules:\n    - when: "price"\n      reply: "Plans start at 12 USD."\n  fallback: Hello from sales.\n',
  'agents/sales/instructions.md': 'Sell.',
});

/** A workspace with the sales agent on preview and three cases: two pass, one fails. */
async function workspaceWithCases(slug: string): Promise<void> {
  const api = (path: string, json: unknown) => request(`${platform.url}/api/developer/v1/${slug}${path}`, { token, json });
  expect((await request(`${platform.url}/cli/workspaces`, { token, json: { slug } })).status).toBe(201);
  expect((await api('/deployments', { environment: 'preview', files: agentFiles(slug) })).status).toBe(201);
  for (const expected of ['Says "12 USD".', 'Says "12 USD".', 'Says "15 USD".']) {
    expect((await api('/evals/cases', { agent: 'sales', turns: ['what is the price?'], expected })).status).toBe(201);
  }
}

/** A proxy to the gateway that records the requests it passes on; `/events` answers 404, as an older server's, when told. */
async function startProxy({ withoutEvents = false } = {}): Promise<{ url: string; paths: string[]; server: Server }> {
  const target = new URL(platform.url);
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    if (withoutEvents && req.url?.endsWith('/events')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: 'no route' } }));
      return;
    }
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, server };
}

beforeAll(async () => {
  platform = await startPlatform();
  token = await createUserWithToken(platform, 'ada@example.com');
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

const runGets = (paths: string[]) => paths.filter((p) => /^GET \/api\/developer\/v1\/[\w-]+\/evals\/runs\/\w+$/.test(p));

describe("svc eval follows the run's event stream", () => {
  it('shows a line per case from the stream, and reads the run once, for its summary', async () => {
    await workspaceWithCases('follows');
    const proxy = await startProxy();
    try {
      const env = { SVC_BASE_URL: proxy.url, SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir() };
      const res = await runSvc(['eval', '--env', 'preview', '--workspace', 'follows'], env, undefined, tempDir());
      expect(res.code).toBe(1);
      const lines = res.stderr.split('\n').filter((line) => /^\d\/3 /.test(line));
      expect(lines.map((line) => line.slice(0, 4))).toEqual(['1/3 ', '2/3 ', '3/3 ']);
      expect(lines.filter((line) => line.includes(' fail '))).toHaveLength(1);
      expect(res.stdout).toContain('3 cases: 2 passed, 1 failed');
      expect(proxy.paths.filter((p) => p.endsWith('/events'))).toHaveLength(1);
      expect(runGets(proxy.paths)).toHaveLength(1);
    } finally {
      proxy.server.close();
    }
  });

  it('polls the run when the server has no event stream (404), showing the same lines', async () => {
    await workspaceWithCases('polls');
    const proxy = await startProxy({ withoutEvents: true });
    try {
      const env = { SVC_BASE_URL: proxy.url, SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir() };
      const res = await runSvc(['eval', '--env', 'preview', '--workspace', 'polls'], env, undefined, tempDir());
      expect(res.code).toBe(1);
      expect(res.stderr.split('\n').filter((line) => /^\d\/3 /.test(line))).toHaveLength(3);
      expect(res.stdout).toContain('3 cases: 2 passed, 1 failed');
      expect(runGets(proxy.paths).length).toBeGreaterThanOrEqual(1);
    } finally {
      proxy.server.close();
    }
  });
});
