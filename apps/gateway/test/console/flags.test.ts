import { request } from '@svc/testkit';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemberWithToken, createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
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
let token: string;
let chatId: string;

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchChromium();
  token = await createUserWithToken(platform, 'ada@example.com');
  const call = (path: string, json?: object) => request(`${platform.url}${path}`, { token, json });
  await call('/cli/workspaces', { slug: 'acme' });
  expect((await call('/api/developer/v1/acme/deployments', { environment: 'live', files })).status).toBe(201);
  chatId = (await call('/api/v1/acme/chats', { agent: 'sales', environment: 'live' })).body.chat_id;
  expect((await call(`/api/v1/acme/chats/${chatId}/messages`, { text: 'how much is it?' })).status).toBe(201);
  const other = (await call('/api/v1/acme/chats', { agent: 'sales', environment: 'live' })).body.chat_id;
  expect((await call(`/api/v1/acme/chats/${other}/messages`, { text: 'do you ship abroad?' })).status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await platform.stop();
});

const api = (path: string) => request(`${platform.url}${path}`, { token });
const reply = (page: Page) => page.locator('.message.agent');
const flags = async (status: string) =>
  (await api(`/api/developer/v1/acme/flags?status=${status}`)).body.flags as { note: string | null }[];
const digest = async () => String((await api('/api/developer/v1/acme/flags.md')).body);
/** A computed style of an element, as the page draws it (read in the browser, where getComputedStyle is). */
type Styles = { getComputedStyle(element: unknown): Record<string, string> };
const styleOf = (element: Locator, property: 'borderLeftColor' | 'backgroundColor') =>
  element.evaluate((e, p) => (globalThis as unknown as Styles).getComputedStyle(e)[p]!, property);
const borderColour = (element: Locator) => styleOf(element, 'borderLeftColor');
const red = 'rgb(170, 0, 0)';
const green = 'rgb(26, 127, 55)';
const unmarked = 'rgb(221, 221, 221)';
/** Opens the reply's flag form, types the note and saves it. */
async function flagReply(page: Page, text: string): Promise<void> {
  await reply(page).locator('summary', { hasText: 'Flag' }).click();
  await reply(page)
    .getByLabel(/What should the agent have said/)
    .fill(text);
  await reply(page).getByRole('button', { name: 'Save flag' }).click();
}

