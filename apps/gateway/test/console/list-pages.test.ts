import { request } from '@svc/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { launchChromium, signIn, windowOf } from './chromium.ts';

const files = {
  'svc.yaml': 'workspace: acme\n',
  'agents/sales/agent.yaml': 'name: Sales\nmodel: scripted\nscripted:\n  rules: []\n  fallback: Hello from sales.\n',
  'agents/sales/instructions.md': 'Sell.',
};

let platform: TestPlatform;
let browser: Browser;
let token: string;
let chatId: string;
/** The flags of sales' replies, oldest first: the first two with a note (each makes a case), the third without. */
const flags: string[] = [];
/** Sales' cases, oldest first: two added by hand, then the flags' two. */
const cases: string[] = [];

const api = (path: string, init: Parameters<typeof request>[1] = {}) =>
  request(`${platform.url}/api/developer/v1/acme${path}`, { token, ...init });

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchChromium();
  token = await createUserWithToken(platform, 'ada@example.com');
  expect((await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme' } })).status).toBe(201);
  expect((await api('/deployments', { json: { environment: 'live', files } })).status).toBe(201);
  for (const expected of ['Says "one".', 'Says "two".'])
    cases.push((await api('/evals/cases', { json: { agent: 'sales', turns: ['hi'], expected } })).body.id);
  chatId = (await request(`${platform.url}/api/v1/acme/chats`, { token, json: { agent: 'sales' } })).body.chat_id;
  for (const note of ['Say "three".', 'Say "four".', null]) {
    const sent = await request(`${platform.url}/api/v1/acme/chats/${chatId}/messages`, { token, json: { text: 'hello' } });
    const flagged = (await api('/flags', { json: { message_id: sent.body.message_id, note } })).body;
    flags.push(flagged.id);
    if (flagged.eval_case_id) cases.push(flagged.eval_case_id);
  }
});
afterAll(async () => {
  await browser?.close();
  await platform.stop();
});

it("an agent's eval cases page shows a page of cases, oldest first, and the next page links a flag's case to its reply", async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme/agents/sales/evals?limit=3`);
  const shown = async () => Promise.all((await page.locator('.eval-case').all()).map((item) => item.getAttribute('id')));
  expect(await shown()).toEqual(cases.slice(0, 3));
  expect(await page.getByRole('link', { name: 'First page' }).count()).toBe(0);

  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Next page' }).click();
  await page.waitForURL(/cursor=/);
  expect(await shown()).toEqual(cases.slice(3));
  const link = page.locator(`[id="${cases[3]}"]`).getByRole('link', { name: 'From a flag' });
  expect(await link.getAttribute('href')).toMatch(new RegExp(`^/w/acme/chats/${chatId}#msg_`));
  expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);
  await page.getByRole('link', { name: 'First page' }).click();
  await page.waitForURL((url) => !url.search.includes('cursor'));
  expect(await shown()).toEqual(cases.slice(0, 3));

  const bad = await page.goto(`${platform.url}/w/acme/agents/sales/evals?limit=0`);
  expect(bad?.status()).toBe(400);
  expect(await page.textContent('main')).toContain('limit');
  await window.close();
});

it("the flags page shows one state's flags a page at a time, oldest first", async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme/flags?limit=2`);
  const notes = () => page.getByRole('region', { name: 'Open' }).locator('.note').allTextContents();
  expect(await notes()).toEqual(['Say "three".', 'Say "four".']);
  await page.getByRole('link', { name: 'Next page' }).click();
  await page.waitForURL(/cursor=/);
  expect(await notes()).toEqual(['No note.']);
  expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);

  expect((await api(`/flags/${flags[0]}`, { method: 'DELETE' })).status).toBe(204);
  await page.getByRole('navigation', { name: 'States' }).getByRole('link', { name: 'Removed' }).click();
  expect(await page.getByRole('region', { name: 'Removed' }).locator('.flag').count()).toBe(1);
  const bad = await page.goto(`${platform.url}/w/acme/flags?status=closed`);
  expect(bad?.status()).toBe(400);
  expect(await page.textContent('main')).toContain('status');
  await window.close();
});
