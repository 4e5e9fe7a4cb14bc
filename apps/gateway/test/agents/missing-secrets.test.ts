import { type FakeProvider, request, startFakeProvider } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { orderAgent } from './order-agent.ts';

let platform: TestPlatform;
let backend: FakeProvider;
let token: string;
const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${platform.url}${path}`, { token, ...init });

/** The demo's shape: the backend's address and its token are both secrets of the environment. */
const files = orderAgent({
  url: '{{secrets.BACKEND_URL}}',
  headers: '{ Authorization: "Bearer {{secrets.BACKEND_TOKEN}}" }',
  fallback: 'I can check an order for you.',
});

beforeAll(async () => {
  backend = await startFakeProvider(() => ({ status: 200, body: { status: 'shipped' } }));
  platform = await startPlatform({ toolEgress: { allowPrivateNetworks: true } });
  token = await createUserWithToken(platform, 'ada@example.com');
  await api('/cli/workspaces', { json: { slug: 'acme' } });
});
afterAll(async () => {
  await platform.stop();
  await backend.close();
});

const setSecret = (environment: string, name: string, value: string) =>
  api(`/api/developer/v1/acme/environments/${environment}/secrets/${name}`, { method: 'PUT', json: { value } });

describe('secrets the agents use but the environment lacks', () => {
  it('are named by push and publish, for the environment deployed to', async () => {
    const first = await api('/api/developer/v1/acme/deployments', { json: { environment: 'preview', files } });
    expect(first.status).toBe(201);
    expect(first.body.missing_secrets).toEqual(['BACKEND_TOKEN', 'BACKEND_URL']);
    await setSecret('preview', 'BACKEND_TOKEN', 'tok-123456');
    const again = await api('/api/developer/v1/acme/deployments', { json: { environment: 'preview', files } });
    expect(again.body).toMatchObject({ created: false, missing_secrets: ['BACKEND_URL'] });
    await setSecret('preview', 'BACKEND_URL', backend.url);
    expect((await api('/api/developer/v1/acme/deployments', { json: { environment: 'preview', files } })).body.missing_secrets).toEqual([]);

    const published = await api('/api/developer/v1/acme/publish', { json: { from: 'preview' } });
    expect(published.body).toMatchObject({ environment: 'live', missing_secrets: ['BACKEND_TOKEN', 'BACKEND_URL'] });
  });

  it('fail the tool call, not the message: 201 with the fallback reply, and the trace names the missing secret', async () => {
    await api('/api/developer/v1/acme/deployments', { json: { environment: 'bare', files } });
    await setSecret('bare', 'BACKEND_TOKEN', 'tok-123456');
    const chat = (await api('/api/v1/acme/chats', { json: { agent: 'support', environment: 'bare' } })).body;
    const answer = await api(`/api/v1/acme/chats/${chat.chat_id}/messages`, { json: { text: 'where is order Z-9999?' } });
    expect(answer.status).toBe(201);
    expect(answer.body.reply).toBe('I can check an order for you.');
    const { messages } = (await api(`/api/developer/v1/acme/chats/${chat.chat_id}`)).body;
    expect(messages[1].trace.tool_calls).toEqual([
      expect.objectContaining({
        name: 'order_status',
        status: null,
        error: expect.stringMatching(/^missing secret BACKEND_URL: not set in this environment/),
      }),
    ]);
  });
});
