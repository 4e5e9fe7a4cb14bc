import { request } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { launchChromium, signIn, windowOf } from './chromium.ts';

let platform: TestPlatform;
let browser: Browser;
// A token's last use is written at most once a minute: tests move this clock instead of waiting.
let now = Date.parse('2026-06-01T12:00:00.000Z');

beforeAll(async () => {
  platform = await startPlatform({ clock: () => new Date(now) });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await platform.stop();
});

/** A token of the person's, issued as `svc login` does; `use` makes a request with it, as the CLI does. */
async function tokenOf(email: string, name: string) {
  const { identity } = platform.core.services;
  const user = await identity.findOrCreateUser(email);
  const { token } = await identity.issueToken(user.id, name);
  const whoami = () => request(`${platform.url}/cli/whoami`, { token });
  return { use: async () => expect((await whoami()).status).toBe(200), works: async () => (await whoami()).status === 200 };
}

const markedInUse = (page: Page) => page.locator('tbody tr[aria-current="true"]');

it('the tokens page marks the token that made the latest request as in use', async () => {
  const laptop = await tokenOf('ada@example.com', 'svc CLI on laptop');
  const server = await tokenOf('ada@example.com', 'svc CLI on build-server');
  await tokenOf('ada@example.com', 'svc CLI on old-box');
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();

  await page.goto(`${platform.url}/tokens`);
  expect(await markedInUse(page).count()).toBe(0); // none used yet

  await laptop.use();
  now += 120_000;
  await server.use();
  await page.reload();
  expect(await markedInUse(page).count()).toBe(1);
  expect(await markedInUse(page).textContent()).toContain('svc CLI on build-server');
  expect(await markedInUse(page).locator('.badge').textContent()).toBe('in use');

  now += 120_000;
  await laptop.use();
  await page.reload();
  expect(await markedInUse(page).count()).toBe(1);
  expect(await markedInUse(page).textContent()).toContain('svc CLI on laptop');
  await window.close();
});

it('revoking asks first on a page of its own; showing it, or cancelling, changes nothing', async () => {
  const laptop = await tokenOf('bob@example.com', 'laptop');
  const server = await tokenOf('bob@example.com', 'build-server');
  const window = await windowOf(browser);
  await signIn(window, platform, 'bob@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/tokens`);

  await page
    .getByRole('row', { name: /laptop/ })
    .getByRole('link', { name: 'Revoke' })
    .click();
  await page.getByRole('heading', { name: 'Revoke laptop?' }).waitFor();
  expect(page.url()).toMatch(/\/tokens\/tok_\w+\/revoke$/);
  await page.reload();
  await request(page.url(), { method: 'HEAD', headers: { cookie: await cookieHeader(page) } });
  expect(await laptop.works()).toBe(true);

  await page.getByRole('link', { name: 'Cancel' }).click();
  await page.waitForURL(`${platform.url}/tokens`);
  expect(await laptop.works()).toBe(true);

  await page
    .getByRole('row', { name: /laptop/ })
    .getByRole('link', { name: 'Revoke' })
    .click();
  await page.getByRole('button', { name: 'Revoke this token' }).click();
  await page.waitForURL(`${platform.url}/tokens`);
  expect(await page.getByRole('row', { name: /laptop/ }).count()).toBe(0);
  expect(await page.getByRole('row', { name: /build-server/ }).count()).toBe(1);
  expect(await laptop.works()).toBe(false);
  expect(await server.works()).toBe(true);
  await window.close();
});

it('a revoke without the session CSRF token is refused and revokes nothing', async () => {
  const spare = await tokenOf('cy@example.com', 'spare');
  const window = await windowOf(browser);
  await signIn(window, platform, 'cy@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/tokens`);
  await page.getByRole('row', { name: /spare/ }).getByRole('link', { name: 'Revoke' }).click();
  const form = await request(page.url(), {
    method: 'POST',
    headers: { cookie: await cookieHeader(page), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'csrf_token=forged',
  });
  expect(form.status).toBe(403);
  expect(await spare.works()).toBe(true);
  await window.close();
});

it("a revoke another site's page makes the browser send is refused, even with the session's CSRF token", async () => {
  const spare = await tokenOf('cy@example.com', 'other-site');
  const window = await windowOf(browser);
  await signIn(window, platform, 'cy@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/tokens`);
  await page
    .getByRole('row', { name: /other-site/ })
    .getByRole('link', { name: 'Revoke' })
    .click();
  const csrf = await page.locator('input[name=csrf_token]').first().getAttribute('value');
  const post = (headers: Record<string, string>) =>
    request(page.url(), {
      method: 'POST',
      headers: { ...headers, cookie: cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf_token=${encodeURIComponent(csrf ?? '')}`,
    });
  const cookie = await cookieHeader(page);
  // Fetch Metadata, and from a browser without it, Origin.
  const otherSites: Record<string, string>[] = [
    { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    { 'sec-fetch-site': 'same-site' },
    { origin: 'https://evil.example' },
  ];
  for (const from of otherSites) {
    const refused = await post(from);
    expect(refused.status, JSON.stringify(from)).toBe(403);
    expect(await spare.works()).toBe(true);
  }
  expect((await post({ 'sec-fetch-site': 'same-origin', origin: 'null' })).status).toBeLessThan(400);
  expect(await spare.works()).toBe(false);
  await window.close();
});

const cookieHeader = async (page: Page) => (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
