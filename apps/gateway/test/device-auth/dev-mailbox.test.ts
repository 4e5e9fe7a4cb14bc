import { BrowserSession, formField, request } from '@svc/testkit';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { startGateway } from '../../src/index.ts';

let platform: TestPlatform;
afterEach(() => platform.stop());

it('keeps mails in the dev mailbox in local mode without SMTP_URL, with working links', async () => {
  platform = await startPlatform({ localMode: true });
  const started = await request(`${platform.url}/cli/device_authorizations`, { json: { email: 'dev@example.com' } });
  expect(started.body.email_sent).toBe(true);
  await expect.poll(async () => (await request(`${platform.url}/dev/mailbox.json`)).body.messages.length).toBe(1);
  const [mail] = (await request(`${platform.url}/dev/mailbox.json`)).body.messages;
  expect(mail).toMatchObject({ to: 'dev@example.com', subject: 'Sign in to svc from your terminal' });
  expect(mail.html).toContain(started.body.user_code);
  const page = await request(`${platform.url}/dev/mailbox`);
  expect(page.body).toContain(started.body.user_code);

  const link = new URL(/https?:\/\/\S+\/auth\/link\/[\w-]+/.exec(mail.text)![0]);
  const browser = new BrowserSession(platform.url);
  const linkPage = await browser.get(link.pathname);
  const signedIn = await browser.post(link.pathname, { csrf_token: formField(linkPage.body, 'csrf_token') });
  expect(signedIn.location).toBe(`/device?user_code=${started.body.user_code}`);
});

it('refuses an email when no mail can be sent', async () => {
  platform = await startPlatform();
  const res = await request(`${platform.url}/cli/device_authorizations`, { json: { email: 'ada@example.com' } });
  expect(res.status).toBe(409);
  expect(res.body).toEqual({ error: 'email_not_configured', error_description: expect.stringMatching(/cannot send mail/) });
});

it('never writes the token of a sign-in link to the request log', async () => {
  platform = await startPlatform({ localMode: true });
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const gateway = await startGateway({ port: 0, coreUrls: [platform.core.url], localMode: true, secretKey: platform.secretKey, log });
  await request(`${gateway.url}/cli/device_authorizations`, { json: { email: 'dev@example.com' } });
  await expect.poll(async () => (await request(`${gateway.url}/dev/mailbox.json`)).body.messages.length).toBe(1);
  const [mail] = (await request(`${gateway.url}/dev/mailbox.json`)).body.messages;
  const token = /\/auth\/link\/([\w-]+)/.exec(mail.text)![1]!;
  await request(`${gateway.url}/auth/link/${token}`);
  await gateway.stop();
  expect(lines.some((line) => line.includes('/auth/link/[redacted]'))).toBe(true);
  expect(lines.join('')).not.toContain(token);
});
