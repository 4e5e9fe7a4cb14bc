import { startFakeProvider } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { orderAgent } from '../agents/order-agent.ts';
import { atOnce } from '../at-once.ts';
import { startHeldBackend } from './held-backend.ts';
import { evalsWorkspace, salesAgent } from './setup.ts';

let platform: TestPlatform;
beforeAll(async () => {
  // Replays call backends on 127.0.0.1, as a developer's own backend in local mode.
  platform = await startPlatform({ toolEgress: { allowPrivateNetworks: true } });
});
afterAll(() => platform.stop());

interface Result {
  case_id: string;
  verdict: string;
  regression: boolean;
}
/** The support agent asking the customer's backend about an order: `Order <id> is <status>.` */
const orderFiles = (slug: string, url: string) => ({ ...orderAgent({ url }), 'svc.yaml': `workspace: ${slug}\n` });

const verdicts = (results: Result[]) => results.map((r) => [r.case_id, r.verdict, r.regression]);

describe('a run', () => {
  it('finishes with its counts; failures, errors and passes in that order, each with reasoning and a replay chat', async () => {
    const ws = await evalsWorkspace(platform, 'run-counts');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'run-counts' }));
    const passing = await ws.addCase(['hi', 'what is the price?'], 'Says "12 USD".');
    const failing = await ws.addCase(['what is the price?'], 'Says "15 USD".');
    const erring = await ws.addCase(['what is the price?'], 'Says the price.');
    const run = await ws.run();
    expect(run.body).toMatchObject({
      status: 'finished',
      finished: true,
      cases: 3,
      done: 3,
      passed: 1,
      failed: 1,
      errors: 1,
      regressions: 0,
      grader: 'deterministic',
      baseline_run_id: null,
      finished_at: expect.any(String),
    });
    expect(verdicts(run.body.results)).toEqual([
      [failing, 'fail', false],
      [erring, 'error', false],
      [passing, 'pass', false],
    ]);
    const [failed, errored] = run.body.results;
    expect(failed.reasoning).toContain('15 USD');
    expect(errored.reasoning).toBe('needs a quoted phrase or a judge model');
    expect(failed.repeats).toEqual({ passed: 0, total: 1 });
    expect(failed.override).toBeNull();

    // The replay is a chat of its own, the visitor's turns answered on the pinned version, and never in the inbox.
    const replay = await ws.api(`/chats/${run.body.results[2].replay_chat_id}`);
    expect(replay.status).toBe(200);
    expect(replay.body.messages.map((m: { text: string }) => m.text)).toEqual([
      'hi',
      'Hello from sales.',
      'what is the price?',
      'Plans start at 12 USD.',
    ]);
    expect((await ws.api('/chats')).body.chats).toEqual([]);

    const list = await ws.evals('/runs?environment=preview');
    expect(list.body.runs.map((r: { id: string }) => r.id)).toEqual([run.body.id]);
    const report = await ws.evals(`/runs/${run.body.id}.md`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(report.body).toContain('15 USD');
  });

  it('serves a report in which text quoted from a case pings nobody and links nowhere on GitHub', async () => {
    const ws = await evalsWorkspace(platform, 'run-inert');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'run-inert' }));
    // The deterministic grader quotes the phrase it missed: a mention, a team and a link, written by whoever wrote the case.
    await ws.addCase(['hello'], 'Says "@octo-org/security-team see https://evil.example/phish".');
    const run = await ws.run();
    const report = (await ws.evals(`/runs/${run.body.id}.md`)).body as string;
    // Its finding is running text (the expected outcome below it is a code block, where GitHub links nothing).
    const finding = report.split('\n').find((line) => line.startsWith('**Deterministic grader:**'));
    expect(finding).toContain('@\u200bocto-org/security-team see https:\u200b//evil.example/phish');
    expect(finding).not.toMatch(/@(?!\u200b)\w|https:\/\/evil/);
  });

  it('against a live baseline marks the cases that passed there and fail here as regressions, first', async () => {
    const ws = await evalsWorkspace(platform, 'run-regress');
    await ws.deploy('live', salesAgent('Plans start at 12 USD.', { slug: 'run-regress' }));
    const kept = await ws.addCase(['hello'], 'Says "hello".');
    const broken = await ws.addCase(['what is the price?'], 'Says "12 USD".');
    const neverPassed = await ws.addCase(['what is the price?'], 'Says "20 USD".');
    const live = await ws.run({ environment: 'live' });
    expect(live.body).toMatchObject({ passed: 2, failed: 1, regressions: 0, baseline_run_id: null });

    await ws.deploy('preview', salesAgent('Plans start at 14 USD.', { slug: 'run-regress', fallback: 'Why hello there.' }));
    const preview = await ws.run();
    expect(preview.body).toMatchObject({ baseline_run_id: live.body.id, passed: 1, failed: 2, regressions: 1 });
    expect(verdicts(preview.body.results)).toEqual([
      [broken, 'fail', true],
      [neverPassed, 'fail', false],
      [kept, 'pass', false],
    ]);
    expect(preview.body.results.map((r: { baseline: string }) => r.baseline)).toEqual(['pass', 'fail', 'pass']);
  });

  it('with repeat replays each case N times, passing those with at least min_pass passing replays', async () => {
    const ws = await evalsWorkspace(platform, 'run-repeat');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'run-repeat' }));
    const passing = await ws.addCase(['what is the price?'], 'Says "12 USD".');
    const failing = await ws.addCase(['what is the price?'], 'Says "15 USD".');
    const run = await ws.run({ repeat: 3, min_pass: 2 });
    expect(run.body).toMatchObject({ repeat: 3, min_pass: 2, cases: 2, passed: 1, failed: 1 });
    const byCase = new Map(run.body.results.map((r: Result) => [r.case_id, r]));
    expect(byCase.get(passing)).toMatchObject({ verdict: 'pass', flaky: false, repeats: { passed: 3, total: 3 } });
    expect(byCase.get(failing)).toMatchObject({ verdict: 'fail', flaky: false, repeats: { passed: 0, total: 3 } });
  });

  it('is cancelled once: of two cancels at once one answers the cancelled run, the other 409 run_finished', async () => {
    const backend = await startHeldBackend();
    try {
      const ws = await evalsWorkspace(platform, 'run-cancel');
      await ws.deploy('preview', orderFiles('run-cancel', backend.url));
      const held = await ws.addCase(['where is order A-1?'], 'Says "shipped".', 'support');
      const greeted = await ws.addCase(['hello'], 'Says "hello".', 'support');
      const started = await ws.evals('/runs', { json: {} });
      expect(started.status).toBe(202);
      await backend.held(1);
      // The greeting's replay needs no backend: once it is done, only the held replay is still going.
      await vi.waitFor(async () => expect((await ws.evals(`/runs/${started.body.id}`)).body.done).toBe(1), { timeout: 30_000 });
      const pending = await ws.evals(`/runs/${started.body.id}/results/${held}/override`, { method: 'PUT', json: { verdict: 'pass' } });
      expect(pending.status).toBe(409);
      expect(pending.body.error.code).toBe('result_pending');

      const cancel = () => ws.evals(`/runs/${started.body.id}/cancel`, { method: 'POST' });
      const answers = await atOnce(platform.url, 2, cancel);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 200)!.body).toMatchObject({ status: 'cancelled', finished: true, cases: 2, done: 1 });
      expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('run_finished');

      const run = await ws.evals(`/runs/${started.body.id}`);
      expect(run.body).toMatchObject({ status: 'cancelled', done: 1, passed: 1 });
      expect(run.body.results.map((r: Result) => r.case_id)).toEqual([greeted]);
      expect((await cancel()).body.error.code).toBe('run_finished');
    } finally {
      await backend.close();
    }
  });

  it('with repeat and min_pass counts a case passing fewer replays than min_pass as flaky and failed, k/N', async () => {
    // The backend answers shipped and lost in turn: half of the replays say what the case expects.
    let asked = 0;
    const backend = await startFakeProvider(() => ({ status: 200, body: { status: asked++ % 2 === 0 ? 'shipped' : 'lost' } }));
    try {
      const ws = await evalsWorkspace(platform, 'run-flaky');
      await ws.deploy('preview', orderFiles('run-flaky', backend.url));
      const flaky = await ws.addCase(['where is order A-1?'], 'Says "shipped".', 'support');
      const steady = await ws.addCase(['hello'], 'Says "hello".', 'support');
      const strict = await ws.run({ repeat: 4, min_pass: 3 });
      expect(strict.body).toMatchObject({ cases: 2, passed: 1, failed: 1, regressions: 0 });
      expect(strict.body.results[0]).toMatchObject({ case_id: flaky, verdict: 'fail', flaky: true, repeats: { passed: 2, total: 4 } });
      expect(strict.body.results[1]).toMatchObject({ case_id: steady, verdict: 'pass', repeats: { passed: 4, total: 4 } });
      const report = await ws.evals(`/runs/${strict.body.id}.md`);
      expect(report.body).toContain('2/4');

      const lenient = await ws.run({ repeat: 4, min_pass: 2 });
      expect(lenient.body).toMatchObject({ passed: 2, failed: 0 });
      expect(lenient.body.results.find((r: Result) => r.case_id === flaky)).toMatchObject({ verdict: 'pass', flaky: false });
    } finally {
      await backend.close();
    }
  });
});

