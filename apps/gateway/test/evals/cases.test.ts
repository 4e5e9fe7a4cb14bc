import { evalCaseMaxTurns } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { evalsWorkspace, salesAgent } from './setup.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform.stop());

describe('eval cases by hand', () => {
  it('are added, listed by agent, read, changed and removed; a removed case is gone from the list and answers 404', async () => {
    const ws = await evalsWorkspace(platform, 'cases-crud');
    const created = await ws.evals('/cases', { json: { agent: 'sales', turns: ['hi', 'how much?'], expected: 'Says "12 USD".' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      agent: 'sales',
      turns: ['hi', 'how much?'],
      expected: 'Says "12 USD".',
      origin: { created_by: 'owner@cases-crud.example' },
    });
    const other = await ws.addCase(['hello'], 'Greets "hello".', 'support');

    expect((await ws.evals('/cases')).body.cases.map((c: { id: string }) => c.id)).toEqual([created.body.id, other]);
    expect((await ws.evals('/cases?agent=support')).body.cases.map((c: { id: string }) => c.id)).toEqual([other]);
    expect((await ws.evals(`/cases/${created.body.id}`)).body).toEqual(created.body);

    const changed = await ws.evals(`/cases/${created.body.id}`, { method: 'PATCH', json: { turns: ['what is the price?'] } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ turns: ['what is the price?'], expected: 'Says "12 USD".' });
    expect((await ws.evals(`/cases/${created.body.id}`)).body.turns).toEqual(['what is the price?']);

    expect((await ws.evals(`/cases/${created.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await ws.evals(`/cases/${created.body.id}`)).body.error.code).toBe('eval_case_not_found');
    expect((await ws.evals(`/cases/${created.body.id}`, { method: 'PATCH', json: { expected: 'x' } })).status).toBe(404);
    expect((await ws.evals('/cases')).body.cases.map((c: { id: string }) => c.id)).toEqual([other]);
  });

  it('take 1 to 50 visitor messages, none empty, and an expected outcome; anything else is 400 naming the field', async () => {
    const ws = await evalsWorkspace(platform, 'cases-valid');
    const create = (json: unknown) => ws.evals('/cases', { json });
    const refused = async (json: unknown, field: string) => {
      const answer = await create(json);
      expect(answer.status, JSON.stringify(json).slice(0, 100)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'invalid_request', field });
    };
    const turns = (n: number) => Array.from({ length: n }, (_, i) => `message ${i + 1}`);
    await refused({ agent: 'sales', turns: [], expected: 'x' }, 'turns');
    await refused({ agent: 'sales', turns: turns(evalCaseMaxTurns + 1), expected: 'x' }, 'turns');
    await refused({ agent: 'sales', turns: [''], expected: 'x' }, 'turns.0');
    await refused({ agent: 'sales', turns: ['hi'] }, 'expected');
    await refused({ agent: 'sales', turns: ['hi'], expected: '' }, 'expected');
    await refused({ agent: 'Not A Slug', turns: ['hi'], expected: 'x' }, 'agent');
    expect((await create({ agent: 'sales', turns: turns(evalCaseMaxTurns), expected: 'x' })).status).toBe(201);
    expect((await ws.evals('/cases')).body.cases).toHaveLength(1);

    const id = await ws.addCase(['hi'], 'x');
    const empty = await ws.evals(`/cases/${id}`, { method: 'PATCH', json: {} });
    expect(empty.status).toBe(400);
    const tooMany = await ws.evals(`/cases/${id}`, { method: 'PATCH', json: { turns: turns(evalCaseMaxTurns + 1) } });
    expect(tooMany.body.error).toMatchObject({ code: 'invalid_request', field: 'turns' });
    expect((await ws.evals(`/cases/${id}`)).body.turns).toEqual(['hi']);
  });

  it("a flag's case lists the flag as its origin and changes only through the flag: 409 case_owned_by_flag", async () => {
    const ws = await evalsWorkspace(platform, 'cases-flag');
    await ws.deploy('live', salesAgent('Plans start at 10 USD.', { slug: 'cases-flag' }));
    const { replyId } = await ws.say('what is the price?');
    const flag = await ws.api('/flags', { json: { message_id: replyId, note: 'Say "12 USD".' } });
    expect(flag.status).toBe(201);

    const [evalCase] = (await ws.evals('/cases?agent=sales')).body.cases;
    expect(evalCase).toMatchObject({ id: flag.body.eval_case_id, origin: { flag_id: flag.body.id }, expected: 'Say "12 USD".' });
    for (const init of [{ method: 'PATCH', json: { expected: 'Something else.' } }, { method: 'DELETE' }]) {
      const answer = await ws.evals(`/cases/${evalCase.id}`, init);
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('case_owned_by_flag');
    }
    expect((await ws.evals(`/cases/${evalCase.id}`)).body).toEqual(evalCase);
  });
});

describe('roles', () => {
  it('a supervisor adds, changes and removes cases but may neither start nor cancel a run (403); a developer may', async () => {
    const ws = await evalsWorkspace(platform, 'cases-roles');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'cases-roles' }));
    const supervisor = await ws.member('supervisor');
    const developer = await ws.member('developer');
    const created = await ws.evals('/cases', {
      token: supervisor,
      json: { agent: 'sales', turns: ['price?'], expected: 'Says "12 USD".' },
    });
    expect(created.status).toBe(201);
    expect(created.body.origin).toEqual({ created_by: 'supervisor@cases-roles.example' });
    expect(
      (await ws.evals(`/cases/${created.body.id}`, { token: supervisor, method: 'PATCH', json: { turns: ['the price?'] } })).status,
    ).toBe(200);

    const refused = await ws.evals('/runs', { token: supervisor, json: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await ws.evals('/runs', { token: supervisor })).body.runs).toEqual([]);

    const started = await ws.evals('/runs', { token: developer, json: {} });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ environment: 'preview', created_by: 'developer@cases-roles.example' });
    expect((await ws.evals(`/runs/${started.body.id}/cancel`, { token: supervisor, method: 'POST' })).body.error.code).toBe('forbidden');
    expect((await ws.evals(`/runs/${started.body.id}`, { token: supervisor })).status).toBe(200);
    expect((await ws.evals(`/cases/${created.body.id}`, { token: supervisor, method: 'DELETE' })).status).toBe(204);
  });
});
