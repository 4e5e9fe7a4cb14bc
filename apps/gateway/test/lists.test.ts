import { request } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';

let platform: TestPlatform;
let token: string;
const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${platform.url}${path}`, { token, ...init });

const files = (reply: string) => ({
  'svc.yaml': 'workspace: acme\n',
  'agents/support/agent.yaml': `name: Support\nmodel: scripted\nscripted:\n  rules: []\n  fallback: "${reply}"\n`,
  'agents/support/instructions.md': 'Help.',
});
let pushes = 0;
const push = async () => {
  pushes += 1;
  const res = await api('/api/developer/v1/acme/deployments', { json: { environment: 'preview', files: files(`reply ${pushes}`) } });
  expect(res.status).toBe(201);
  return res.body.version as { id: string; number: number };
};
const startChat = async () => {
  const res = await api('/api/v1/acme/chats', { json: { agent: 'support', environment: 'preview' } });
  expect(res.status).toBe(201);
  return res.body.chat_id as string;
};

/** Follows `next_cursor` from the first page to the last, running `between` after each page but the last. */
async function pageThrough<T>(path: string, items: string, between: () => Promise<unknown>): Promise<{ pages: T[][]; all: T[] }> {
  const pages: T[][] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res = await api(cursor ? `${path}${separator}cursor=${cursor}` : path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body[items] as T[]);
    cursor = res.body.next_cursor as string | null;
    if (cursor) await between();
  } while (cursor);
  return { pages, all: pages.flat() };
}

beforeAll(async () => {
  platform = await startPlatform();
  token = await createUserWithToken(platform, 'ada@example.com');
  await api('/cli/workspaces', { json: { slug: 'acme' } });
});
afterAll(() => platform.stop());

describe('the lists that grow, a page at a time', () => {
  it('inbox: 50 chats a page by default, newest first, none twice and none missed while chats start between pages', async () => {
    await push();
    const started: string[] = [];
    for (let i = 0; i < 121; i++) started.push(await startChat());
    const { pages, all } = await pageThrough<{ chat_id: string }>('/api/developer/v1/acme/chats', 'chats', async () => {
      await startChat();
      await startChat();
    });
    expect(pages.map((page) => page.length)).toEqual([50, 50, 21]);
    expect(all.map((chat) => chat.chat_id)).toEqual(started.reverse());
  });

  it('versions: every push, newest first, none twice and none missed while pushes land between pages', async () => {
    const before = (await api('/api/developer/v1/acme/versions?limit=100')).body.versions.length as number;
    for (let i = before; i < 125; i++) await push();
    const { pages, all } = await pageThrough<{ number: number }>('/api/developer/v1/acme/versions?limit=40', 'versions', push);
    expect(pages.map((page) => page.length)).toEqual([40, 40, 40, 5]);
    expect(all.map((version) => version.number)).toEqual(Array.from({ length: 125 }, (_, i) => 125 - i));
  });

  it('tokens: oldest first, each once, and tokens made between pages come after every earlier one', async () => {
    const { identity } = platform.core.services;
    const user = await identity.findOrCreateUser('ada@example.com');
    const made: string[] = [];
    for (let i = 0; i < 120; i++) made.push((await identity.issueToken(user.id, `token ${i}`)).record.id);
    const { all } = await pageThrough<{ id: string; created_at: string }>('/cli/tokens?limit=100', 'tokens', async () =>
      made.push((await identity.issueToken(user.id, 'made between pages')).record.id),
    );
    const ids = all.map((t) => t.id);
    // The test's own token, then every token made, those made between pages included, each once.
    expect(ids).toHaveLength(122);
    expect(new Set(ids.slice(1))).toEqual(new Set(made));
    const times = all.map((t) => t.created_at);
    expect(times).toEqual([...times].sort());
  });

  it('eval cases: oldest first, of one agent when asked, none twice and none missed while cases are added between pages', async () => {
    const add = async (agent: string) => {
      const res = await api('/api/developer/v1/acme/evals/cases', { json: { agent, turns: ['hi'], expected: 'a greeting' } });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const added: string[] = [];
    for (let i = 0; i < 60; i++) added.push(await add(i % 3 === 0 ? 'sales' : 'support'));
    const { pages, all } = await pageThrough<{ id: string }>('/api/developer/v1/acme/evals/cases?limit=25', 'cases', async () =>
      added.push(await add('support')),
    );
    expect(pages.map((page) => page.length)).toEqual([25, 25, 12]);
    expect(all.map((c) => c.id)).toEqual(added);
    const sales = await pageThrough<{ id: string; agent: string }>(
      '/api/developer/v1/acme/evals/cases?agent=sales&limit=7',
      'cases',
      async () => {},
    );
    expect(sales.pages.map((page) => page.length)).toEqual([7, 7, 6]);
    expect(sales.all.every((c) => c.agent === 'sales')).toBe(true);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=1&limit=2', 'limit'],
    ['cursor=not%20a%20cursor', 'cursor'],
    ['cursor=bm9wZQ', 'cursor'],
    [`cursor=${Buffer.from(JSON.stringify(['x', 'ver_1'])).toString('base64url')}`, 'cursor'],
  ])('answers ?%s with 400 invalid_request naming %s', async (query, field) => {
    for (const path of [
      '/api/developer/v1/acme/chats',
      '/api/developer/v1/acme/versions',
      '/api/developer/v1/acme/flags',
      '/api/developer/v1/acme/evals/cases',
      '/api/developer/v1/acme/evals/runs',
      '/cli/tokens',
    ]) {
      const res = await api(`${path}?${query}`);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatchObject({ code: 'invalid_request', field });
    }
  });

  it('refuses a cursor of one list in another whose sort key differs', async () => {
    const { body } = await api('/api/developer/v1/acme/chats?limit=1');
    const res = await api(`/api/developer/v1/acme/versions?cursor=${body.next_cursor}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'cursor' });
  });

  it('documents limit, cursor and next_cursor in the OpenAPI document', async () => {
    const { body } = await request(`${platform.url}/openapi.json`);
    for (const [path, schema, filters] of [
      ['/api/developer/v1/{workspace}/chats', 'Inbox', ['agent', 'environment', 'flagged']],
      ['/api/developer/v1/{workspace}/versions', 'AgentVersionList', []],
      ['/api/developer/v1/{workspace}/flags', 'FlagList', ['status', 'agent']],
      ['/api/developer/v1/{workspace}/evals/cases', 'EvalCaseList', ['agent']],
      ['/cli/tokens', 'DeveloperTokenList', []],
    ] as const) {
      const parameters = body.paths[path].get.parameters as { name: string; in: string }[];
      expect(parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(['limit', 'cursor', ...filters]);
      expect(body.components.schemas[schema].properties.next_cursor).toBeDefined();
    }
  });
});