it('a member flags a reply with a note, edits the note and removes the flag, and the API and the digest follow', async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme`);
  expect(await page.getByRole('main').getByRole('link', { name: 'Flags' }).getAttribute('href')).toBe('/w/acme/flags');
  await page.goto(`${platform.url}/w/acme/inbox`);
  await page.getByRole('link', { name: 'how much is it?' }).click();
  await page.getByRole('heading', { name: 'Chat with sales' }).waitFor();

  // The form opens from the reply's Flag button; until then the reply shows no note box, and is not marked.
  const noteBox = reply(page).getByLabel(/What should the agent have said/);
  expect(await noteBox.isVisible()).toBe(false);
  expect(await borderColour(reply(page))).toBe(unmarked);
  await reply(page).locator('summary', { hasText: 'Flag' }).click();
  await noteBox.fill(note);
  await reply(page).getByRole('button', { name: 'Save flag' }).click();
  const flag = reply(page).getByRole('region', { name: 'Flag', exact: true });
  await flag.waitFor();
  expect(await flag.locator('.flag-state').textContent()).toBe('Open');
  // A flagged reply is marked in red, its state too.
  expect(await borderColour(reply(page))).toBe(red);
  expect(await styleOf(flag.locator('.flag-state'), 'backgroundColor')).toBe(red);
  expect(await flag.getByLabel('Note').inputValue()).toBe(note);
  expect(await flag.locator('.flag-history li').allTextContents()).toEqual([
    expect.stringMatching(/^ada@example.com: new → open, note added · /),
  ]);
  expect(await reply(page).locator('summary', { hasText: 'Flag' }).count()).toBe(0);
  expect((await flags('open')).map((f) => f.note)).toEqual([note]);
  expect(await digest()).toContain(note);

  await flag.getByLabel('Note').fill(editedNote);
  await flag.getByRole('button', { name: 'Edit note' }).click();
  await page.waitForURL(new RegExp(`/w/acme/chats/${chatId}`));
  expect(await reply(page).getByRole('region', { name: 'Flag', exact: true }).getByLabel('Note').inputValue()).toBe(editedNote);
  expect(await reply(page).locator('.flag-history li').nth(1).textContent()).toMatch(/^ada@example.com: open → open, note edited · /);
  expect((await flags('open')).map((f) => f.note)).toEqual([editedNote]);
  expect(await digest()).toContain(editedNote);

  // Removing asks first: the page shows the note and changes nothing; Cancel goes back, the button removes.
  await reply(page).getByRole('link', { name: 'Remove flag' }).click();
  await page.getByRole('heading', { name: 'Remove this flag?' }).waitFor();
  expect(await page.locator('.note').textContent()).toBe(editedNote);
  await page.getByRole('link', { name: 'Cancel' }).click();
  await reply(page).getByRole('link', { name: 'Remove flag' }).waitFor();
  expect((await flags('open')).map((f) => f.note)).toEqual([editedNote]);
  await reply(page).getByRole('link', { name: 'Remove flag' }).click();
  await page.getByRole('button', { name: 'Remove this flag' }).click();
  const removed = reply(page).getByRole('region', { name: 'Removed flag' });
  await removed.waitFor();
  expect(await removed.locator('.flag-history').textContent()).toContain('open → removed');
  expect(await reply(page).locator('summary', { hasText: 'Flag' }).count()).toBe(1);
  expect(await borderColour(reply(page))).toBe(unmarked);
  expect(await flags('open')).toEqual([]);
  expect((await flags('removed')).map((f) => f.note)).toEqual([editedNote]);
  expect(await digest()).not.toContain(editedNote);

  await page.getByRole('navigation', { name: 'svc' }).getByRole('link', { name: 'Flags' }).click();
  await page.getByRole('heading', { name: 'Flags', exact: true }).waitFor();
  expect(await page.getByRole('region', { name: 'Open' }).textContent()).toContain('No open flags.');
  await page.getByRole('navigation', { name: 'States' }).getByRole('link', { name: 'Removed' }).click();
  const removedSection = page.getByRole('region', { name: 'Removed' });
  expect(await removedSection.locator('.note').textContent()).toBe(editedNote);
  // The note is each flag's main text: first, and larger than the reply it is about and the facts.
  const fontSize = (selector: string) =>
    page.evaluate<number>(`parseFloat(getComputedStyle(document.querySelector('section[aria-label="Removed"] ${selector}')).fontSize)`);
  const [noteSize, replySize, metaSize] = [await fontSize('.note'), await fontSize('.reply'), await fontSize('.meta')];
  expect(noteSize).toBeGreaterThan(replySize);
  expect(noteSize).toBeGreaterThan(metaSize);
  expect(await removedSection.locator('.flag > *').first().getAttribute('class')).toBe('note');
  await removedSection.getByRole('link', { name: 'Our plans start at 10 USD.' }).click();
  await page.getByRole('heading', { name: 'Chat with sales' }).waitFor();
  await window.close();
});

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
});

it("the inbox's flagged-only filter shows only the chats marked as flagged", async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme/chats/${chatId}`);
  await flagReply(page, '');
  await reply(page).getByRole('region', { name: 'Flag', exact: true }).waitFor();

  await page.goto(`${platform.url}/w/acme/inbox`);
  const firstLines = () => page.locator('table.inbox tbody tr td:first-child').allTextContents();
  expect(await firstLines()).toEqual(['do you ship abroad?', 'how much is it?']);
  await page.getByLabel('Flagged only').check();
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/flagged=true/);
  expect(await firstLines()).toEqual(['how much is it?']);
  expect(await page.getByLabel('Flagged only').isChecked()).toBe(true);
  expect(await page.locator('table.inbox .flag-marker').count()).toBe(1);
  const listed = (await api('/api/developer/v1/acme/chats?flagged=true')).body as { chats: { chat_id: string }[] };
  expect(listed.chats.map((c) => c.chat_id)).toEqual([chatId]);
  expect((await api('/api/developer/v1/acme/chats?flagged=false')).body.chats).toHaveLength(2);
  expect((await api('/api/developer/v1/acme/chats?flagged=yes')).status).toBe(400);
  await window.close();
});

