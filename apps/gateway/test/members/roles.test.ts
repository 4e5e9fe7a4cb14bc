import type { Role } from '@svc/domain';
import { request } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { addMember, membersOf, membersUrl, ownerOf, userIdOf } from './setup.ts';

let platform: TestPlatform;
const tokens = {} as Record<Role, string>;
const slug = 'roles';
const base = () => `${platform.url}/api/developer/v1/${slug}`;

const files = {
  'svc.yaml': `workspace: ${slug}\n`,
  'agents/support/agent.yaml': 'name: Support\nmodel: scripted\nscripted:\n  rules: []\n  fallback: Hello.\n',
  'agents/support/instructions.md': 'Help.',
};

beforeAll(async () => {
  platform = await startPlatform({ localMode: true });
  tokens.owner = await ownerOf(platform, slug);
  tokens.developer = await addMember(platform, tokens.owner, slug, 'developer@roles.example', 'developer');
  tokens.supervisor = await addMember(platform, tokens.owner, slug, 'supervisor@roles.example', 'supervisor');
  const pushed = await request(`${base()}/deployments`, { token: tokens.owner, json: { environment: 'preview', files } });
  expect(pushed.status).toBe(201);
});
afterAll(() => platform.stop());

let targets = 0;
/** A fresh member for a write that changes or removes one. */
async function freshMember(): Promise<string> {
  const email = `target${++targets}@roles.example`;
  await addMember(platform, tokens.owner, slug, email, 'supervisor');
  return userIdOf(platform, email);
}

interface Write {
  name: string;
  allowed: Role[];
  /** The request; `prepare` runs first, as the owner, for writes that need something to act on. */
  send(token: string, prepared: string): Promise<{ status: number; body: { error?: { code: string } } }>;
  prepare?: () => Promise<string>;
}

const writes: Write[] = [
  {
    name: 'push',
    allowed: ['owner', 'developer'],
    send: (token) => request(`${base()}/deployments`, { token, json: { environment: 'preview', files } }),
  },
  {
    name: 'publish',
    allowed: ['owner', 'developer'],
    send: (token) => request(`${base()}/publish`, { token, json: { from: 'preview' } }),
  },
  {
    name: 'set a secret',
    allowed: ['owner', 'developer'],
    send: (token) => request(`${base()}/environments/preview/secrets/API_KEY`, { method: 'PUT', token, json: { value: 's3cret' } }),
  },
  {
    name: 'set the sender',
    allowed: ['owner', 'developer'],
    send: (token) => request(`${base()}/sender`, { method: 'PUT', token, json: { kind: 'dev' } }),
  },
  {
    name: 'set test numbers',
    allowed: ['owner'],
    send: (token) =>
      request(`${base()}/test_numbers`, {
        method: 'PUT',
        token,
        json: { test_numbers: [{ phone_number: '+56912345678', code: '123456' }] },
      }),
  },
  {
    name: 'invite a member',
    allowed: ['owner'],
    send: (token) =>
      request(membersUrl(platform, slug), { token, json: { email: `invitee${++targets}@roles.example`, role: 'supervisor' } }),
  },
  {
    name: "change a member's role",
    allowed: ['owner'],
    prepare: freshMember,
    send: (token, userId) => request(`${membersUrl(platform, slug)}/${userId}`, { method: 'PATCH', token, json: { role: 'developer' } }),
  },
  {
    name: 'remove a member',
    allowed: ['owner'],
    prepare: freshMember,
    send: (token, userId) => request(`${membersUrl(platform, slug)}/${userId}`, { method: 'DELETE', token }),
  },
  {
    name: 'revoke an invitation',
    allowed: ['owner'],
    prepare: async () => {
      const invited = await request(membersUrl(platform, slug), {
        token: tokens.owner,
        json: { email: `revokee${++targets}@roles.example`, role: 'developer' },
      });
      return invited.body.id as string;
    },
    send: (token, id) => request(`${base()}/invitations/${id}`, { method: 'DELETE', token }),
  },
];

const roles: Role[] = ['owner', 'developer', 'supervisor'];
const cases = writes.flatMap((write) => roles.map((role) => ({ ...write, role, allowedHere: write.allowed.includes(role) })));

describe('roles are enforced on every write', () => {
  it.each(cases)('$name as $role: allowed $allowedHere', async ({ role, allowedHere, prepare, send }) => {
    const prepared = prepare ? await prepare() : '';
    const answer = await send(tokens[role], prepared);
    if (allowedHere) {
      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200);
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    } else {
      expect([answer.status, answer.body.error?.code]).toEqual([403, 'forbidden']);
    }
  });

  it('every member, supervisors included, reads members, the audit list, environments, secrets names and the sender', async () => {
    for (const role of roles) {
      for (const path of ['/members', '/membership_events', '/environments', '/environments/preview/secrets', '/sender', '/test_numbers']) {
        const answer = await request(`${base()}${path}`, { token: tokens[role] });
        expect([role, path, answer.status]).toEqual([role, path, 200]);
      }
    }
    expect((await membersOf(platform, tokens.supervisor, slug)).members.length).toBeGreaterThanOrEqual(3);
  });
});
