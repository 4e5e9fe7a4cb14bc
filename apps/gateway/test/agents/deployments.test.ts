import { type FakeProvider, request, startFakeProvider } from '@svc/testkit';
import { atOnce } from '../at-once.ts';
import { orderAgent } from './order-agent.ts';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let platform: TestPlatform;
let backend: FakeProvider;
let token: string;
const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${platform.url}${path}`, { token, ...init });

const files = (reply?: string) => orderAgent({ url: backend.url, headers: '{ X-Api-Key: "{{secrets.SHOP_KEY}}" }', reply });

beforeEach(async () => {
  backend = await startFakeProvider((req) => ({ status: 200, body: { status: 'shipped', key_seen: req.headers['x-api-key'] } }));
  // The fake backend listens on 127.0.0.1, as a developer's own backend does in local mode.
  platform = await startPlatform({ toolEgress: { allowPrivateNetworks: true } });
  token = await createUserWithToken(platform, 'ada@example.com');
  await api('/cli/workspaces', { json: { slug: 'acme' } });
});
afterEach(async () => {
  await platform.stop();
  await backend.close();
});

const push = (environment: string, body = files(), git = { commit: 'abc1234', branch: 'feat/x' }) =>
  api('/api/developer/v1/acme/deployments', { json: { environment, files: body, git } });

describe('push and publish', () => {
  it('creates immutable versions, reuses one for the same content, and publishes to live', async () => {
    const first = await push('feat-x');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      environment: 'feat-x',
      created: true,
      version: {
        number: 1,
        content_hash: expect.stringMatching(/^sha256:/),
        git_commit: 'abc1234',
        git_branch: 'feat/x',
        author: 'ada@example.com',
        agents: ['support'],
      },
    });
    const same = await push('preview');
    expect(same.body).toMatchObject({ created: false, version: { id: first.body.version.id, number: 1 } });
    const changed = await push('feat-x', files('Your order {{match.1}}: {{tool.status}}.'));
    expect(changed.body.version.number).toBe(2);

    const published = await api('/api/developer/v1/acme/publish', { json: { from: 'feat-x' } });
    expect(published.body).toMatchObject({ environment: 'live', version: { number: 2 } });
    const envs = (await api('/api/developer/v1/acme/environments')).body.environments;
    expect(envs.map((e: { name: string; version: { number: number } }) => [e.name, e.version.number])).toEqual([
      ['feat-x', 2],
      ['live', 2],
      ['preview', 1],
    ]);
  });

  it('deploys one version when identical pushes arrive at once: every answer names it, one created it', async () => {
    const answers = await atOnce(platform.url, 4, (index) => push(index % 2 ? 'preview' : 'feat-x'));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    const versions = new Set(answers.map((answer) => answer.body.version.id));
    expect(versions.size).toBe(1);
    expect(answers.map((answer) => answer.body.version.number)).toEqual([1, 1, 1, 1]);
    expect(answers.filter((answer) => answer.body.created)).toHaveLength(1);
    // Numbers follow on from the one version: no second one was made.
    const changed = await push('preview', files('Your order {{match.1}}: {{tool.status}}.'));
    expect(changed.body).toMatchObject({ created: true, version: { number: 2 } });
  });

  it("answers invalid_manifest naming each file and path, and refuses another workspace's svc.yaml", async () => {
    const bad = await push('preview', {
      ...files(),
      'svc.yaml': 'workspace: acme\nagents: yes\n',
      'agents/support/agent.yaml': 'name: Support\nmodel: gpt\n',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_manifest');
    expect(bad.body.issues).toEqual(
      expect.arrayContaining([
        { file: 'agents/support/agent.yaml', path: 'model', message: expect.any(String) },
        { file: 'svc.yaml', path: '', message: expect.stringContaining('agents') },
      ]),
    );
    const other = await push('preview', { ...files(), 'svc.yaml': 'workspace: other\n' });
    expect(other.body.error.code).toBe('workspace_mismatch');
  });

  it('lets only owners and developers deploy', async () => {
    const { store, identity } = platform.core.services;
    const sam = await identity.findOrCreateUser('sam@example.com');
    await store.workspaces.addMember((await store.workspaces.findBySlug('acme'))!.id, sam.id, 'supervisor', new Date().toISOString());
    const samToken = (await identity.issueToken(sam.id, 'sam')).token;
    const res = await request(`${platform.url}/api/developer/v1/acme/deployments`, {
      token: samToken,
      json: { environment: 'preview', files: files() },
    });
    expect(res.status).toBe(403);
    expect((await request(`${platform.url}/api/developer/v1/acme/environments`, { token: samToken })).status).toBe(200);
  });
});

describe('environments that do not exist', () => {
  it('have no secrets to set or list: 404 environment_not_found, and nothing is stored', async () => {
    await push('preview');
    const set = await api('/api/developer/v1/acme/environments/prevew/secrets/SHOP_KEY', { method: 'PUT', json: { value: 'k' } });
    expect(set.status).toBe(404);
    expect(set.body.error).toMatchObject({ code: 'environment_not_found', message: expect.stringContaining('prevew') });
    const list = await api('/api/developer/v1/acme/environments/prevew/secrets');
    expect(list.status).toBe(404);
    expect(list.body.error.code).toBe('environment_not_found');
    await push('prevew');
    expect((await api('/api/developer/v1/acme/environments/prevew/secrets')).body).toEqual({ secrets: [] });
  });

  it('refuse to publish live to itself: 400 invalid_request naming from', async () => {
    await push('preview');
    await api('/api/developer/v1/acme/publish', { json: { from: 'preview' } });
    const res = await api('/api/developer/v1/acme/publish', { json: { from: 'live' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'from', message: expect.stringContaining('live') });
  });
});

describe('secrets and chats', () => {
  it('reach the backend in tool calls, are never returned, and are redacted from traces', async () => {
    await push('preview');
    const set = await api('/api/developer/v1/acme/environments/preview/secrets/SHOP_KEY', {
      method: 'PUT',
      json: { value: 'shop-secret-123' },
    });
    expect(set.status).toBe(204);
    const list = await api('/api/developer/v1/acme/environments/preview/secrets');
    expect(list.body).toEqual({ secrets: [{ name: 'SHOP_KEY', updated_at: expect.any(String) }] });
    expect(JSON.stringify(list.body)).not.toContain('shop-secret-123');

    const chat = await api('/api/v1/acme/chats', { json: { agent: 'support', environment: 'preview' } });
    expect(chat.status).toBe(201);
    expect(chat.body).toMatchObject({ agent: 'support', environment: 'preview', channel: 'api' });
    const answer = await api(`/api/v1/acme/chats/${chat.body.chat_id}/messages`, { json: { text: 'where is order A-1?' } });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      message_id: expect.stringMatching(/^msg_/),
      visitor_message_id: expect.any(String),
      reply: 'Order A-1 is shipped.',
    });
    expect(backend.requests[0]!.headers['x-api-key']).toBe('shop-secret-123');

    const { messages } = (await api(`/api/developer/v1/acme/chats/${chat.body.chat_id}`)).body;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['visitor', 'agent']);
    expect(messages[1].trace.tool_calls[0]).toMatchObject({ name: 'order_status', arguments: { id: 'A-1' }, status: 200 });
    const trace = JSON.stringify(messages[1]!.trace);
    expect(trace).toContain('order_status');
    expect(trace).not.toContain('shop-secret-123');
    expect(trace).toContain('[secret:SHOP_KEY]');
  });

  it('get their answer when core stops while answering: core finishes the calls it is running first', async () => {
    await push('preview');
    await api('/api/developer/v1/acme/environments/preview/secrets/SHOP_KEY', { method: 'PUT', json: { value: 'shop-secret-123' } });
    const chat = await api('/api/v1/acme/chats', { json: { agent: 'support', environment: 'preview' } });
    backend.queue({ status: 200, body: { status: 'shipped' }, delayMs: 300 });
    const answering = api(`/api/v1/acme/chats/${chat.body.chat_id}/messages`, { json: { text: 'where is order A-1?' } });
    await backend.waitForRequests(1); // the agent's tool call is under way in core
    await platform.core.stop();
    const answer = await answering;
    expect(answer.status).toBe(201);
    expect(answer.body.reply).toBe('Order A-1 is shipped.');
  });

  it('keep replay chats out of the inbox and of every conversation count', async () => {
    await push('preview');
    await api('/api/developer/v1/acme/publish', { json: { from: 'preview' } });
    const live = await api('/api/v1/acme/chats', { json: { agent: 'support' } });
    expect(live.body.environment).toBe('live');
    const workspace = (await platform.core.services.store.workspaces.findBySlug('acme'))!;
    await platform.core.services.chats.create(workspace.id, { agent: 'support', environment: 'live', channel: 'api', replay: true });
    const inbox = await api('/api/developer/v1/acme/chats');
    expect(inbox.body.conversations).toBe(1);
    expect(inbox.body.chats.map((c: { chat_id: string }) => c.chat_id)).toEqual([live.body.chat_id]);
    expect(await platform.core.services.store.chats.countConversations(workspace.id, 'live')).toBe(1);
  });

  it('answers 404 for an environment with nothing deployed or an unknown agent', async () => {
    expect((await api('/api/v1/acme/chats', { json: { agent: 'support' } })).body.error.code).toBe('environment_not_found');
    await push('preview');
    expect((await api('/api/v1/acme/chats', { json: { agent: 'sales', environment: 'preview' } })).body.error.code).toBe('agent_not_found');
  });
});
