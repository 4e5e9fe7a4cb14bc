import { BrowserSession, formField, request } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { atOnce } from '../at-once.ts';
import { addMember, invitationLink, membersOf, membersUrl, ownerOf, userIdOf } from './setup.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform({ localMode: true });
});
afterAll(() => platform.stop());

/** A workspace with two owners, each with a token. */
async function twoOwners(slug: string) {
  const first = await ownerOf(platform, slug);
  const second = await addMember(platform, first, slug, `second@${slug}.example`, 'owner');
  const ids = [await userIdOf(platform, `owner@${slug}.example`), await userIdOf(platform, `second@${slug}.example`)];
  return { tokens: [first, second], ids };
}

it('two owners removing each other at once: exactly one goes, the other stays owner', async () => {
  const { tokens, ids } = await twoOwners('mutual');
  const answers = await atOnce(platform.url, 2, (i) =>
    request(`${membersUrl(platform, 'mutual')}/${ids[1 - i]}`, { method: 'DELETE', token: tokens[i] }),
  );
  // The loser is refused: as the last owner (409) or, already removed, as a stranger to the workspace (404).
  expect(answers.filter((a) => a.status === 204)).toHaveLength(1);
  expect(answers.find((a) => a.status !== 204)?.body.error.code).toMatch(/^(last_owner|workspace_not_found)$/);
  const survivor = tokens[answers.findIndex((a) => a.status === 204)]!;
  const { members } = await membersOf(platform, survivor, 'mutual');
  expect(members.map((m) => m.role)).toEqual(['owner']);
});

it('two owners demoting each other at once leave exactly one owner', async () => {
  const { tokens, ids } = await twoOwners('demotions');
  const answers = await atOnce(platform.url, 2, (i) =>
    request(`${membersUrl(platform, 'demotions')}/${ids[1 - i]}`, { method: 'PATCH', token: tokens[i], json: { role: 'developer' } }),
  );
  // The loser is refused: as the last owner (409) or, already demoted, as a developer (403).
  expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  expect(answers.find((a) => a.status !== 200)?.body.error.code).toMatch(/^(last_owner|forbidden)$/);
  const { members } = await membersOf(platform, tokens[0]!, 'demotions');
  expect(members.filter((m) => m.role === 'owner')).toHaveLength(1);
});

it('both owners leaving at once: one leaves, one stays', async () => {
  const { tokens, ids } = await twoOwners('both-leave');
  const answers = await atOnce(platform.url, 2, (i) =>
    request(`${membersUrl(platform, 'both-leave')}/${ids[i]}`, { method: 'DELETE', token: tokens[i] }),
  );
  expect(answers.map((a) => a.status).sort()).toEqual([204, 409]);
  const stayed = tokens[answers.findIndex((a) => a.status === 409)]!;
  expect((await membersOf(platform, stayed, 'both-leave')).members).toHaveLength(1);
});

it('25 invitations at once: exactly 20 are sent, 5 answer 429, and 20 mails are queued', async () => {
  const owner = await ownerOf(platform, 'flood');
  const answers = await atOnce(platform.url, 25, (i) =>
    request(membersUrl(platform, 'flood'), { token: owner, json: { email: `flood${i}@example.com`, role: 'supervisor' } }),
  );
  expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
  expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
  expect((await membersOf(platform, owner, 'flood')).invitations).toHaveLength(20);
});

it('the same address invited 5 times at once ends with one pending invitation', async () => {
  const owner = await ownerOf(platform, 'same-address');
  const answers = await atOnce(platform.url, 5, () =>
    request(membersUrl(platform, 'same-address'), { token: owner, json: { email: 'one@example.com', role: 'developer' } }),
  );
  expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
  expect((await membersOf(platform, owner, 'same-address')).invitations).toHaveLength(1);
});

it('one invitation accepted from two browsers at once makes one member and one joined event', async () => {
  const owner = await ownerOf(platform, 'double-accept');
  await request(membersUrl(platform, 'double-accept'), { token: owner, json: { email: 'twin@example.com', role: 'developer' } });
  const link = await invitationLink(platform, 'twin@example.com');
  const browsers = [new BrowserSession(platform.url), new BrowserSession(platform.url)];
  const acceptForms = await Promise.all(
    browsers.map(async (browser) => {
      const offer = await browser.get(link);
      await browser.post(`${link}/sign-in`, { csrf_token: formField(offer.body, 'csrf_token') });
      return formField((await browser.get(link)).body, 'csrf_token');
    }),
  );
  const answers = await atOnce(platform.url, 2, (i) => browsers[i]!.post(`${link}/accept`, { csrf_token: acceptForms[i]! }));
  expect(answers.map((a) => a.status).sort()).toEqual([303, 410]);
  expect((await membersOf(platform, owner, 'double-accept')).members.map((m) => m.email)).toEqual([
    'owner@double-accept.example',
    'twin@example.com',
  ]);
  const { events } = (await request(`${platform.url}/api/developer/v1/double-accept/membership_events`, { token: owner })).body;
  expect(events.filter((e: { action: string }) => e.action === 'joined')).toHaveLength(1);
});

it('six owners leaving at once: exactly five leave, one stays owner', async () => {
  const first = await ownerOf(platform, 'exodus');
  const emails = ['owner@exodus.example', ...[1, 2, 3, 4, 5].map((n) => `owner${n}@exodus.example`)];
  const tokens = [first];
  for (const email of emails.slice(1)) tokens.push(await addMember(platform, first, 'exodus', email, 'owner'));
  const ids = await Promise.all(emails.map((email) => userIdOf(platform, email)));
  const answers = await atOnce(platform.url, 6, (i) =>
    request(`${membersUrl(platform, 'exodus')}/${ids[i]}`, { method: 'DELETE', token: tokens[i] }),
  );
  expect(answers.filter((a) => a.status === 204)).toHaveLength(5);
  expect(answers.filter((a) => a.status === 409).map((a) => a.body.error.code)).toEqual(['last_owner']);
  const stayed = tokens[answers.findIndex((a) => a.status === 409)]!;
  expect((await membersOf(platform, stayed, 'exodus')).members.map((m) => m.role)).toEqual(['owner']);
});
