import { execFileSync, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EvalResultView, EvalRunDetailView } from '@svc/domain';
import { removeTempDirs, tempDir } from '@svc/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from './run-svc.ts';
import { spawnSvc, svcOnTerminal } from './spawn-svc.ts';

afterAll(() => removeTempDirs());

/** util-linux `script` runs a command on a pseudo-terminal: the CLI sees a TTY as in a developer's shell. */
const hasScript = spawnSync('script', ['--version']).status === 0;

const result = (case_id: string, overrides: Partial<EvalResultView> = {}): EvalResultView => ({
  case_id,
  question: 'Hi',
  agent: 'support',
  verdict: 'pass',
  graded: 'pass',
  flaky: false,
  reasoning: 'It said returns close after 30 days.',
  replay_chat_id: `chat_${case_id}`,
  regression: false,
  baseline: 'pass',
  repeats: { passed: 2, total: 2 },
  override: null,
  judge: 'anthropic:claude-sonnet-4-5',
  tokens: { input: 100, output: 10 },
  ...overrides,
});

/** As the API orders them: regressions, other failures, errors, passes. */
const mixed = [
  result('case_02', {
    question: 'Can I return shoes after 40 days?',
    verdict: 'fail',
    graded: 'fail',
    regression: true,
    repeats: { passed: 0, total: 2 },
    reasoning: 'It promised a\nrefund after 40 days.',
  }),
  result('case_03', {
    question: 'Do I get store credit?',
    verdict: 'fail',
    graded: 'fail',
    flaky: true,
    repeats: { passed: 1, total: 2 },
    reasoning: 'It forgot the store credit.',
  }),
  // A case removed since: no question to name it by.
  result('case_04', {
    question: '',
    verdict: 'error',
    graded: 'error',
    repeats: { passed: 0, total: 2 },
    reasoning: 'openai answered 500 after 4 tries',
  }),
  result('case_01'),
];

/** A run whose results appear one poll at a time, in the order the cases finish (passes first here). */
function runAfter(polls: number, results: EvalResultView[], overrides: Partial<EvalRunDetailView> = {}): EvalRunDetailView {
  const finishOrder = [...results].reverse();
  const shown = new Set(finishOrder.slice(0, polls).map((r) => r.case_id));
  const done = results.filter((r) => shown.has(r.case_id));
  const tally = (verdict: string) => done.filter((r) => r.verdict === verdict).length;
  return {
    id: 'run_07',
    environment: 'feat-refund-flow',
    agent: null,
    version: { id: 'ver_04', number: 4 },
    trigger: 'manual',
    status: done.length === results.length ? 'finished' : 'running',
    repeat: 2,
    min_pass: 2,
    cases: results.length,
    done: done.length,
    passed: tally('pass'),
    failed: tally('fail'),
    errors: tally('error'),
    regressions: done.filter((r) => r.regression).length,
    skipped: 1,
    finished: done.length === results.length,
    grader: 'anthropic:claude-sonnet-4-5',
    agent_models: ['openai:gpt-4.1-mini'],
    tokens: { input: 100 * done.length, output: 10 * done.length },
    created_by: 'ada@example.com',
    created_at: '2026-06-01T12:00:00.000Z',
    finished_at: done.length === results.length ? '2026-06-01T12:03:00.000Z' : null,
    baseline_run_id: 'run_05',
    results: done,
    skipped_cases: [{ case_id: 'case_09', agent: 'billing' }],
    ...overrides,
  };
}

