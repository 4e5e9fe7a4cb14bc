import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvalRunDetailView } from '@svc/domain';
import { removeTempDirs, request, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { runSvc } from './run-svc.ts';
import { spawnSvc } from './spawn-svc.ts';

const demo = fileURLToPath(new URL('../../../examples/demo', import.meta.url));

let platform: TestPlatform;
let token: string;
let env: Record<string, string>;
let repo: string;
const cases: Record<string, string> = {};

const api = (path: string, init: { json?: unknown; method?: string } = {}) =>
  request(`${platform.url}/api/developer/v1/demo${path}`, { token, ...init });
const run = async (id: string) => (await api(`/evals/runs/${id}`)).body as EvalRunDetailView;
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' }).toString().trim();
const svc = (args: string[], input?: string) => runSvc(args, env, input, repo);

async function addCase(name: string, turns: string[], expected: string): Promise<void> {
  const created = await api('/evals/cases', { json: { agent: 'support', turns, expected } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  cases[name] = created.body.id;
}

beforeAll(async () => {
  // The demo's order tool calls a backend on 127.0.0.1 in the Ctrl-C test.
  platform = await startPlatform({ toolEgress: { allowPrivateNetworks: true } });
  token = await createUserWithToken(platform, 'ada@example.com');
  env = { SVC_BASE_URL: platform.url, SVC_TOKEN: token, XDG_CONFIG_HOME: tempDir() };
  expect((await runSvc(['workspaces', 'create', 'demo'], env)).code).toBe(0);
  // A customer's repository on a feature branch, whose agent is live as v1.
  repo = tempDir('svc-repo-');
  cpSync(demo, repo, { recursive: true });
  git('init', '-q', '-b', 'feat/Refund-Flow');
  expect((await svc(['push', '--env', 'preview'])).code).toBe(0);
  expect((await svc(['publish'])).code).toBe(0);
  await addCase('greeting', ['hello'], 'Offers to "explain returns and shipping".');
  await addCase('returns', ['Hi!', 'Can I return my shoes?'], 'Says returns are accepted "within 30 days".');
  await addCase(
    'vague',
    ['Hello there, I have a question about\nan order I placed last week and it still has not arrived.'],
    'Is friendly.',
  );
});
afterAll(async () => {
  await platform.stop();
  removeTempDirs();
});

/** A case is named by its first visitor turn, on one line and cut short. */
const vague = '"Hello there, I have a question about an order I placed last week and it…"';

describe('svc eval against the platform (deterministic grader, the scripted demo agent)', () => {
  let liveRun: string;

  it('on live: a line per finished case, the error in the summary, the counts and the grader, exit 1', async () => {
    const res = await svc(['eval', '--env', 'live']);
    expect(res.code).toBe(1);
    const id = /\/w\/demo\/evals\/(\w+)\n/.exec(res.stderr)?.[1] ?? '';
    liveRun = id;
    // Each case once, as it finished, numbered in that order.
    const lines = res.stderr.split('\n').filter((line) => /^\d\/3 /.test(line));
    expect(lines.map((line) => line.slice(0, 4))).toEqual(['1/3 ', '2/3 ', '3/3 ']);
    expect(lines.map((line) => line.slice(4)).sort()).toEqual(
      [
        `pass "hello" (${cases.greeting}, support)`,
        `pass "Hi!" (${cases.returns}, support)`,
        `error ${vague} (${cases.vague}, support)`,
      ].sort(),
    );
    expect(res.stdout).toBe(
      [
        'Evals on live (v1): failed',
        '',
        'Errors:',
        `  ${vague} (${cases.vague}, support): needs a quoted phrase or a judge model`,
        '',
        '3 cases: 2 passed, 0 failed, 1 error, 0 regressions.',
        'Graded by the deterministic grader (no judge model is configured): each phrase in double quotes in the expected outcome must appear in the last reply.',
        `Report: ${platform.url}/w/demo/evals/${id}`,
        `Markdown: ${platform.url}/api/developer/v1/demo/evals/runs/${id}.md`,
        '',
      ].join('\n'),
    );
    expect(await run(id)).toMatchObject({ environment: 'live', status: 'finished', errors: 1, passed: 2 });
  });

  it("on the branch's environment by default: a case that passed on live and fails here comes first, as a regression", async () => {
    const agentYaml = join(repo, 'agents/support/agent.yaml');
    writeFileSync(agentYaml, readFileSync(agentYaml, 'utf8').replace(/^ {2}fallback: .*$/m, '  fallback: "Ask me about your orders."'));
    expect((await svc(['push'])).stdout).toContain('deployed to feat-refund-flow');
    const res = await svc(['eval']);
    expect(res.code).toBe(1);
    const id = /\/w\/demo\/evals\/(\w+)\n/.exec(res.stderr)?.[1] ?? '';
    const detail = await run(id);
    expect(detail).toMatchObject({ environment: 'feat-refund-flow', version: { number: 2 }, baseline_run_id: liveRun, regressions: 1 });
    const regression = detail.results.find((r) => r.case_id === cases.greeting);
    expect(regression?.reasoning).toContain('explain returns and shipping');
    expect(res.stdout.split('\n').slice(0, 8)).toEqual([
      'Evals on feat-refund-flow (v2): 1 regression',
      '',
      'Regressions (passed on live, fail here):',
      `  "hello" (${cases.greeting}, support): ${regression?.reasoning}`,
      '',
      'Errors:',
      `  ${vague} (${cases.vague}, support): needs a quoted phrase or a judge model`,
      '',
    ]);
    expect(res.stdout).toContain('3 cases: 1 passed, 1 failed, 1 error, 1 regression.');
    // The markdown link is the run's report.
    const markdown = /^Markdown: (.+)$/m.exec(res.stdout)?.[1] ?? '';
    const report = await request(markdown, { token });
    expect(report.body).toMatch(/^# Evals of `demo` on `feat-refund-flow`, v2: 1 regression\n/);
  });

  it('--json prints only the final run object, as GET of the run answers it', async () => {
    const res = await svc(['eval', '--json']);
    expect(res).toMatchObject({ code: 1, stderr: '' });
    const printed = JSON.parse(res.stdout) as EvalRunDetailView;
    expect(printed).toMatchObject({ environment: 'feat-refund-flow', finished: true, cases: 3, regressions: 1 });
    expect(printed).toEqual(await run(printed.id));
  });

  it('exits 0 when every case passes', async () => {
    expect((await api(`/evals/cases/${cases.vague}`, { method: 'DELETE' })).status).toBe(204);
    const res = await svc(['eval', '--env', 'live']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Evals on live \(v1\): passed\n\n2 cases: 2 passed, 0 failed, 0 errors, 0 regressions\.\n/);
  });

  it('Ctrl-C cancels the run on the server and exits 130', async () => {
    const backend = await startHeldBackend();
    try {
      const secrets = { BACKEND_URL: backend.url, BACKEND_TOKEN: 'tok' };
      for (const [name, value] of Object.entries(secrets)) {
        expect((await svc(['secrets', 'set', name, '--env', 'live'], `${value}\n`)).code).toBe(0);
      }
      await addCase('order', ['Where is my order A-1001?'], 'Says it is "shipped".');
      const running = spawnSvc(['eval', '--env', 'live', '--workspace', 'demo'], env);
      const [, id] = await running.waitForOutput(/\/w\/demo\/evals\/(\w+)\n/, { stream: 'stderr' });
      // The order case's replay is waiting on the backend: the run cannot finish before the Ctrl-C.
      await backend.held();
      running.child.kill('SIGINT');
      expect(await running.exited).toBe(130);
      expect(running.output('stderr')).toMatch(/Cancelled run \w+: [0-2] of 3 cases done\./);
      expect(await run(id ?? '')).toMatchObject({ status: 'cancelled', finished: true });
    } finally {
      await backend.close();
    }
  });

  it('refuses bad options with exit 2 and starts nothing; an unknown environment exits 1, a rejected token 4', async () => {
    const before = (await api('/evals/runs')).body.runs.length;
    const usage = await svc(['eval', '--repeat', '2', '--min-pass', '3']);
    expect(usage).toMatchObject({ code: 2, stdout: '' });
    expect(usage.stderr).toContain('--min-pass must not exceed --repeat');
    expect((await svc(['eval', '--repeat', '11'])).code).toBe(2);
    expect((await api('/evals/runs')).body.runs.length).toBe(before);

    const unknown = await svc(['eval', '--env', 'nowhere']);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/^svc: .*nowhere.* \(environment_not_found\)\n$/);
    const rejected = await runSvc(['eval'], { ...env, SVC_TOKEN: 'svc_not_a_token' }, undefined, repo);
    expect(rejected.code).toBe(4);
  });
});

/** A customer's backend that holds every request until closed, so a replay that calls it stays in progress. */
async function startHeldBackend() {
  const waiting: ServerResponse[] = [];
  let arrived: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer((req, res) => {
    req.resume();
    waiting.push(res);
    arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => first,
    async close() {
      for (const res of waiting) res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"shipped"}');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
