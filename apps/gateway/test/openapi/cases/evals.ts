import { setTimeout as sleep } from 'node:timers/promises';
import type { JsonResponse } from '@svc/testkit';
import { expect } from 'vitest';
import { createUserWithToken, startPlatform } from '../../platform.ts';
import { orderAgent } from '../../agents/order-agent.ts';
import { startHeldBackend } from '../../evals/held-backend.ts';
import type { OperationCases, World } from '../world.ts';

/** A workspace of its own: runs here never meet the other cases' flags and publishes on acme. */
const evals = { workspace: 'evals' };
const acme = { workspace: 'acme' };
const nowhere = { workspace: 'nowhere' };

const scripted = (workspace = 'evals') => ({
  'svc.yaml': `workspace: ${workspace}\n`,
  'agents/support/agent.yaml': 'name: Support\nmodel: scripted\nscripted:\n  rules: []\n  fallback: Hello there.\n',
  'agents/support/instructions.md': 'Help.',
});

/** The support agent asking the customer's backend about orders, on `evals`. */
const orderFiles = (url: string) => ({ ...orderAgent({ url }), 'svc.yaml': 'workspace: evals\n' });

/** `evals`, made once, with these files deployed to preview. */
async function deployed({ api, token }: World, files: Record<string, string> = scripted()): Promise<void> {
  const workspace = await api.call('getWorkspace', { token, params: evals });
  if (workspace.status === 404) expect((await api.call('createWorkspace', { token, json: { slug: 'evals' } })).status).toBe(201);
  expect((await api.call('pushDeployment', { token, params: evals, json: { environment: 'preview', files } })).status).toBe(201);
}

