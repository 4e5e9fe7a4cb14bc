import { type FakeProvider, request, startFakeProvider } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { flagsWorkspace } from './setup.ts';

let platform: TestPlatform;
let backend: FakeProvider;
beforeAll(async () => {
  // The backend echoes the key it was sent: the trace, and so the flag, must show it redacted.
  backend = await startFakeProvider((req) => ({ status: 200, body: { status: 'shipped', key: req.headers['x-api-key'] } }));
  platform = await startPlatform({ toolEgress: { allowPrivateNetworks: true } });
});
afterAll(async () => {
  await platform.stop();
  await backend.close();
});

it("keeps the reply's turn: the tool call with its arguments and the backend's response, secrets redacted", async () => {
  const ws = await flagsWorkspace(platform, 'acme', backend.url);
  const { chatId, replies } = await ws.conversation(['hi', 'where is order A-7?']);
  const flag = (await ws.flags('', { json: { message_id: replies[1], note: 'Give the tracking link.' } })).body;
  expect(flag).toMatchObject({
    chat_id: chatId,
    channel: 'api',
    reply: 'Order A-7 is shipped.',
    conversation: [
      { role: 'visitor', text: 'hi' },
      { role: 'agent', text: 'Hello from support.' },
      { role: 'visitor', text: 'where is order A-7?' },
    ],
    turn: {
      tool_calls: [
        {
          name: 'order_status',
          arguments: { id: 'A-7' },
          request: { method: 'GET', url: `${backend.url}/orders/A-7` },
          status: 200,
          response: { status: 'shipped', key: '[secret:SHOP_KEY]' },
        },
      ],
      knowledge: [],
    },
  });
  expect(JSON.stringify(flag)).not.toContain('shop-secret-key');
  expect((await request(`${platform.url}/api/developer/v1/acme/flags.md`, { token: ws.token })).body).not.toContain('shop-secret-key');
});

it('marks each chat of the inbox that has an open flag', async () => {
  const ws = await flagsWorkspace(platform, 'inbox', backend.url);
  const flagged = await ws.conversation(['where is order A-1?']);
  const plain = await ws.conversation(['hello']);
  const removed = await ws.conversation(['hello again']);
  await ws.flags('', { json: { message_id: flagged.replies[0] } });
  const { id } = (await ws.flags('', { json: { message_id: removed.replies[0] } })).body;
  await ws.flags(`/${id}`, { method: 'DELETE' });
  const inbox = await request(`${platform.url}/api/developer/v1/inbox/chats`, { token: ws.token });
  const marks = Object.fromEntries(inbox.body.chats.map((c: { chat_id: string; flagged: boolean }) => [c.chat_id, c.flagged]));
  expect(marks).toEqual({ [flagged.chatId]: true, [plain.chatId]: false, [removed.chatId]: false });
});
