import { type FakeProvider, request, startFakeProvider } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { orderAgent } from '../agents/order-agent.ts';
import { fakeClock } from '../phone-verification/setup.ts';
import { launchChromium, signIn, windowOf } from './chromium.ts';

const backendToken = 'tok-backend-5f2a9c';
let platform: TestPlatform;
let backend: FakeProvider;
let browser: Browser;
const clock = fakeClock(new Date().toISOString());

/** Two agents, support (which asks the backend about orders) and sales, in live and preview. */
const files = {
  ...orderAgent({ url: '{{secrets.BACKEND_URL}}', headers: '{ Authorization: "Bearer {{secrets.BACKEND_TOKEN}}" }' }),
  'agents/sales/agent.yaml': 'name: Sales\nmodel: scripted\nscripted:\n  rules: []\n  fallback: Our plans start at 10 USD.\n',
  'agents/sales/instructions.md': 'Sell.',
};

/** Chats in the order they start, one minute apart: the inbox lists them the other way round. */
const chats = [
  { agent: 'support', environment: 'live', text: 'where is order A-1001?' },
  { agent: 'sales', environment: 'live', text: 'how much is it?' },
  { agent: 'support', environment: 'preview', text: 'preview: where is order A-2002?' },
  { agent: 'support', environment: 'live', text: 'where is order B-3003?' },
  { agent: 'support', environment: 'live', text: 'where is order C-4004?' },
];

beforeAll(async () => {
  // The backend tells what it was sent: the token comes back in its answer, as a careless backend's would.
  backend = await startFakeProvider((req) => ({ status: 200, body: { status: 'shipped', seen_authorization: req.headers.authorization } }));
  platform = await startPlatform({ clock: clock.now, toolEgress: { allowPrivateNetworks: true } });
  browser = await launchChromium();
  const token = await createUserWithToken(platform, 'ada@example.com');
  const api = (path: string, json?: object, method?: string) => request(`${platform.url}${path}`, { token, json, method });
  await api('/cli/workspaces', { slug: 'acme' });
  for (const environment of ['preview', 'live']) {
    expect((await api('/api/developer/v1/acme/deployments', { environment, files })).status).toBe(201);
    for (const [name, value] of [
      ['BACKEND_URL', backend.url],
      ['BACKEND_TOKEN', backendToken],
    ])
      await api(`/api/developer/v1/acme/environments/${environment}/secrets/${name}`, { value }, 'PUT');
  }
  for (const { agent, environment, text } of chats) {
    clock.advance(60);
    const chat = (await api('/api/v1/acme/chats', { agent, environment })).body;
    expect((await api(`/api/v1/acme/chats/${chat.chat_id}/messages`, { text })).status).toBe(201);
  }
  const { identity, store } = platform.core.services;
  const sam = await identity.findOrCreateUser('sam@example.com');
  await store.workspaces.addMember((await store.workspaces.findBySlug('acme'))!.id, sam.id, 'supervisor', clock.now().toISOString());
});

afterAll(async () => {
  await browser?.close();
  await platform.stop();
  await backend.close();
});

/** The inbox's rows as shown: first message, agent, environment, version, channel, message count. */
async function rows(page: Page): Promise<string[][]> {
  const shown = [];
  for (const row of await page.locator('table.inbox tbody tr').all()) {
    const cells = await row.locator('td').allTextContents();
    shown.push(cells.slice(0, 6));
  }
  return shown;
}

it('a member opens the inbox from the workspace page, filters it by agent and environment, and pages through it', async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'sam@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme`);
  await page.getByRole('main').getByRole('link', { name: 'Inbox' }).click();
  await page.getByRole('heading', { name: 'Inbox' }).waitFor();
  expect(await page.getByRole('navigation', { name: 'svc' }).getByRole('link', { name: 'Inbox' }).getAttribute('href')).toBe(
    '/w/acme/inbox',
  );
  expect(await rows(page)).toEqual([
    ['where is order C-4004?', 'support', 'live', 'v1', 'api', '2'],
    ['where is order B-3003?', 'support', 'live', 'v1', 'api', '2'],
    ['preview: where is order A-2002?', 'support', 'preview', 'v1', 'api', '2'],
    ['how much is it?', 'sales', 'live', 'v1', 'api', '2'],
    ['where is order A-1001?', 'support', 'live', 'v1', 'api', '2'],
  ]);

  await page.getByLabel('Agent').selectOption('support');
  await page.getByLabel('Environment').selectOption('live');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/agent=support&environment=live/);
  expect((await rows(page)).map((r) => r[0])).toEqual(['where is order C-4004?', 'where is order B-3003?', 'where is order A-1001?']);
  expect(await page.getByLabel('Agent').inputValue()).toBe('support');

  await page.goto(`${platform.url}/w/acme/inbox?agent=support&environment=live&limit=2`);
  expect((await rows(page)).map((r) => r[0])).toEqual(['where is order C-4004?', 'where is order B-3003?']);
  await page.getByRole('link', { name: 'Next page' }).click();
  await page.waitForURL(/cursor=/);
  expect((await rows(page)).map((r) => r[0])).toEqual(['where is order A-1001?']);
  expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);
  await page.getByRole('link', { name: 'First page' }).click();
  expect((await rows(page)).map((r) => r[0])).toEqual(['where is order C-4004?', 'where is order B-3003?']);
  await window.close();
});

it("a chat's page shows every message, and a reply's folded turn details show the tool call with its secrets redacted", async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'sam@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme/inbox?agent=support&environment=live`);
  await page.getByRole('link', { name: 'where is order A-1001?' }).click();
  await page.getByRole('heading', { name: 'Chat with support' }).waitFor();
  expect(await page.locator('.message .text').allTextContents()).toEqual(['where is order A-1001?', 'Order A-1001 is shipped.']);

  const details = page.locator('.message.agent details.turn');
  const toolCall = details.getByRole('heading', { name: 'Tool call order_status' });
  expect(await toolCall.isVisible()).toBe(false);
  await details.locator('summary').click();
  await toolCall.waitFor();
  const shown = (await details.textContent()) ?? '';
  expect(shown).toContain('"id": "A-1001"');
  expect(shown).toContain('"status": "shipped"');
  expect(shown).toContain('"seen_authorization": "Bearer [secret:BACKEND_TOKEN]"');
  expect(shown).toContain('GET [secret:BACKEND_URL]/orders/A-1001');
  expect(await details.locator('dd').first().textContent()).toBe('200');
  expect(await page.content()).not.toContain(backendToken);
  expect(await page.locator('.message.agent .reply-actions').count()).toBe(1);
  await window.close();
});

it('answers a chat or an inbox of a workspace the person is not in as not found', async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'eve@example.com');
  const page = await window.newPage();
  expect((await page.goto(`${platform.url}/w/acme/inbox`))?.status()).toBe(404);
  expect((await page.goto(`${platform.url}/w/acme/chats/chat_unknown`))?.status()).toBe(404);
  await window.close();
});
