import { request } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../../testing/platform.ts';
import { launchChromium, signIn, windowOf } from './chromium.ts';

const files = {
  'svc.yaml': 'workspace: acme\n',
  'agents/sales/agent.yaml': 'name: Sales\nmodel: scripted\nscripted:\n  rules: []\n  fallback: Our plans start at 10 USD.\n',
  'agents/sales/instructions.md': 'Sell.',
};
const note = 'Say that plans start at 12 USD since March, and link the pricing page.';
const editedNote = 'Plans start at 12 USD; mention the yearly discount.';

let platform: TestPlatform;
let browser: Browser;
let api: (path: string) => ReturnType<typeof request>;
let chatId: string;

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchChromium();
  const token = await createUserWithToken(platform, 'ada@example.com');
  const call = (path: string, json?: object) => request(`${platform.url}${path}`, { token, json });
  api = (path) => call(path);
  await call('/cli/workspaces', { slug: 'acme' });
  expect((await call('/api/developer/v1/acme/deployments', { environment: 'live', files })).status).toBe(201);
  chatId = (await call('/api/v1/acme/chats', { agent: 'sales', environment: 'live' })).body.chat_id;
  expect((await call(`/api/v1/acme/chats/${chatId}/messages`, { text: 'how much is it?' })).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await platform.stop();
});

const reply = (page: Page) => page.locator('.message.agent');
const flags = async (status: string) =>
  (await api(`/api/developer/v1/acme/flags?status=${status}`)).body.flags as { note: string | null }[];
const digest = async () => String((await api('/api/developer/v1/acme/flags.md')).body);

it('a member flags a reply with a note, edits the note and removes the flag, and the API and the digest follow', async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme/inbox`);
  await page.getByRole('link', { name: 'how much is it?' }).click();
  await page.getByRole('heading', { name: 'Chat with sales' }).waitFor();

  await reply(page)
    .getByLabel(/What should the agent have said/)
    .fill(note);
  await reply(page).getByRole('button', { name: 'Flag' }).click();
  const flag = reply(page).getByRole('region', { name: 'Flag', exact: true });
  await flag.waitFor();
  expect(await flag.locator('.flag-state').textContent()).toBe('Open');
  expect(await flag.getByLabel('Note').inputValue()).toBe(note);
  expect(await flag.locator('.flag-history').textContent()).toContain('ada@example.com: new → open');
  expect(await reply(page).getByRole('button', { name: 'Flag', exact: true }).count()).toBe(0);
  expect((await flags('open')).map((f) => f.note)).toEqual([note]);
  expect(await digest()).toContain(note);

  await flag.getByLabel('Note').fill(editedNote);
  await flag.getByRole('button', { name: 'Edit note' }).click();
  await page.waitForURL(new RegExp(`/w/acme/chats/${chatId}`));
  expect(await reply(page).getByRole('region', { name: 'Flag', exact: true }).getByLabel('Note').inputValue()).toBe(editedNote);
  expect((await flags('open')).map((f) => f.note)).toEqual([editedNote]);
  expect(await digest()).toContain(editedNote);

  await reply(page).getByRole('button', { name: 'Remove flag' }).click();
  const removed = reply(page).getByRole('region', { name: 'Removed flag' });
  await removed.waitFor();
  expect(await removed.locator('.flag-history').textContent()).toContain('open → removed');
  expect(await reply(page).getByRole('button', { name: 'Flag', exact: true }).count()).toBe(1);
  expect(await flags('open')).toEqual([]);
  expect((await flags('removed')).map((f) => f.note)).toEqual([editedNote]);
  expect(await digest()).not.toContain(editedNote);

  await page.getByRole('navigation', { name: 'svc' }).getByRole('link', { name: 'Flags' }).click();
  await page.getByRole('heading', { name: 'Flags', exact: true }).waitFor();
  const removedSection = page.getByRole('region', { name: 'Removed' });
  expect(await removedSection.locator('.note').textContent()).toBe(editedNote);
  expect(await page.getByRole('region', { name: 'Open' }).textContent()).toContain('No open flags.');
  await removedSection.getByRole('link', { name: 'Our plans start at 10 USD.' }).click();
  await page.getByRole('heading', { name: 'Chat with sales' }).waitFor();
  await window.close();
}, 90_000);

it('a flag of an unknown reply answers as the console error page', async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme/chats/${chatId}`);
  const csrf = await page.locator('input[name=csrf_token]').first().getAttribute('value');
  const answer = await page.request.post(`${platform.url}/w/acme/chats/${chatId}/flags`, {
    form: { csrf_token: csrf ?? '', message_id: 'msg_unknown', note: 'x' },
  });
  expect(answer.status()).toBe(404);
  expect(await answer.text()).toContain('That did not work');
  await window.close();
}, 60_000);