describe('overrides', () => {
  it("replace the grader's verdict, show who and when, and every count and regression follows; null gives the grader's back", async () => {
    const ws = await evalsWorkspace(platform, 'run-override');
    await ws.deploy('live', salesAgent('Plans start at 12 USD.', { slug: 'run-override' }));
    const priced = await ws.addCase(['what is the price?'], 'Says "12 USD".');
    const live = await ws.run({ environment: 'live' });
    expect(live.body).toMatchObject({ passed: 1, failed: 0 });
    await ws.deploy('preview', salesAgent('Plans start at 14 USD.', { slug: 'run-override' }));
    const preview = await ws.run();
    expect(preview.body).toMatchObject({ failed: 1, regressions: 1 });

    const supervisor = await ws.member('supervisor');
    const override = (verdict: string | null, token = supervisor) =>
      ws.evals(`/runs/${preview.body.id}/results/${priced}/override`, { method: 'PUT', token, json: { verdict } });
    const passed = await override('pass');
    expect(passed.status).toBe(200);
    expect(passed.body).toMatchObject({
      verdict: 'pass',
      graded: 'fail',
      regression: false,
      override: { verdict: 'pass', by: 'supervisor@run-override.example', at: expect.any(String) },
    });
    expect((await ws.evals(`/runs/${preview.body.id}`)).body).toMatchObject({ passed: 1, failed: 0, regressions: 0 });

    const cleared = await override(null);
    expect(cleared.body).toMatchObject({ verdict: 'fail', regression: true, override: null });
    expect((await ws.evals(`/runs/${preview.body.id}`)).body).toMatchObject({ passed: 0, failed: 1, regressions: 1 });

    // The live run is the baseline: overriding it to fail means the preview run's failure is no regression any more.
    await ws.evals(`/runs/${live.body.id}/results/${priced}/override`, { method: 'PUT', json: { verdict: 'fail' } });
    expect((await ws.evals(`/runs/${preview.body.id}`)).body).toMatchObject({ failed: 1, regressions: 0 });

    expect(
      (await ws.evals(`/runs/${preview.body.id}/results/case_nope/override`, { method: 'PUT', json: { verdict: 'pass' } })).body.error.code,
    ).toBe('eval_case_not_found');
    expect((await override('maybe')).status).toBe(400);
  });
});

