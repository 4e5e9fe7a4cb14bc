import { BrowserSession, formField, linkIn, type SmtpCapture, startSmtpCapture } from '@svc/testkit';
import { atOnce } from '../at-once.ts';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { afterEach, beforeEach, expect, it } from 'vitest';

let platform: TestPlatform;
let smtp: SmtpCapture;
beforeEach(async () => {
  smtp = await startSmtpCapture();
  platform = await startPlatform({ mail: { smtpUrl: smtp.url } });
});
afterEach(async () => {
  await platform.stop();
  await smtp.close();
});

/** Asks for a sign-in link in a fresh browser; returns the browser, on the link's page, with the form to redeem it. */
async function openLink(email: string, index: number): Promise<{ browser: BrowserSession; path: string; csrf: string }> {
  const browser = new BrowserSession(platform.url);
  const form = await browser.get('/login');
  const posted = await browser.post('/login', { csrf_token: formField(form.body, 'csrf_token'), email, next: '/tokens' });
  expect(posted.body).toContain('Check your mail');
  const path = new URL(linkIn(await smtp.mail(index))).pathname;
  const page = await browser.get(path);
  return { browser, path, csrf: formField(page.body, 'csrf_token') };
}

it('signs in both of two first sign-ins for one address at once, as one user', async () => {
  const first = await openLink('new@example.com', 0);
  const second = await openLink('new@example.com', 1);
  const redeemed = await atOnce(platform.url, 2, (index) => {
    const { browser, path, csrf } = [first, second][index]!;
    return browser.post(path, { csrf_token: csrf });
  });
  expect(redeemed.map((answer) => [answer.status, answer.location])).toEqual([
    [303, '/tokens'],
    [303, '/tokens'],
  ]);
  const { sessions, store } = platform.core.services;
  const users = await Promise.all(
    [first, second].map(async ({ browser }) => (await sessions.resolve(browser.cookies.get('svc_session')))?.user.id),
  );
  const user = await store.users.findByEmail('new@example.com');
  expect(users).toEqual([user!.id, user!.id]);
});
