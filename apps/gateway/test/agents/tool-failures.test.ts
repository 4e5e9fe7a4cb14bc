import { readFileSync } from 'node:fs';
import { type FakeProvider, freePort, request, startFakeProvider } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';

const demoAgent = readFileSync(new URL('../../../../examples/demo/agents/support/agent.yaml', import.meta.url), 'utf8');
const files = { 'svc.yaml': 'workspace: acme\n', 'agents/support/agent.yaml': demoAgent, 'agents/support/instructions.md': 'Help.' };

let platform: TestPlatform;
let backend: FakeProvider;
let token: string;
const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${platform.url}${path}`, { token, ...init });

beforeAll(async () => {
  backend = await startFakeProvider(() => ({ status: 200, body: { order_id: 'A-1001', status: 'shipped', delivery_date: 'in 2 days' } }));
  platform = await startPlatform({ toolEgress: { allowPrivateNetworks: true } });
  token = await createUserWithToken(platform, 'ada@example.com');
  await api('/cli/workspaces', { json: { slug: 'acme' } });
});
afterAll(async () => {
  await platform.stop();
  await backend.close();
});

/** Deploys the demo agent to `environment` with these secrets, and asks it about an order. */
async function ask(environment: string, secrets: Record<string, string>, text: string) {
  await api('/api/developer/v1/acme/deployments', { json: { environment, files } });
  for (const [name, value] of Object.entries(secrets)) {
    await api(`/api/developer/v1/acme/environments/${environment}/secrets/${name}`, { method: 'PUT', json: { value } });
  }
  const chat = (await api('/api/v1/acme/chats', { json: { agent: 'support', environment } })).body;
  return api(`/api/v1/acme/chats/${chat.chat_id}/messages`, { json: { text } });
}

const notFound = 'I could not find order Z-9999. Please check the number (like A-1001), or ask again in a moment.';

it.each([
  ['answers 404', 'not-found', { status: 404, body: { error: 'no order Z-9999' } }],
  ['answers 401', 'unauthorized', { status: 401, body: { error: 'unauthorized' } }],
  ['answers without the fields the reply names', 'no-fields', { status: 200, body: { order_id: 'Z-9999' } }],
])("the demo agent answers with its rule's on_error, never a reply with blanks, when the backend %s", async (_, environment, failure) => {
  backend.queue(failure);
  const answer = await ask(environment, { BACKEND_URL: backend.url, BACKEND_TOKEN: 'tok-123456' }, 'Where is order Z-9999?');
  expect(answer.status).toBe(201);
  expect(answer.body.reply).toBe(notFound);
});

it("the demo agent answers with its rule's on_error when the backend is unreachable or its secret is missing", async () => {
  const closedPort = await freePort();
  const unreachable = await ask(
    'down',
    { BACKEND_URL: `http://127.0.0.1:${closedPort}`, BACKEND_TOKEN: 'tok-123456' },
    'Where is order Z-9999?',
  );
  expect(unreachable.body.reply).toBe(notFound);
  const unset = await ask('unset', { BACKEND_TOKEN: 'tok-123456' }, 'Where is order Z-9999?');
  expect(unset.body.reply).toBe(notFound);
  const found = await ask('up', { BACKEND_URL: backend.url, BACKEND_TOKEN: 'tok-123456' }, 'Where is order A-1001?');
  expect(found.body.reply).toBe('Order A-1001 is shipped; expected delivery in 2 days.');
});
