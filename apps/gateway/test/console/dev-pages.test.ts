import { request } from '@svc/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { flagsWorkspace } from '../flags/setup.ts';
import { launchChromium, windowOf } from './chromium.ts';

let platform: TestPlatform;
let browser: Browser;
let token: string;

beforeAll(async () => {
  platform = await startPlatform({ localMode: true });
  browser = await launchChromium();
  token = await createUserWithToken(platform, 'ada@example.com');
  await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme' } });
  await request(`${platform.url}/api/developer/v1/acme/sender`, { token, method: 'PUT', json: { kind: 'dev' } });
});

afterAll(async () => {
  await browser?.close();
  await platform.stop();
});

it('the dev outbox shows each code in its own element, and that code verifies the number', async () => {
  const created = await request(`${platform.url}/api/v1/acme/phone_verifications`, { token, json: { phone_number: '+56912345678' } });
  expect(created.status).toBe(201);
  const window = await windowOf(browser);
  const page = await window.newPage();
  await page.goto(`${platform.url}/dev/outbox`);
  const code = page.locator('code.otp');
  await expect.poll(async () => (await page.reload(), await code.count())).toBe(1);
  const shown = (await code.textContent()) ?? '';
  expect(shown).toMatch(/^\d{6}$/);
  expect(await page.locator('.card').textContent()).toContain(`${shown} is your verification code`);

  const verified = await request(`${platform.url}/api/v1/acme/phone_verifications/${created.body.verification_id}/verify`, {
    token,
    json: { code: shown },
  });
  expect(verified.body.verified).toBe(true);
  await window.close();
});

it('the dev mailbox shows mailed links as links; following one signs in and lands on the approval page', async () => {
  const started = await request(`${platform.url}/cli/device_authorizations`, { json: { email: 'dev@example.com' } });
  expect(started.body.email_sent).toBe(true);
  const window = await windowOf(browser);
  const page = await window.newPage();
  await page.goto(`${platform.url}/dev/mailbox`);
  const link = page.getByRole('link', { name: /\/auth\/link\// });
  await expect.poll(async () => (await page.reload(), await link.count())).toBe(1);
  expect(await link.getAttribute('href')).toMatch(new RegExp(`^${platform.url}/auth/link/[\\w-]+$`));

  await link.click();
  await page.getByRole('button', { name: 'Continue as dev@example.com' }).click();
  await page.waitForURL(`${platform.url}/device?user_code=${started.body.user_code}`);
  expect(await page.locator('.code').textContent()).toBe(started.body.user_code);
  await window.close();
});

it('the dev mailbox’s button runs the daily digest now and lands back on the mailbox, which shows its mail', async () => {
  const digesto = await flagsWorkspace(platform, 'digesto');
  const { replies } = await digesto.conversation(['where is my order?']);
  expect((await digesto.flags('', { json: { message_id: replies[0], note: 'Ask for the <order> number first.' } })).status).toBe(201);
  const { store } = platform.core.services;
  const at = new Date().toISOString();
  await store.githubLinks.create({ workspaceId: digesto.workspaceId, repository: 'digesto/bot', createdBy: 'usr_x', createdAt: at });
  await store.githubInstallations.sync(7, ['digesto/bot'], [], at);
  const window = await windowOf(browser);
  const page = await window.newPage();
  await page.goto(`${platform.url}/dev/mailbox`);
  const run = page.getByRole('button', { name: 'Run the daily digest now' });
  await run.click();
  await page.waitForURL(new RegExp(`^${platform.url}/dev/mailbox\\?digest=`));
  expect(await page.getByRole('status').textContent()).toMatch(
    /^The daily digest ran for \d{4}-\d{2}-\d{2}: mailed digesto\. The GitHub App brings the service-flags issue of digesto\/bot up to date\.$/,
  );
  const mail = page.locator('.card', { has: page.getByRole('heading', { name: '1 new flagged reply in digesto' }) });
  await expect.poll(async () => (await page.reload(), await mail.count())).toBe(1);
  const text = (await mail.locator('pre.mail').textContent()) ?? '';
  expect(text).toContain('- support: Ask for the <order> number first.');
  expect(text).toContain('svc flags --save flags.md');
  const inbox = mail.getByRole('link', { name: `${platform.url}/w/digesto/inbox?flagged=true` });
  expect(await inbox.count()).toBe(1);

  // Pressed again the same day: nothing flagged since that mail, so no second one.
  await run.click();
  await page.waitForURL(new RegExp(`^${platform.url}/dev/mailbox\\?digest=`));
  expect(await page.getByRole('status').textContent()).toContain('no workspace has replies flagged since its last digest mail.');
  await window.close();
});

// Last: its mail would be one more in the mailbox the tests above count.
it('after asking for a sign-in link, the page points to the dev mailbox, whose link signs in', async () => {
  const window = await windowOf(browser);
  const page = await window.newPage();
  await page.goto(`${platform.url}/login`);
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByRole('button', { name: 'Mail me a link' }).click();
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
  await page.getByRole('link', { name: 'dev mailbox' }).click();
  await page.waitForURL(`${platform.url}/dev/mailbox`);
  const link = page.getByRole('link', { name: /\/auth\/link\// });
  await expect.poll(async () => (await page.reload(), await link.count())).toBeGreaterThan(0);
  await link.first().click();
  await page.getByRole('button', { name: 'Continue as grace@example.com' }).click();
  await page.waitForURL(`${platform.url}/`);
  await window.close();
});
