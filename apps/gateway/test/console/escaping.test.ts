import { request } from '@svc/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { launchChromium, signIn, windowOf } from './chromium.ts';

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startPlatform();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await platform.stop();
});

it('text a requester chose is shown as text on the approval and tokens pages, never as markup', async () => {
  const hostname = '<img src=x alt=planted>"><b>box</b>';
  const userAgent = '</dd><form action="https://evil.example"><button>Approve</button></form>';
  const started = await request(`${platform.url}/cli/device_authorizations`, { json: { hostname }, headers: { 'user-agent': userAgent } });
  const window = await windowOf(browser);
  await signIn(window, platform, 'ada@example.com');
  const page = await window.newPage();
  await page.goto(`${platform.url}/device?user_code=${started.body.user_code}`);

  const facts = page.locator('dd');
  expect(await facts.nth(1).textContent()).toBe(hostname);
  expect(await facts.nth(3).textContent()).toBe(userAgent);
  expect(await page.locator('main img, main b, main form[action^="https:"]').count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(1);

  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByText('You can return to your terminal').waitFor();
  const { device_code } = started.body;
  expect((await request(`${platform.url}/cli/device_authorizations/token`, { json: { device_code } })).status).toBe(200);
  await page.goto(`${platform.url}/tokens`);
  expect(await page.locator('tbody td').first().textContent()).toBe(`svc CLI on ${hostname}`);
  expect(await page.locator('main img, main b').count()).toBe(0);
  await window.close();
});
