import { BrowserSession, formField, linkIn, request, type SmtpCapture, startSmtpCapture } from '@svc/testkit';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

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

const start = (json: object = { hostname: 'build-box' }) =>
  request(`${platform.url}/cli/device_authorizations`, { json, headers: { 'user-agent': 'svc-cli/1.0 (linux)' } });
const poll = async (device_code: string) =>
  (await request(`${platform.url}/cli/device_authorizations/token`, { json: { device_code } })).body;

/** Signs a browser in through /login and the mailed link. */
async function signIn(browser: BrowserSession, email: string, next = '/'): Promise<void> {
  const form = await browser.get(`/login?next=${encodeURIComponent(next)}`);
  const sent = smtp.mails.length;
  const posted = await browser.post('/login', { csrf_token: formField(form.body, 'csrf_token'), email, next });
  expect(posted.body).toContain('Check your mail');
  expect(posted.body).not.toContain('/dev/mailbox'); // not local mode: the mail went to the SMTP server
  const link = new URL(linkIn(await smtp.mail(sent)));
  const page = await browser.get(link.pathname);
  const redeemed = await browser.post(link.pathname, { csrf_token: formField(page.body, 'csrf_token') });
  expect(redeemed.status).toBe(303);
  expect(redeemed.location).toBe(next);
}

