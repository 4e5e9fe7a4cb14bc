import { BrowserSession, formField, request } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { acceptInBrowser, invitationLink, membersOf, membersUrl, ownerOf } from './setup.ts';

let platform: TestPlatform;
let offsetMs = 0;
beforeAll(async () => {
  platform = await startPlatform({ localMode: true, clock: () => new Date(Date.now() + offsetMs) });
});
afterAll(() => platform.stop());

async function invite(slug: string, email: string) {
  const owner = await ownerOf(platform, slug);
  const invited = await request(membersUrl(platform, slug), { token: owner, json: { email, role: 'developer' } });
  expect(invited.status).toBe(201);
  return { owner, link: await invitationLink(platform, email) };
}

const eventsOf = async (owner: string, slug: string) =>
  (await request(`${platform.url}/api/developer/v1/${slug}/membership_events`, { token: owner })).body.events as { action: string }[];

it('a mail scanner opening the link (GET and HEAD, signed in or not) accepts nothing and spends nothing', async () => {
  const { owner, link } = await invite('scanned', 'new@example.com');
  const scanner = new BrowserSession(platform.url);
  for (let i = 0; i < 3; i++) {
    expect((await scanner.get(link)).status).toBe(200);
    expect((await scanner.get(link, 'HEAD')).status).toBe(200);
  }
  expect((await scanner.get(`${link}/accept`)).status).toBe(404);
  expect((await scanner.get(`${link}/sign-in`)).status).toBe(404);
  // Even the invitee's own signed-in browser only sees the Accept page until it posts.
  const invitee = new BrowserSession(platform.url);
  const offer = await invitee.get(link);
  await invitee.post(`${link}/sign-in`, { csrf_token: formField(offer.body, 'csrf_token') });
  const acceptPage = await invitee.get(link);
  expect(acceptPage.body).toContain('>Accept</button>');
  expect((await invitee.get(link, 'HEAD')).status).toBe(200);

  const list = await membersOf(platform, owner, 'scanned');
  expect(list.members.map((m) => m.email)).toEqual(['owner@scanned.example']);
  expect(list.invitations.map((i) => i.email)).toEqual(['new@example.com']);
  expect((await eventsOf(owner, 'scanned')).map((e) => e.action)).toEqual(['invited']);
  // The link still works for the person.
  await invitee.post(`${link}/accept`, { csrf_token: formField(acceptPage.body, 'csrf_token') });
  expect((await membersOf(platform, owner, 'scanned')).members.map((m) => m.email)).toContain('new@example.com');
});

it('creates the account of a new address, signs it in and lands on the Accept page; accepting joins with the role', async () => {
  const { owner, link } = await invite('newcomer', 'fresh@example.com');
  expect(await platform.core.services.store.users.findByEmail('fresh@example.com')).toBeUndefined();
  const browser = await acceptInBrowser(platform, link);
  const page = await browser.get('/w/newcomer/members');
  expect(page.status).toBe(200);
  expect(page.body).toContain('fresh@example.com');
  expect(page.body).not.toContain('Send invitation'); // a developer reads; only owners see the forms
  const { members } = await membersOf(platform, owner, 'newcomer');
  expect(members.find((m) => m.email === 'fresh@example.com')?.role).toBe('developer');
  // Accepted: the link is spent.
  const again = await browser.get(link);
  expect(again.status).toBe(410);
  expect(again.body).toContain('This invitation was accepted already');
});

it('refuses, with a clear message, a person signed in with another email; nothing changes', async () => {
  const { owner, link } = await invite('other-account', 'invited@example.com');
  // Someone else is signed in in this browser (through another invitation of theirs).
  const { link: theirs } = await invite('elsewhere', 'someone@example.com');
  const browser = await acceptInBrowser(platform, theirs);
  const page = await browser.get(link);
  expect(page.status).toBe(403);
  expect(page.body).toContain('You are signed in as someone@example.com');
  expect(page.body).not.toContain('>Accept</button>');
  const forced = await browser.post(`${link}/accept`, {
    csrf_token: formField((await browser.get('/w/elsewhere/members')).body, 'csrf_token'),
  });
  expect(forced.status).toBe(403);
  expect(forced.body).toContain('this invitation is for invited@example.com, but you are signed in as someone@example.com');
  expect((await membersOf(platform, owner, 'other-account')).members.map((m) => m.email)).toEqual(['owner@other-account.example']);
  expect((await membersOf(platform, owner, 'other-account')).invitations).toHaveLength(1);
});

it('refuses an accept without the CSRF token of the session', async () => {
  const { owner, link } = await invite('csrf', 'csrf@example.com');
  const browser = new BrowserSession(platform.url);
  const offer = await browser.get(link);
  await browser.post(`${link}/sign-in`, { csrf_token: formField(offer.body, 'csrf_token') });
  const forged = await browser.post(`${link}/accept`, { csrf_token: 'forged' });
  expect(forged.status).toBe(403);
  expect((await membersOf(platform, owner, 'csrf')).members).toHaveLength(1);
});

it('after 7 days the link shows a 410 page, signs nobody in and accepts nothing', async () => {
  const { owner, link } = await invite('expiring', 'slow@example.com');
  const browser = new BrowserSession(platform.url);
  const offer = await browser.get(link);
  const csrf = formField(offer.body, 'csrf_token');
  offsetMs = 7 * 24 * 3600 * 1000 + 1000;
  try {
    const page = await browser.get(link);
    expect(page.status).toBe(410);
    expect(page.body).toContain('This invitation has expired');
    const signIn = await browser.post(`${link}/sign-in`, { csrf_token: csrf });
    expect(signIn.status).toBe(410);
    expect(browser.cookies.has('svc_session')).toBe(false);
    expect(await platform.core.services.store.users.findByEmail('slow@example.com')).toBeUndefined();
    const list = await membersOf(platform, owner, 'expiring');
    expect(list.invitations).toEqual([]);
    expect(list.members).toHaveLength(1);
  } finally {
    offsetMs = 0;
  }
});

it('an expired invitation to an address can be sent again, and the new link works', async () => {
  const { owner, link } = await invite('renewed', 'again@example.com');
  offsetMs = 8 * 24 * 3600 * 1000;
  try {
    expect((await request(`${platform.url}${link}`)).status).toBe(410);
    await request(membersUrl(platform, 'renewed'), { token: owner, json: { email: 'again@example.com', role: 'supervisor' } });
    const fresh = await invitationLink(platform, 'again@example.com', `${platform.url}${link}`);
    await acceptInBrowser(platform, fresh);
    expect((await membersOf(platform, owner, 'renewed')).members.map((m) => [m.email, m.role])).toContainEqual([
      'again@example.com',
      'supervisor',
    ]);
  } finally {
    offsetMs = 0;
  }
});
