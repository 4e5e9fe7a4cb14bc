import type { AppRouter } from '@svc/core-client';
import { internalTokenHeader } from '@svc/server-kit';
import { chatCompletion, type FakeProvider, scrapeMetrics, startFakeProvider } from '@svc/testkit';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { evalsWorkspace, salesAgent } from '../evals/setup.ts';
import { fakeClock } from '../phone-verification/setup.ts';

describe('an eval run and a live chat', () => {
  let platform: TestPlatform;
  let judgeModel: FakeProvider;
  beforeAll(async () => {
    // The judge passes a replay unless the case expects 15 USD.
    judgeModel = await startFakeProvider((req) =>
      chatCompletion(
        req.body.includes('15 USD')
          ? '{"verdict":"fail","reasoning":"It said 12 USD."}'
          : '{"verdict":"pass","reasoning":"It said 12 USD."}',
      ),
    );
    platform = await startPlatform({
      metrics: true,
      evals: { judges: ['openai:gpt-4.1-mini'] },
      models: { openai: { baseURL: `${judgeModel.url}/v1`, apiKey: 'sk-judge' } },
    });
  });
  afterAll(async () => {
    await platform.stop();
    await judgeModel.close();
  });

  it("count the executions finished by verdict in core, and the agent's and the judge's model calls where they ran", async () => {
    const ws = await evalsWorkspace(platform, 'metrics-evals');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'metrics-evals' }));
    await ws.addCase(['what is the price?'], 'Says "12 USD".');
    await ws.addCase(['what is the price?'], 'Says "15 USD".');
    expect((await ws.run()).body).toMatchObject({ passed: 1, failed: 1 });

    const core = await scrapeMetrics(platform.metricsUrls!.core);
    expect(core.value('svc_eval_executions_finished_total', { verdict: 'pass' })).toBe(1);
    expect(core.value('svc_eval_executions_finished_total', { verdict: 'fail' })).toBe(1);
    expect(core.value('svc_eval_executions', { state: 'queued' })).toBe(0);
    expect(core.value('svc_eval_executions', { state: 'leased' })).toBe(0);
    expect(core.value('svc_eval_lease_expiries_total')).toBe(0);
    // Replays' turns and their grading run in the runner.
    const runner = await scrapeMetrics(platform.metricsUrls!.evalRunner!);
    const calls = (labels: Record<string, string>) => runner.value('svc_model_call_duration_seconds_count', labels);
    expect(calls({ provider: 'scripted', purpose: 'agent', outcome: 'ok' })).toBe(2);
    expect(calls({ provider: 'openai', purpose: 'judge', outcome: 'ok' })).toBe(2);
    expect(runner.text).not.toContain('gpt-4.1-mini');

    // A live chat's turn runs in core.
    await ws.deploy('live', salesAgent('Plans start at 12 USD.', { slug: 'metrics-evals' }));
    await ws.say('what is the price?');
    const live = await scrapeMetrics(platform.metricsUrls!.core);
    expect(live.value('svc_model_call_duration_seconds_count', { provider: 'scripted', purpose: 'agent', outcome: 'ok' })).toBe(1);
  });
});

describe('a lease that expires', () => {
  const clock = fakeClock();
  let platform: TestPlatform;
  beforeAll(async () => {
    // No runner in this process: the test leases as runners do, and moves core's clock past their leases' 60 s.
    platform = await startPlatform({ metrics: true, evalConcurrency: 0, clock: clock.now });
  });
  afterAll(() => platform.stop());

  const lease = (runner: string) =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${platform.core.url}/trpc`, headers: { [internalTokenHeader]: platform.internalToken } })],
    }).evalWork.lease.mutate({ runner, max: 8, wait_ms: 0 });
  const executions = async () => {
    const core = await scrapeMetrics(platform.metricsUrls!.core);
    return {
      queued: core.value('svc_eval_executions', { state: 'queued' }),
      leased: core.value('svc_eval_executions', { state: 'leased' }),
      expiries: core.value('svc_eval_lease_expiries_total'),
    };
  };

  it('counts the execution leased again once the runner that held it let its lease expire', async () => {
    const ws = await evalsWorkspace(platform, 'metrics-leases');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'metrics-leases' }));
    await ws.addCase(['what is the price?'], 'Says "12 USD".');
    await ws.addCase(['hello'], 'Says "hello".');
    await ws.start();
    expect(await executions()).toEqual({ queued: 2, leased: 0, expiries: 0 });

    expect((await lease('runner-a')).executions).toHaveLength(2);
    expect(await executions()).toEqual({ queued: 0, leased: 2, expiries: 0 });
    // Runner a never renews: once its leases end, what they held waits again, and runner b gets both.
    clock.advance(61);
    expect(await executions()).toEqual({ queued: 2, leased: 0, expiries: 0 });
    expect((await lease('runner-b')).executions).toHaveLength(2);
    expect(await executions()).toEqual({ queued: 0, leased: 2, expiries: 2 });
  });
});