describe('overrides at once', () => {
  it('two people setting pass and fail together: the result shows one of them, and the counts agree with it', async () => {
    const ws = await evalsWorkspace(platform, 'run-overrides');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'run-overrides' }));
    const caseId = await ws.addCase(['what is the price?'], 'Says "15 USD".');
    const run = await ws.run();
    const supervisor = await ws.member('supervisor');
    const path = `/runs/${run.body.id}/results/${caseId}/override`;
    const answers = await atOnce(platform.url, 2, (i) =>
      ws.evals(path, { method: 'PUT', token: i === 0 ? ws.token : supervisor, json: { verdict: i === 0 ? 'pass' : 'fail' } }),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const after = (await ws.evals(`/runs/${run.body.id}`)).body;
    const [result] = after.results;
    expect([
      { verdict: 'pass', by: 'owner@run-overrides.example' },
      { verdict: 'fail', by: 'supervisor@run-overrides.example' },
    ]).toContainEqual({ verdict: result.override.verdict, by: result.override.by });
    expect(result.verdict).toBe(result.override.verdict);
    expect({ passed: after.passed, failed: after.failed }).toEqual(
      result.verdict === 'pass' ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 },
    );
  });
});

describe('live runs and flags', () => {
  it('a publish starts a run on live whose pass fixes the flag with the version it ran; an override to fail reopens it', async () => {
    const ws = await evalsWorkspace(platform, 'run-flags');
    await ws.deploy('preview', salesAgent('Plans start at 10 USD.', { slug: 'run-flags' }));
    const first = await ws.api('/publish', { json: {} });
    expect(first.body.eval_run_id).toBeNull();
    const { replyId } = await ws.say('what is the price?');
    const flag = await ws.api('/flags', { json: { message_id: replyId, note: 'Say "12 USD".' } });
    expect(flag.status).toBe(201);

    // A live run in which the flag's case fails leaves it open.
    const failing = await ws.run({ environment: 'live' });
    expect(failing.body).toMatchObject({ failed: 1 });
    expect((await ws.api(`/flags/${flag.body.id}`)).body.status).toBe('open');

    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'run-flags' }));
    const published = await ws.api('/publish', { json: {} });
    expect(published.status).toBe(200);
    expect(published.body.eval_run_id).toEqual(expect.any(String));
    const run = await ws.finished(published.body.eval_run_id);
    expect(run.body).toMatchObject({ environment: 'live', trigger: 'publish', created_by: 'svc', passed: 1, version: { number: 2 } });
    // Read as soon as the run reads finished: its fix was written with its finish.
    const fixed = await ws.api(`/flags/${flag.body.id}`);
    expect(fixed.body).toMatchObject({ status: 'fixed', fixed_by_version: run.body.version });
    expect(fixed.body.history.at(-1)).toMatchObject({ actor: 'svc', from_status: 'open', to_status: 'fixed' });

    const caseId = flag.body.eval_case_id;
    const override = (verdict: string) => ws.evals(`/runs/${run.body.id}/results/${caseId}/override`, { method: 'PUT', json: { verdict } });
    expect((await override('fail')).status).toBe(200);
    const reopened = await ws.api(`/flags/${flag.body.id}`);
    expect(reopened.body).toMatchObject({ status: 'open', fixed_by_version: null });
    expect(reopened.body.history.at(-1)).toMatchObject({ actor: 'owner@run-flags.example', to_status: 'open' });
    expect((await override('pass')).status).toBe(200);
    expect((await ws.api(`/flags/${flag.body.id}`)).body).toMatchObject({ status: 'fixed', fixed_by_version: run.body.version });

    // A run on preview that passes fixes nothing: only live runs do.
    const other = await ws.say('what is the price now?');
    const second = await ws.api('/flags', { json: { message_id: other.replyId, note: 'Say "12 USD".' } });
    await ws.run();
    expect((await ws.api(`/flags/${second.body.id}`)).body.status).toBe('open');
  });
});
