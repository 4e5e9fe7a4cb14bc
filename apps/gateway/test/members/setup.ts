import { setTimeout as sleep } from 'node:timers/promises';
import type { Role } from '@svc/domain';
import { BrowserSession, formField, request } from '@svc/testkit';
import { expect } from 'vitest';
import { createUserWithToken, type TestPlatform } from '../platform.ts';

export const membersUrl = (platform: TestPlatform, slug: string) => `${platform.url}/api/developer/v1/${slug}/members`;

/** A new user with a token, owning a new workspace. */
export async function ownerOf(platform: TestPlatform, slug: string, email = `owner@${slug}.example`): Promise<string> {
  const token = await createUserWithToken(platform, email);
  const created = await request(`${platform.url}/cli/workspaces`, { token, json: { slug } });
  expect(created.status).toBe(201);
  return token;
}

/** The link of the newest invitation mailed to `email`, from the dev mailbox (local mode), once it is there. */
export async function invitationLink(platform: TestPlatform, email: string, newerThan?: string): Promise<string> {
  const deadline = Date.now() + 30_000; // the mail outbox delivers it a moment after the answer, later on a busy box
  let link: string | undefined;
  while (!link) {
    if (Date.now() > deadline) throw new Error(`no invitation mail to ${email} in the dev mailbox`);
    const { messages } = (await request(`${platform.url}/dev/mailbox.json`)).body as { messages: { to: string; text: string }[] };
    link = messages
      .filter((m) => m.to === email)
      .map((m) => /https?:\/\/\S+\/invitations\/[\w-]+/.exec(m.text)?.[0])
      .find((found) => found !== undefined && found !== newerThan);
    if (!link) await sleep(25);
  }
  return new URL(link!).pathname;
}

/** Opens the invitation link as a person does: continue as the invited address, then Accept. */
export async function acceptInBrowser(platform: TestPlatform, path: string, browser = new BrowserSession(platform.url)) {
  const offer = await browser.get(path);
  expect(offer.status).toBe(200);
  const signedIn = await browser.post(`${path}/sign-in`, { csrf_token: formField(offer.body, 'csrf_token') });
  expect(signedIn).toMatchObject({ status: 303, location: path });
  const acceptPage = await browser.get(path);
  const accepted = await browser.post(`${path}/accept`, { csrf_token: formField(acceptPage.body, 'csrf_token') });
  expect(accepted.status).toBe(303);
  return browser;
}

/** Invites `email` with `role` through the API, accepts through the link, and returns a token of theirs. */
export async function addMember(platform: TestPlatform, ownerToken: string, slug: string, email: string, role: Role): Promise<string> {
  const invited = await request(membersUrl(platform, slug), { token: ownerToken, json: { email, role } });
  expect(invited.status).toBe(201);
  await acceptInBrowser(platform, await invitationLink(platform, email));
  return createUserWithToken(platform, email);
}

export async function membersOf(platform: TestPlatform, token: string, slug: string) {
  const list = await request(membersUrl(platform, slug), { token });
  expect(list.status).toBe(200);
  return list.body as { members: { user_id: string; email: string; role: Role }[]; invitations: { id: string; email: string }[] };
}

export async function userIdOf(platform: TestPlatform, email: string): Promise<string> {
  return (await platform.core.services.identity.findOrCreateUser(email)).id;
}