describe('svc eval, against a server answering as the evals API does', () => {
  let server: Server;
  let env: Record<string, string>;
  let started: { body: Record<string, unknown>; polls: number; cancelled: boolean }[];
  let results: EvalResultView[];

  beforeEach(() => {
    started = [];
    results = mixed;
  });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      const reply = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const run = started.at(-1);
      if (req.method === 'POST' && req.url === '/api/developer/v1/acme/evals/runs') {
        const body = JSON.parse(text) as Record<string, unknown>;
        if (body.environment === 'nowhere')
          return reply(404, { error: { code: 'environment_not_found', message: 'no environment "nowhere"' } });
        started.push({ body, polls: 0, cancelled: false });
        return reply(202, runAfter(0, results));
      }
      if (run && req.method === 'GET' && req.url === '/api/developer/v1/acme/evals/runs/run_07') {
        // A run on `stuck` never finishes: only Ctrl-C ends it.
        if (run.body.environment !== 'stuck' && !run.cancelled) run.polls += 1;
        const status = run.cancelled ? { status: 'cancelled' as const, finished: true } : {};
        return reply(200, runAfter(run.polls, results, status));
      }
      if (run && req.method === 'POST' && req.url === '/api/developer/v1/acme/evals/runs/run_07/cancel') {
        run.cancelled = true;
        return reply(200, runAfter(run.polls, results, { status: 'cancelled', finished: true }));
      }
      reply(404, { error: { code: 'not_found', message: `no ${req.method} ${req.url}` } });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    env = { SVC_BASE_URL: url, SVC_TOKEN: 'svc_test', SVC_WORKSPACE: 'acme', XDG_CONFIG_HOME: tempDir() };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('without a terminal: a line per finished case, then regressions, failures and errors first, exit 1', async () => {
    const res = await runSvc(['eval', '--env', 'feat-refund-flow', '--repeat', '2'], env);
    expect(res.code).toBe(1);
    expect(started.map((s) => s.body)).toEqual([{ environment: 'feat-refund-flow', repeat: 2 }]);
    expect(res.stderr).toBe(
      `Replaying 4 cases on feat-refund-flow (v4), 1 skipped: ${env.SVC_BASE_URL}/w/acme/evals/run_07\n` +
        'Ctrl-C cancels the run.\n' +
        '1/4 pass "Hi" (case_01, support)\n' +
        '2/4 error case_04 (support)\n' +
        '3/4 fail "Do I get store credit?" (case_03, support), flaky 1/2\n' +
        '4/4 fail "Can I return shoes after 40 days?" (case_02, support), regression\n',
    );
    expect(res.stdout).toBe(
      [
        'Evals on feat-refund-flow (v4): 1 regression',
        '',
        'Regressions (passed on live, fail here):',
        '  "Can I return shoes after 40 days?" (case_02, support): It promised a refund after 40 days.',
        '',
        'Failures:',
        '  "Do I get store credit?" (case_03, support, flaky 1/2): It forgot the store credit.',
        '',
        'Errors:',
        '  case_04 (support): openai answered 500 after 4 tries',
        '',
        '4 cases: 1 passed, 2 failed (1 flaky), 1 error, 1 regression.',
        'Skipped 1 case of billing: not in v4 on feat-refund-flow.',
        'Graded by judge anthropic:claude-sonnet-4-5.',
        `Report: ${env.SVC_BASE_URL}/w/acme/evals/run_07`,
        `Markdown: ${env.SVC_BASE_URL}/api/developer/v1/acme/evals/runs/run_07.md`,
        '',
      ].join('\n'),
    );
  });

  it('exits 0 when every case passes', async () => {
    results = [result('case_01'), result('case_05')];
    const res = await runSvc(['eval', '--env', 'preview'], env);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toBe('Evals on feat-refund-flow (v4): passed');
    expect(res.stdout).toContain('2 cases: 2 passed, 0 failed, 0 errors, 0 regressions.');
  });

  it('--json prints only the final run object', async () => {
    const res = await runSvc(['eval', '--env', 'preview', '--json'], env);
    expect(res).toMatchObject({ code: 1, stderr: '' });
    expect(JSON.parse(res.stdout)).toEqual(runAfter(4, mixed));
  });

  it.each([
    [['--repeat', '0'], "option '--repeat <n>' argument '0' is invalid. expected a whole number from 1 to 10."],
    [['--repeat', 'two'], "option '--repeat <n>' argument 'two' is invalid"],
    [['--repeat', '2', '--min-pass', '3'], '--min-pass must not exceed --repeat (1 when left out)'],
    [['--min-pass', '2'], '--min-pass must not exceed --repeat'],
    [['--env', 'Feat/X'], '--env: expected an environment name'],
  ])('refuses %j with exit 2, starting nothing', async (args, message) => {
    const res = await runSvc(['eval', ...args], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
    expect(started).toEqual([]);
  });

  it('exits 4 when not signed in', async () => {
    const res = await runSvc(['eval'], { ...env, SVC_TOKEN: '' });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('not signed in');
  });

  it("prints the API's error and exits 1", async () => {
    const res = await runSvc(['eval', '--env', 'nowhere'], env);
    expect(res).toMatchObject({ code: 1, stdout: '', stderr: 'svc: no environment "nowhere" (environment_not_found)\n' });
  });

  it("replays on the current branch's environment, and on preview off a branch", async () => {
    const repo = tempDir('svc-branch-');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    git('init', '-q', '-b', 'feat/Refund-Flow');
    expect((await runSvc(['eval'], env, undefined, repo)).code).toBe(1);
    git('-c', 'user.email=a@example.com', '-c', 'user.name=A', 'commit', '-q', '--allow-empty', '-m', 'x');
    git('checkout', '-q', '--detach');
    expect((await runSvc(['eval'], env, undefined, repo)).code).toBe(1);
    expect((await runSvc(['eval'], env, undefined, tempDir('svc-no-git-'))).code).toBe(1);
    expect(started.map((s) => s.body.environment)).toEqual(['feat-refund-flow', 'preview', 'preview']);
  });

  it.skipIf(!hasScript)('on a terminal: a progress bar of done cases, passes, failures and errors instead of lines', async () => {
    const tty = svcOnTerminal('eval --env preview', { NO_COLOR: '1', ...env });
    expect(await tty.exited).toBe(1);
    const screen = tty.output('stdout');
    expect(screen).toContain('4/4 cases | 1 passed | 2 failed | 1 error');
    expect(screen).toContain('2/4 cases | 1 passed | 0 failed | 1 error');
    expect(screen).not.toContain('pass case_01');
    expect(screen).toContain('Regressions (passed on live, fail here):');
  });

  it('Ctrl-C cancels the run and exits 130', async () => {
    const svc = spawnSvc(['eval', '--env', 'stuck'], env);
    await svc.waitForOutput(/Ctrl-C cancels the run/, { stream: 'stderr' });
    svc.child.kill('SIGINT');
    expect(await svc.exited).toBe(130);
    expect(started[0]?.cancelled).toBe(true);
    expect(svc.output('stderr')).toContain('Cancelled run run_07: 0 of 4 cases done.');
  });
});
