import { BrowserSession, formField, request, startPlatform, type TestPlatform } from '@svc/testkit';
import { afterEach, expect, it } from 'vitest';

let platform: TestPlatform;
afterEach(() => platform.stop());

it('keeps mails in the dev mailbox in local mode without SMTP_URL, with working links', async () => {
  platform = await startPlatform({ localMode: true });
  const started = await request(`${platform.url}/cli/device_authorizations`, { json: { email: 'dev@example.com' } });
  expect(started.body.email_sent).toBe(true);
  await expect.poll(async () => (await request(`${platform.url}/dev/mailbox.json`)).body.messages.length).toBe(1);
  const [mail] = (await request(`${platform.url}/dev/mailbox.json`)).body.messages;
  expect(mail).toMatchObject({ to: 'dev@example.com', subject: expect.stringContaining(started.body.user_code) });
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
  expect(res.body.error.code).toBe('email_not_configured');
});