async function handCase({ api, token }: World): Promise<string> {
  const created = await api.call('createEvalCase', {
    token,
    params: evals,
    json: { agent: 'support', turns: ['hi'], expected: 'Says "hello".' },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

/** A flag's case on acme: a flagged reply of acme's live support agent, with a note. */
async function flagCase({ api, token }: World): Promise<string> {
  const files = scripted('acme');
  expect((await api.call('pushDeployment', { token, params: { workspace: 'acme' }, json: { environment: 'preview', files } })).status).toBe(
    201,
  );
  expect((await api.call('publish', { token, params: { workspace: 'acme' } })).status).toBe(200);
  const chat = await api.call('createChat', { token, params: { slug: 'acme' }, json: { agent: 'support' } });
  const sent = await api.call('sendMessage', { token, params: { slug: 'acme', id: chat.body.chat_id }, json: { text: 'hi' } });
  const flag = await api.call('createFlag', {
    token,
    params: { workspace: 'acme' },
    json: { message_id: sent.body.message_id, note: 'Say "hi".' },
  });
  expect(flag.status).toBe(201);
  return flag.body.eval_case_id;
}

/** A finished run of `evals`' preview. */
async function finishedRun(world: World): Promise<JsonResponse> {
  await deployed(world);
  await handCase(world);
  const started = await world.api.call('startEvalRun', { token: world.token, params: evals, json: {} });
  expect(started.status).toBe(202);
  for (;;) {
    const run = await world.api.call('getEvalRun', { token: world.token, params: { ...evals, id: started.body.id } });
    if (run.body.finished) return run;
    await sleep(25);
  }
}

export const evalCases: OperationCases = {
  listEvalCases: {
    sample: ({ token }) => ({ token, params: acme, query: { agent: 'support' } }),
    async answers(world) {
      const { api, supervisorToken } = world;
      await flagCase(world);
      await flagCase(world);
      const first = await api.call('listEvalCases', { token: supervisorToken, params: acme, query: { agent: 'support', limit: '1' } });
      expect(first.body.cases).toHaveLength(1);
      const cursor = first.body.next_cursor;
      expect(
        (await api.call('listEvalCases', { token: supervisorToken, params: acme, query: { limit: '1', cursor } })).body.cases,
      ).toHaveLength(1);
      expect((await api.call('listEvalCases', { token: supervisorToken, params: nowhere })).body.error.code).toBe('workspace_not_found');
    },
  },
  createEvalCase: {
    sample: ({ token }) => ({ token, params: evals, json: { agent: 'support', turns: ['hi'], expected: 'Says "hello".' } }),
    async answers(world) {
      const { api, token, supervisorToken } = world;
      await deployed(world);
      const json = { agent: 'support', turns: ['hi'], expected: 'x' };
      expect((await api.call('createEvalCase', { token: supervisorToken, params: acme, json })).status).toBe(201);
      expect((await api.call('createEvalCase', { token, params: evals, json: { ...json, turns: [] } })).body.error.field).toBe('turns');
      expect((await api.call('createEvalCase', { token, params: nowhere, json })).body.error.code).toBe('workspace_not_found');
    },
  },
  getEvalCase: {
    sample: ({ token }) => ({ token, params: { ...evals, id: 'case_unknown' } }),
    async answers(world) {
      const { api, token } = world;
      await deployed(world);
      const id = await handCase(world);
      expect((await api.call('getEvalCase', { token, params: { ...evals, id } })).body.id).toBe(id);
      expect((await api.call('getEvalCase', { token, params: { ...evals, id: 'case_unknown' } })).body.error.code).toBe(
        'eval_case_not_found',
      );
      expect((await api.call('getEvalCase', { token, params: { ...nowhere, id } })).body.error.code).toBe('workspace_not_found');
    },
  },
  updateEvalCase: {
    sample: ({ token }) => ({ token, params: { ...evals, id: 'case_unknown' }, json: { expected: 'Says "hi".' } }),
    async answers(world) {
      const { api, token } = world;
      await deployed(world);
      const id = await handCase(world);
      const update = (params: Record<string, string>) => api.call('updateEvalCase', { token, params, json: { expected: 'Says "hi".' } });
      expect((await update({ ...evals, id })).body.expected).toBe('Says "hi".');
      expect((await update({ ...evals, id: 'case_unknown' })).body.error.code).toBe('eval_case_not_found');
      expect((await update({ ...nowhere, id })).body.error.code).toBe('workspace_not_found');
      expect((await update({ ...acme, id: await flagCase(world) })).body.error.code).toBe('case_owned_by_flag');
    },
  },
  removeEvalCase: {
    sample: ({ token }) => ({ token, params: { ...evals, id: 'case_unknown' } }),
    async answers(world) {
      const { api, token } = world;
      await deployed(world);
      const id = await handCase(world);
      const remove = (params: Record<string, string>) => api.call('removeEvalCase', { token, params });
      expect((await remove({ ...evals, id })).status).toBe(204);
      expect((await remove({ ...evals, id })).body.error.code).toBe('eval_case_not_found');
      expect((await remove({ ...nowhere, id })).body.error.code).toBe('workspace_not_found');
      expect((await remove({ ...acme, id: await flagCase(world) })).body.error.code).toBe('case_owned_by_flag');
    },
  },
  startEvalRun: {
    sample: ({ token }) => ({ token, params: evals, json: {} }),
    async answers(world) {
      const { api, token, supervisorToken } = world;
      const start = (json: object, params = evals, as = token) => api.call('startEvalRun', { token: as, params, json });
      expect((await start({}, { workspace: 'bare' })).body.error.code).toBe('nothing_deployed');
      expect(
        (
          await api.call('pushDeployment', {
            token,
            params: { workspace: 'bare' },
            json: { environment: 'preview', files: scripted('bare') },
          })
        ).status,
      ).toBe(201);
      expect((await start({}, { workspace: 'bare' })).body.error.code).toBe('no_eval_cases');
      await deployed(world);
      await handCase(world);
      expect((await start({ environment: 'feat-nowhere' })).body.error.code).toBe('environment_not_found');
      expect((await start({ agent: 'billing' })).body.error.code).toBe('agent_not_found');
      expect((await start({}, acme, supervisorToken)).body.error.code).toBe('forbidden');
      expect((await start({}, nowhere)).body.error.code).toBe('workspace_not_found');
      expect((await start({})).status).toBe(202);

      // A platform whose one judge is of the agent's model family.
      const judged = await startPlatform({ evals: { judges: ['openai:gpt-4.1-mini'] } });
      try {
        const owner = await createUserWithToken(judged, 'ada@example.com');
        const on = { token: owner, baseUrl: judged.url };
        await api.call('createWorkspace', { ...on, json: { slug: 'evals' } });
        const files = { ...scripted(), 'agents/support/agent.yaml': 'name: Support\nmodel: openai:gpt-4.1\n' };
        await api.call('pushDeployment', { ...on, params: evals, json: { environment: 'preview', files } });
        await api.call('createEvalCase', { ...on, params: evals, json: { agent: 'support', turns: ['hi'], expected: 'Greets.' } });
        const refused = await api.call('startEvalRun', { ...on, params: evals, json: {} });
        expect(refused.body).toMatchObject({ error: { code: 'judge_family_conflict' }, agent_model: 'openai:gpt-4.1' });
      } finally {
        await judged.stop();
      }
    },
  },
  listEvalRuns: {
    sample: ({ token }) => ({ token, params: evals, query: { environment: 'preview', limit: '10' } }),
    async answers(world) {
      const { api, token } = world;
      const run = await finishedRun(world);
      const list = await api.call('listEvalRuns', { token, params: evals, query: { environment: 'preview' } });
      expect(list.body.runs[0].id).toBe(run.body.id);
      expect((await api.call('listEvalRuns', { token, params: nowhere })).body.error.code).toBe('workspace_not_found');
    },
  },
  getEvalRun: {
    sample: ({ token }) => ({ token, params: { ...evals, id: 'run_unknown' } }),
    async answers(world) {
      const { api, token } = world;
      const run = await finishedRun(world);
      expect(run.body.results.length).toBeGreaterThan(0);
      // Each result names its case by the case's first visitor turn.
      expect(run.body.results[0].question).toBe('hi');
      expect((await api.call('getEvalRun', { token, params: { ...evals, id: 'run_unknown' } })).body.error.code).toBe('eval_run_not_found');
      expect((await api.call('getEvalRun', { token, params: { ...nowhere, id: run.body.id } })).body.error.code).toBe(
        'workspace_not_found',
      );
    },
  },
  streamEvalRunEvents: {
    sample: ({ token }) => ({ token, params: { ...evals, id: 'run_unknown' } }),
    async answers(world) {
      const { api, token } = world;
      const run = await finishedRun(world);
      // A finished run's stream gives its results and `finished` at once, then ends.
      const events = await api.call('streamEvalRunEvents', { token, params: { ...evals, id: run.body.id } });
      expect(events.body).toContain('event: result');
      expect(events.body).toContain('event: finished');
      expect((await api.call('streamEvalRunEvents', { token, params: { ...evals, id: 'run_unknown' } })).body.error.code).toBe(
        'eval_run_not_found',
      );
      expect((await api.call('streamEvalRunEvents', { token, params: { ...nowhere, id: run.body.id } })).body.error.code).toBe(
        'workspace_not_found',
      );
    },
  },
  evalRunReport: {
    sample: ({ token }) => ({ token, params: { ...evals, id: 'run_unknown' } }),
    async answers(world) {
      const { api, token } = world;
      const run = await finishedRun(world);
      expect((await api.call('evalRunReport', { token, params: { ...evals, id: run.body.id } })).body).toContain('preview');
      expect((await api.call('evalRunReport', { token, params: { ...evals, id: 'run_unknown' } })).body.error.code).toBe(
        'eval_run_not_found',
      );
      expect((await api.call('evalRunReport', { token, params: { ...nowhere, id: run.body.id } })).body.error.code).toBe(
        'workspace_not_found',
      );
    },
  },
  cancelEvalRun: {
    sample: ({ token }) => ({ token, params: { ...evals, id: 'run_unknown' } }),
    async answers(world) {
      const { api, token, supervisorToken } = world;
      // A replay whose tool call the backend holds: the run is still going when it is cancelled.
      const backend = await startHeldBackend();
      try {
        await deployed(world, orderFiles(backend.url));
        expect(
          (
            await api.call('createEvalCase', {
              token,
              params: evals,
              json: { agent: 'support', turns: ['order A-1?'], expected: 'Says "shipped".' },
            })
          ).status,
        ).toBe(201);
        const started = await api.call('startEvalRun', { token, params: evals, json: { agent: 'support' } });
        await backend.held(1);
        const cancel = (id: string, params = evals, as = token) => api.call('cancelEvalRun', { token: as, params: { ...params, id } });
        expect((await cancel(started.body.id, acme, supervisorToken)).body.error.code).toBe('forbidden');
        expect((await cancel(started.body.id)).body).toMatchObject({ status: 'cancelled', finished: true });
        expect((await cancel(started.body.id)).body.error.code).toBe('run_finished');
        expect((await cancel('run_unknown')).body.error.code).toBe('eval_run_not_found');
        expect((await cancel(started.body.id, nowhere)).body.error.code).toBe('workspace_not_found');
      } finally {
        await backend.close();
      }
    },
  },
  listEvalGraders: {
    sample: ({ token }) => ({ token, params: evals, query: { days: '30' } }),
    async answers(world) {
      const { api, token, supervisorToken } = world;
      const run = await finishedRun(world);
      const [result] = run.body.results;
      const verdict = result.graded === 'pass' ? 'fail' : 'pass';
      const params = { ...evals, id: run.body.id, case_id: result.case_id };
      expect((await api.call('overrideEvalResult', { token, params, json: { verdict } })).status).toBe(200);
      const graders = await api.call('listEvalGraders', { token: supervisorToken, params: acme });
      expect(graders.body).toMatchObject({ days: 90 });
      const own = await api.call('listEvalGraders', { token, params: evals });
      expect(own.body.graders[0]).toMatchObject({ grader: 'deterministic' });
      expect((await api.call('listEvalGraders', { token, params: nowhere })).body.error.code).toBe('workspace_not_found');
    },
  },
  overrideEvalResult: {
    sample: ({ token }) => ({ token, params: { ...evals, id: 'run_unknown', case_id: 'case_unknown' }, json: { verdict: 'pass' } }),
    async answers(world) {
      const { api, token } = world;
      const override = (params: Record<string, string>, verdict: string | null = 'pass') =>
        api.call('overrideEvalResult', { token, params, json: { verdict } });
      const run = await finishedRun(world);
      const [result] = run.body.results;
      const done = { ...evals, id: run.body.id, case_id: result.case_id };
      expect((await override(done, 'fail')).body.override).toMatchObject({ verdict: 'fail' });
      expect((await override(done, null)).body.override).toBeNull();
      expect((await override({ ...done, case_id: 'case_unknown' })).body.error.code).toBe('eval_case_not_found');
      expect((await override({ ...done, id: 'run_unknown' })).body.error.code).toBe('eval_run_not_found');
      expect((await override({ ...done, workspace: 'nowhere' })).body.error.code).toBe('workspace_not_found');

      const backend = await startHeldBackend();
      try {
        await deployed(world, orderFiles(backend.url));
        const created = await api.call('createEvalCase', {
          token,
          params: evals,
          json: { agent: 'support', turns: ['order A-2?'], expected: 'Says "shipped".' },
        });
        const started = await api.call('startEvalRun', { token, params: evals, json: { agent: 'support' } });
        await backend.held(1);
        expect((await override({ ...evals, id: started.body.id, case_id: created.body.id })).body.error.code).toBe('result_pending');
        await api.call('cancelEvalRun', { token, params: { ...evals, id: started.body.id } });
      } finally {
        await backend.close();
      }
    },
  },
};