it('a fixed flag shows the version that fixed it, in place and on the flags page; editing its note opens it again', async () => {
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme/inbox`);
  await page.getByRole('link', { name: 'do you ship abroad?' }).click();
  await flagReply(page, 'Say that we ship to the EU.');
  await reply(page).getByRole('region', { name: 'Flag', exact: true }).waitFor();
  const { flags: openFlags } = (await api('/api/developer/v1/acme/flags')).body as {
    flags: { id: string; note: string | null; version: { id: string } }[];
  };
  const noted = openFlags.find((f) => f.note === 'Say that we ship to the EU.')!;
  // The version that gave the reply fixes nothing; the next one does.
  await platform.core.services.flags.markFixed(noted.id, noted.version.id, '2026-03-02T07:00:00.000Z');
  await page.reload();
  expect(await reply(page).locator('.flag-state').textContent()).toBe('Open');
  const next = { ...files, 'agents/sales/instructions.md': 'Sell, politely.' };
  const deployed = await request(`${platform.url}/api/developer/v1/acme/deployments`, {
    token,
    json: { environment: 'live', files: next },
  });
  expect(deployed.body.version.number).toBe(2);
  await platform.core.services.flags.markFixed(noted.id, deployed.body.version.id, '2026-03-02T08:00:00.000Z');

  await page.reload();
  const flag = reply(page).getByRole('region', { name: 'Flag', exact: true });
  expect(await flag.locator('.flag-state').textContent()).toBe('Fixed in v2 (2026-03-02 08:00 UTC)');
  expect(await borderColour(reply(page))).toBe(green);
  expect(await flag.locator('.flag-history li').last().textContent()).toMatch(/^svc: open → fixed · /);
  await page.goto(`${platform.url}/w/acme/flags`);
  expect(await page.getByRole('region', { name: 'Open' }).getByText('Say that we ship to the EU.').count()).toBe(0);
  await page.getByRole('navigation', { name: 'States' }).getByRole('link', { name: 'Fixed' }).click();
  expect(await page.getByRole('region', { name: 'Fixed' }).locator('.note').textContent()).toBe('Say that we ship to the EU.');

  await page.getByRole('region', { name: 'Fixed' }).getByRole('link', { name: 'Our plans start at 10 USD.' }).click();
  await flag.getByLabel('Note').fill('Say that we ship to the EU and the UK.');
  await flag.getByRole('button', { name: 'Edit note' }).click();
  await page.waitForURL(/\/chats\//);
  expect(await reply(page).getByRole('region', { name: 'Flag', exact: true }).locator('.flag-state').textContent()).toBe('Open');
  await window.close();
});

it('flagging a reply with a note it already meets shows why before saving; the supervisor saves it anyway or changes the note', async () => {
  await createMemberWithToken(platform, 'acme', 'sam@example.com', 'supervisor');
  const chat = (await request(`${platform.url}/api/v1/acme/chats`, { token, json: { agent: 'sales', environment: 'live' } })).body.chat_id;
  expect(
    (await request(`${platform.url}/api/v1/acme/chats/${chat}/messages`, { token, json: { text: 'what does it cost?' } })).status,
  ).toBe(201);
  const met = '"Our plans start at 10 USD." Do not lead with the price.';
  const window = await windowOf(browser);
  await signIn(window, platform, 'sam@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme/chats/${chat}`);
  const ofChat = async () => ((await flags('all')) as { chat_id: string; note: string | null }[]).filter((f) => f.chat_id === chat);

  await flagReply(page, met);
  const warning = reply(page).getByRole('alert');
  await warning.waitFor();
  expect(await warning.textContent()).toContain('this reply already says "Our plans start at 10 USD."; the case would pass as it is');
  // Nothing saved: the form stays open with the note, and its button now saves it all the same.
  expect(await ofChat()).toEqual([]);
  expect(await reply(page).getByRole('region', { name: 'Flag', exact: true }).count()).toBe(0);
  expect(
    await reply(page)
      .getByLabel(/What should the agent have said/)
      .inputValue(),
  ).toBe(met);
  await reply(page).getByRole('button', { name: 'Flag anyway' }).click();
  await reply(page).getByRole('region', { name: 'Flag', exact: true }).waitFor();
  expect((await ofChat()).map((f) => f.note)).toEqual([met]);
  await window.close();
});

