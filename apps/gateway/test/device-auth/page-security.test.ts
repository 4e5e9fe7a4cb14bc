import { BrowserSession, formField, linkIn, request, type SmtpCapture, startSmtpCapture } from '@svc/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';

let platform: TestPlatform | undefined;
let smtp: SmtpCapture | undefined;

afterEach(async () => {
  await platform?.stop();
  await smtp?.close();
});

async function start(publicUrl?: string) {
  smtp = await startSmtpCapture();
  platform = await startPlatform({ mail: { smtpUrl: smtp.url }, publicUrl });
}

const cookieHeader = (browser: BrowserSession) => [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

/** Signs a browser in through /login and the mailed link; answers the redeeming POST's Set-Cookie headers. */
async function signIn(browser: BrowserSession, email: string): Promise<string[]> {
  const form = await browser.get('/login');
  const sent = smtp!.mails.length;
  await browser.post('/login', { csrf_token: formField(form.body, 'csrf_token'), email, next: '/' });
  const link = new URL(linkIn(await smtp!.mail(sent)));
  const page = await browser.get(link.pathname);
  const redeemed = await fetch(new URL(link.pathname, platform!.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookieHeader(browser), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: formField(page.body, 'csrf_token') }).toString(),
  });
  expect(redeemed.status).toBe(303);
  const setCookies = redeemed.headers.getSetCookie();
  for (const cookie of setCookies) {
    const [name, value] = cookie.split(';')[0]!.split('=') as [string, string];
    browser.cookies.set(name, value);
  }
  return setCookies;
}

/** A page as the browser gets it, with its headers. */
async function getPage(browser: BrowserSession, path: string) {
  const response = await fetch(new URL(path, platform!.url), { headers: { cookie: cookieHeader(browser) }, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

function expectLockedDown(page: { headers: Headers; body: string }): void {
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('script-src');
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  expect(page.headers.get('cache-control')).toBe('no-store');
  // Nothing the policy would block: no script, no inline style; the stylesheet comes from this origin.
  expect(page.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
  expect(page.body).toMatch(/<link rel="stylesheet" href="\/console.css"\/?>/);
}

describe('the console pages on http', () => {
  it('carry a strict policy, no framing, nosniff and no-store, and no HSTS; the approval page too', async () => {
    await start();
    const started = await request(`${platform!.url}/cli/device_authorizations`, { json: { hostname: 'build-box' } });
    const browser = new BrowserSession(platform!.url);
    expectLockedDown(await getPage(browser, '/login'));
    await signIn(browser, 'ada@example.com');
    for (const path of ['/', '/tokens', '/device', `/device?user_code=${started.body.user_code}`]) {
      const page = await getPage(browser, path);
      expect(page.status, path).toBe(200);
      expectLockedDown(page);
      expect(page.headers.get('strict-transport-security'), path).toBeNull();
    }
    const approval = await getPage(browser, `/device?user_code=${started.body.user_code}`);
    expect(approval.body).toContain('Approve this sign-in?');
    expect(formField(approval.body, 'csrf_token')).not.toBe('');
  });

  it("give the API's answers, errors included, the pages' security headers", async () => {
    await start();
    const page = await getPage(new BrowserSession(platform!.url), '/login');
    const refused = await fetch(`${platform!.url}/api/v1/acme/phone_verifications`, { method: 'POST' });
    const unknown = await fetch(`${platform!.url}/no/such/path`);
    expect(refused.status).toBe(401);
    expect(unknown.status).toBe(404);
    for (const name of [
      'content-security-policy',
      'x-frame-options',
      'x-content-type-options',
      'referrer-policy',
      'cross-origin-opener-policy',
    ]) {
      expect(page.headers.get(name), name).not.toBeNull();
      expect(refused.headers.get(name), name).toBe(page.headers.get(name));
      expect(unknown.headers.get(name), name).toBe(page.headers.get(name));
    }
  });

  it('serve the stylesheet the pages link, as CSS', async () => {
    await start();
    const css = await fetch(`${platform!.url}/console.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toMatch(/body\s*\{/);
  });

  it('name the session cookie svc_session, without the __Host- prefix a browser refuses without https', async () => {
    await start();
    const setCookies = await signIn(new BrowserSession(platform!.url), 'ada@example.com');
    expect(setCookies.find((c) => c.startsWith('svc_session='))).toBeDefined();
    expect(setCookies.join('\n')).not.toMatch(/secure/i);
  });
});

describe('the console pages behind https', () => {
  it('send HSTS, and name the session cookie __Host-svc_session: Secure, Path=/, no Domain; the console reads it', async () => {
    await start('https://svc.example.com');
    const browser = new BrowserSession(platform!.url);
    const login = await getPage(browser, '/login');
    expect(login.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/);
    const setCookies = await signIn(browser, 'ada@example.com');
    const session = setCookies.find((c) => c.startsWith('__Host-svc_session='));
    expect(session).toBeDefined();
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; Path=\/(;|$)/i);
    expect(session).not.toMatch(/domain=/i);
    expect(setCookies.find((c) => c.startsWith('svc_session='))).toBeUndefined();
    expect(browser.cookies.has('__Host-svc_login_csrf')).toBe(true);

    const home = await browser.get('/');
    expect(home.status).toBe(200);
    expect(home.body).toContain('Signed in as ada@example.com');
    const signedOut = await browser.post('/logout', { csrf_token: formField(home.body, 'csrf_token') });
    expect(signedOut.status).toBe(303);
    expect(browser.cookies.has('__Host-svc_session')).toBe(false);
    expect((await browser.get('/')).status).toBe(303);
  });
});
