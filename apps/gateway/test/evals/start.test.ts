import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { evalsWorkspace, salesAgent } from './setup.ts';

let platform: TestPlatform;
/** A platform whose only judge is of the OpenAI family. */
let judged: TestPlatform;
beforeAll(async () => {
  [platform, judged] = await Promise.all([startPlatform(), startPlatform({ evals: { judges: ['openai:gpt-4.1-mini'] } })]);
});
afterAll(async () => {
  await Promise.all([platform.stop(), judged.stop()]);
});

const refusal = (status: number, code: string) => ({ status, body: { error: expect.objectContaining({ code }) } });

describe('starting a run', () => {
  it('refuses an unknown environment, one with nothing deployed, an agent the version lacks, and a workspace without cases', async () => {
    const ws = await evalsWorkspace(platform, 'start-errors');
    const start = (json: object) => ws.evals('/runs', { json });
    expect(await start({})).toMatchObject(refusal(404, 'nothing_deployed'));
    expect(await start({ environment: 'live' })).toMatchObject(refusal(404, 'nothing_deployed'));
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'start-errors' }));
    expect(await start({ environment: 'feat-nowhere' })).toMatchObject(refusal(404, 'environment_not_found'));
    expect(await start({ agent: 'billing' })).toMatchObject(refusal(404, 'agent_not_found'));
    expect(await start({})).toMatchObject(refusal(422, 'no_eval_cases'));
    await ws.addCase(['hello'], 'Greets "hello".', 'billing');
    // Cases only of agents the version lacks: nothing would run.
    expect(await start({})).toMatchObject(refusal(422, 'no_eval_cases'));
    expect(await start({ repeat: 2, min_pass: 3 })).toMatchObject(refusal(400, 'invalid_request'));
    expect(await start({ repeat: 11 })).toMatchObject(refusal(400, 'invalid_request'));
    expect((await ws.evals('/runs')).body.runs).toEqual([]);

    await ws.addCase(['what is the price?'], 'Says "12 USD".');
    const started = await start({});
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      environment: 'preview',
      agent: null,
      version: { number: 1 },
      trigger: 'manual',
      repeat: 1,
      min_pass: 1,
      cases: 1,
      done: 0,
      passed: 0,
      failed: 0,
      errors: 0,
      regressions: 0,
      skipped: 1,
      grader: 'deterministic',
      agent_models: ['scripted'],
      created_by: 'owner@start-errors.example',
    });
    expect((await ws.evals(`/runs/${started.body.id}`)).body.skipped_cases).toEqual([{ case_id: expect.any(String), agent: 'billing' }]);
  });

  it('refuses with judge_family_conflict, naming the model and the judges, when every judge is of the agent’s family', async () => {
    const ws = await evalsWorkspace(judged, 'start-judge');
    const files = {
      'svc.yaml': 'workspace: start-judge\n',
      'agents/sales/agent.yaml': 'name: Sales\nmodel: openai:gpt-4.1\n',
      'agents/sales/instructions.md': 'Sell.',
    };
    await ws.deploy('preview', files);
    await ws.addCase(['what is the price?'], 'Says the price.');
    const refused = await ws.evals('/runs', { json: {} });
    expect(refused).toMatchObject(refusal(409, 'judge_family_conflict'));
    expect(refused.body).toMatchObject({ agent_model: 'openai:gpt-4.1', judges: ['openai:gpt-4.1-mini'] });

    // A scripted agent is of no family the judge shares: it gets the judge.
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'start-judge' }));
    const started = await ws.evals('/runs', { json: {} });
    expect(started.status).toBe(202);
    expect(started.body.grader).toBe('openai:gpt-4.1-mini');
  });
});