it("the console serves the flags digest as flags.md to its members, the same text as the API's; others sign in first", async () => {
  const window = await windowOf(browser);
  const signedOut = await window.request.get(`${platform.url}/w/acme/flags.md`, { maxRedirects: 0 });
  expect([signedOut.status(), signedOut.headers().location]).toEqual([303, `/login?next=${encodeURIComponent('/w/acme/flags.md')}`]);
  await signIn(window, platform, 'ada@example.com');
  const served = await window.request.get(`${platform.url}/w/acme/flags.md`);
  expect(served.headers()['content-type']).toBe('text/markdown; charset=utf-8');
  expect(await served.text()).toBe(await digest());
  await window.close();
});

it("a supervisor is offered to change only the flags and cases they made; on others' the page says who may", async () => {
  const sue = await createMemberWithToken(platform, 'acme', 'sue@example.com', 'supervisor');
  const as = (who: string, path: string, json: object) => request(`${platform.url}${path}`, { token: who, json });
  const chat = (await as(token, '/api/v1/acme/chats', { agent: 'sales', environment: 'live' })).body.chat_id;
  const sent = await as(token, `/api/v1/acme/chats/${chat}/messages`, { text: 'is there a discount?' });
  const flagged = await as(token, '/api/developer/v1/acme/flags', {
    message_id: sent.body.message_id,
    note: 'Mention the yearly discount.',
  });
  expect(flagged.status).toBe(201);
  const theirs = await as(token, '/api/developer/v1/acme/evals/cases', { agent: 'sales', turns: ['hi'], expected: 'Greets back.' });
  const own = await as(sue, '/api/developer/v1/acme/evals/cases', { agent: 'sales', turns: ['hello'], expected: 'Says hello.' });
  expect([theirs.status, own.status]).toEqual([201, 201]);

  const window = await windowOf(browser);
  await signIn(window, platform, 'sue@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/w/acme/chats/${chat}`);
  const flag = reply(page).getByRole('region', { name: 'Flag', exact: true });
  expect(await flag.locator('.flag-note').textContent()).toBe('Note: Mention the yearly discount.');
  expect(await flag.textContent()).toContain('Only ada@example.com or a developer changes this flag.');
  expect(await flag.getByRole('button', { name: 'Edit note' }).count()).toBe(0);
  expect(await flag.getByRole('link', { name: 'Remove flag' }).count()).toBe(0);

  await page.goto(`${platform.url}/w/acme/agents/sales/evals`);
  const caseOf = (id: string) => page.locator(`li.eval-case[id="${id}"]`);
  expect(await caseOf(theirs.body.id).textContent()).toContain('Only ada@example.com or a developer changes it.');
  expect(await caseOf(theirs.body.id).getByRole('button', { name: 'Delete' }).count()).toBe(0);
  expect(await caseOf(own.body.id).getByRole('button', { name: 'Delete' }).count()).toBe(1);
  await window.close();
});