describe('the approval page', () => {
  it('sends a visitor who is not signed in to sign-in, and back', async () => {
    const { user_code } = (await start()).body;
    const browser = new BrowserSession(platform.url);
    const first = await browser.get(`/device?user_code=${user_code}`);
    expect(first.status).toBe(303);
    expect(first.location).toBe(`/login?next=${encodeURIComponent(`/device?user_code=${user_code}`)}`);
    await signIn(browser, 'ada@example.com', `/device?user_code=${user_code}`);
    const approval = await browser.get(`/device?user_code=${user_code}`);
    expect(approval.status).toBe(200);
    for (const shown of [
      user_code,
      'check that this code matches',
      'svc CLI',
      'build-box',
      'svc-cli/1.0 (linux)',
      'ada@example.com',
      'Approve',
      'Deny',
    ]) {
      expect(approval.body.toLowerCase()).toContain(shown.toLowerCase());
    }
  });

  it('shows a User-Agent with its control characters and bidi overrides replaced, so it reads as sent', async () => {
    // Header bytes arrive as latin-1: the UTF-8 of U+202E (right-to-left override) reads as "â", U+0080 (C1), "®".
    const sent = 'curl/8.0 \u0085\u009b[2J ' + Buffer.from('\u202Exunil', 'utf8').toString('latin1');
    const { user_code } = (await request(`${platform.url}/cli/device_authorizations`, { json: {}, headers: { 'user-agent': sent } })).body;
    const browser = new BrowserSession(platform.url);
    await signIn(browser, 'ada@example.com');
    const approval = await browser.get(`/device?user_code=${user_code}`);
    expect(approval.body).toContain('curl/8.0 \uFFFD\uFFFD[2J â\uFFFD®xunil');
    expect(approval.body).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
  });

  it('approves on a POST with the session CSRF token, and the CLI gets its token', async () => {
    const { user_code, device_code } = (await start()).body;
    const browser = new BrowserSession(platform.url);
    await signIn(browser, 'ada@example.com');
    const approval = await browser.get(`/device?user_code=${user_code}`);
    const done = await browser.post('/device', { csrf_token: formField(approval.body, 'csrf_token'), user_code, decision: 'approved' });
    expect(done.body).toContain('return to your terminal');
    const token = await poll(device_code);
    expect(token.access_token).toMatch(/^svc_/);
    expect((await request(`${platform.url}/cli/whoami`, { token: token.access_token })).body.token.name).toBe('svc CLI on build-box');
  });

  it('rejects a POST without the right CSRF token and changes nothing', async () => {
    const { user_code, device_code } = (await start()).body;
    const browser = new BrowserSession(platform.url);
    await signIn(browser, 'ada@example.com');
    for (const csrf_token of ['', 'forged']) {
      const res = await browser.post('/device', { csrf_token, user_code, decision: 'approved' });
      expect(res.status).toBe(403);
    }
    expect((await poll(device_code)).error).toBe('authorization_pending');
  });

  it('lets GET and HEAD of every page change nothing', async () => {
    const { user_code, device_code } = (await start()).body;
    const browser = new BrowserSession(platform.url);
    await signIn(browser, 'ada@example.com');
    for (const path of [`/device?user_code=${user_code}`, '/device', '/tokens', '/']) {
      await browser.get(path);
      await browser.get(path, 'HEAD');
    }
    expect((await poll(device_code)).error).toBe('authorization_pending');
  });

  it('denies on Deny', async () => {
    const { user_code, device_code } = (await start()).body;
    const browser = new BrowserSession(platform.url);
    await signIn(browser, 'ada@example.com');
    const approval = await browser.get(`/device?user_code=${user_code}`);
    await browser.post('/device', { csrf_token: formField(approval.body, 'csrf_token'), user_code, decision: 'denied' });
    expect((await poll(device_code)).error).toBe('access_denied');
  });

  it('rate limits sign-in requests per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await start()).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('rate limits wrong user codes per IP', async () => {
    const browser = new BrowserSession(platform.url);
    await signIn(browser, 'ada@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await browser.get('/device?user_code=BBBB-BBBB')).status);
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('mailed links', () => {
  it('svc login --email: the mail carries the code and a link that signs in and lands on the approval page', async () => {
    const started = await start({ email: 'New.User@Example.com', hostname: 'laptop' });
    expect(started.body.email_sent).toBe(true);
    const mail = await smtp.mail(0);
    expect(mail.to).toContain('new.user@example.com');
    expect(mail.subject).toBe('Sign in to svc from your terminal'); // a subject is kept unsealed: no code in it
    expect(mail.text).toContain(started.body.user_code);
    expect(mail.text + mail.html).not.toContain('laptop'); // nothing the requester chose goes into the mail
    const link = new URL(linkIn(mail));
    expect(link.origin).toBe(platform.url);

    const scanner = new BrowserSession(platform.url);
    await scanner.get(link.pathname);
    await scanner.get(link.pathname, 'HEAD');
    expect(scanner.cookies.has('svc_session')).toBe(false);

    const browser = new BrowserSession(platform.url);
    const page = await browser.get(link.pathname);
    expect(page.body).toContain('Continue as new.user@example.com');
    const redeemed = await browser.post(link.pathname, { csrf_token: formField(page.body, 'csrf_token') });
    expect(redeemed.location).toBe(`/device?user_code=${started.body.user_code}`);
    const approval = await browser.get(redeemed.location!);
    expect(approval.body).toContain('Approve this sign-in?');
    expect((await browser.post(link.pathname, { csrf_token: formField(page.body, 'csrf_token') })).status).toBe(400);
  });

  it('needs the CSRF cookie of its own page to sign in', async () => {
    await start({ email: 'ada@example.com' });
    const link = new URL(linkIn(await smtp.mail(0)));
    const attacker = new BrowserSession(platform.url);
    const res = await attacker.post(link.pathname, { csrf_token: 'guessed' });
    expect(res.status).toBe(403);
    const browser = new BrowserSession(platform.url);
    const page = await browser.get(link.pathname);
    expect((await browser.post(link.pathname, { csrf_token: formField(page.body, 'csrf_token') })).status).toBe(303);
  });
});

describe('tokens and sign-out', () => {
  it('lists and revokes tokens over the API and on the console page', async () => {
    const { user_code, device_code } = (await start()).body;
    const browser = new BrowserSession(platform.url);
    await signIn(browser, 'ada@example.com');
    const approval = await browser.get(`/device?user_code=${user_code}`);
    await browser.post('/device', { csrf_token: formField(approval.body, 'csrf_token'), user_code, decision: 'approved' });
    const { access_token } = await poll(device_code);

    const listed = await request(`${platform.url}/cli/tokens`, { token: access_token });
    expect(listed.body.tokens).toEqual([expect.objectContaining({ name: 'svc CLI on build-box', current: true })]);
    const page = await browser.get('/tokens');
    expect(page.body).toContain('svc CLI on build-box');
    const id = listed.body.tokens[0].id;
    await browser.post(`/tokens/${id}/revoke`, { csrf_token: formField(page.body, 'csrf_token') });
    expect((await request(`${platform.url}/cli/tokens`, { token: access_token })).status).toBe(401);
  });

  it('revokes over the API with DELETE', async () => {
    const { user_code, device_code } = (await start()).body;
    await platform.core.services.deviceAuth.decide(
      user_code,
      (await platform.core.services.identity.findOrCreateUser('ada@example.com')).id,
      'approved',
      '127.0.0.1',
    );
    const { access_token } = await poll(device_code);
    const { tokens } = (await request(`${platform.url}/cli/tokens`, { token: access_token })).body;
    const res = await request(`${platform.url}/cli/tokens/${tokens[0].id}`, { method: 'DELETE', token: access_token });
    expect(res.status).toBe(204);
    expect((await request(`${platform.url}/cli/whoami`, { token: access_token })).status).toBe(401);
  });

  it('signs out', async () => {
    const browser = new BrowserSession(platform.url);
    await signIn(browser, 'ada@example.com');
    const home = await browser.get('/');
    expect(home.status).toBe(200);
    await browser.post('/logout', { csrf_token: formField(home.body, 'csrf_token') });
    expect((await browser.get('/')).status).toBe(303);
  });
});
