import { type Action, permissions, type Role } from '@svc/domain';
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
  const sender = await request(`${base()}/sender`, { method: 'PUT', token: tokens.owner, json: { kind: 'dev' } });
  expect(sender.status).toBe(200);
});
afterAll(() => platform.stop());

let targets = 0;
/** A fresh member for a write that changes or removes one. */
async function freshMember(): Promise<string> {
  const email = `target${++targets}@roles.example`;
  await addMember(platform, tokens.owner, slug, email, 'supervisor');
  return userIdOf(platform, email);
}

const api = (path: string) => `${platform.url}/api/v1/${slug}${path}`;
let numbers = 0;
const freshNumber = () => `+5699${String(1_000_000 + ++numbers)}`;

/** An agent reply in a new chat, as `token`'s member: the chat runs the agent. */
async function replyBy(token: string): Promise<string> {
  const chat = await request(api('/chats'), { token, json: { agent: 'support', environment: 'preview' } });
  expect(chat.status).toBe(201);
  const sent = await request(api(`/chats/${chat.body.chat_id}/messages`), { token, json: { text: 'Hi' } });
  expect(sent.status).toBe(201);
  return sent.body.message_id as string;
}

/** A flag with a note (so a case too), made by `token`'s member. */
async function flagBy(token: string): Promise<string> {
  const flag = await request(`${base()}/flags`, {
    token,
    json: { message_id: await replyBy(tokens.owner), note: 'Say hello and offer help.' },
  });
  expect(flag.status).toBe(201);
  return flag.body.id as string;
}

/** A case written by hand by `token`'s member. */
async function caseBy(token: string): Promise<string> {
  const added = await request(`${base()}/evals/cases`, { token, json: { agent: 'support', turns: ['Hi'], expected: 'Greets back.' } });
  expect(added.status).toBe(201);
  return added.body.id as string;
}

interface Write {
  name: string;
  /** The permission it needs: the roles allowed are the table's. */
  action: Action;
  /** The request; `prepare` runs first, as the owner, for writes that need something to act on. */
  send(token: string, prepared: string): Promise<{ status: number; body: { error?: { code: string } } }>;
  /** What an allowed role gets, when not a 2xx. */
  answers?: number;
  prepare?: () => Promise<string>;
}

const writes: Write[] = [
  {
    name: 'push',
    action: 'deploy',
    send: (token) => request(`${base()}/deployments`, { token, json: { environment: 'preview', files } }),
  },
  {
    name: 'publish',
    action: 'deploy',
    send: (token) => request(`${base()}/publish`, { token, json: { from: 'preview' } }),
  },
  {
    name: 'set a secret',
    action: 'setSecrets',
    send: (token) => request(`${base()}/environments/preview/secrets/API_KEY`, { method: 'PUT', token, json: { value: 's3cret' } }),
  },
  {
    name: 'set the sender',
    action: 'setSender',
    send: (token) => request(`${base()}/sender`, { method: 'PUT', token, json: { kind: 'dev' } }),
  },
  {
    name: 'send a verification code',
    action: 'verifyPhones',
    send: (token) => request(api('/phone_verifications'), { token, json: { phone_number: freshNumber() } }),
  },
  {
    name: 'check a verification code',
    action: 'verifyPhones',
    answers: 422,
    prepare: async () => {
      const created = await request(api('/phone_verifications'), { token: tokens.owner, json: { phone_number: freshNumber() } });
      return created.body.verification_id as string;
    },
    send: (token, id) => request(api(`/phone_verifications/${id}/verify`), { token, json: { code: '000000' } }),
  },
  {
    name: 'start a chat',
    action: 'runChats',
    send: (token) => request(api('/chats'), { token, json: { agent: 'support', environment: 'preview' } }),
  },
  {
    name: 'send a message in a chat',
    action: 'runChats',
    prepare: async () =>
      (await request(api('/chats'), { token: tokens.owner, json: { agent: 'support', environment: 'preview' } })).body.chat_id,
    send: (token, chatId) => request(api(`/chats/${chatId}/messages`), { token, json: { text: 'Hello?' } }),
  },
  {
    name: 'flag a reply',
    action: 'flag',
    prepare: () => replyBy(tokens.owner),
    send: (token, messageId) => request(`${base()}/flags`, { token, json: { message_id: messageId, note: 'Offer help.' } }),
  },
  {
    name: "edit the note of another member's flag",
    action: 'changeAnyFlag',
    prepare: () => flagBy(tokens.owner),
    send: (token, id) => request(`${base()}/flags/${id}`, { method: 'PATCH', token, json: { note: 'Anything goes.' } }),
  },
  {
    name: "remove another member's flag",
    action: 'changeAnyFlag',
    prepare: () => flagBy(tokens.owner),
    send: (token, id) => request(`${base()}/flags/${id}`, { method: 'DELETE', token }),
  },
  {
    name: 'add an eval case',
    action: 'writeCases',
    send: (token) => request(`${base()}/evals/cases`, { token, json: { agent: 'support', turns: ['Hi'], expected: 'Greets back.' } }),
  },
  {
    name: "change another member's eval case",
    action: 'changeAnyCase',
    prepare: () => caseBy(tokens.developer),
    send: (token, id) => request(`${base()}/evals/cases/${id}`, { method: 'PATCH', token, json: { expected: 'Anything goes.' } }),
  },
  {
    name: "remove another member's eval case",
    action: 'changeAnyCase',
    prepare: () => caseBy(tokens.developer),
    send: (token, id) => request(`${base()}/evals/cases/${id}`, { method: 'DELETE', token }),
  },
  {
    name: 'start an eval run',
    action: 'runEvals',
    send: (token) => request(`${base()}/evals/runs`, { token, json: { environment: 'preview' } }),
  },
  {
    name: 'link a GitHub repository',
    action: 'linkRepositories',
    send: (token) => request(`${base()}/github/links`, { token, json: { repository: `octo/roles-${++targets}` } }),
  },
  {
    name: 'set test numbers',
    action: 'setTestNumbers',
    send: (token) =>
      request(`${base()}/test_numbers`, {
        method: 'PUT',
        token,
        json: { test_numbers: [{ phone_number: '+56912345678', code: '123456' }] },
      }),
  },
  {
    name: 'invite a member',
    action: 'manageMembers',
    send: (token) =>
      request(membersUrl(platform, slug), { token, json: { email: `invitee${++targets}@roles.example`, role: 'supervisor' } }),
  },
  {
    name: "change a member's role",
    action: 'manageMembers',
    prepare: freshMember,
    send: (token, userId) => request(`${membersUrl(platform, slug)}/${userId}`, { method: 'PATCH', token, json: { role: 'developer' } }),
  },
  {
    name: 'remove a member',
    action: 'manageMembers',
    prepare: freshMember,
    send: (token, userId) => request(`${membersUrl(platform, slug)}/${userId}`, { method: 'DELETE', token }),
  },
  {
    name: 'revoke an invitation',
    action: 'manageMembers',
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
const cases = writes.flatMap((write) =>
  roles.map((role) => ({ ...write, role, allowedHere: permissions[write.action].roles.includes(role) })),
);

describe('roles are enforced on every write', () => {
  it.each(cases)('$name as $role: allowed $allowedHere', async ({ role, allowedHere, prepare, send, answers }) => {
    const prepared = prepare ? await prepare() : '';
    const answer = await send(tokens[role], prepared);
    if (allowedHere && answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(answers);
    } else if (allowedHere) {
      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200);
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    } else {
      expect([answer.status, answer.body.error?.code]).toEqual([403, 'forbidden']);
    }
  });

  it('a supervisor edits and removes the flags they made, and changes and removes the cases they added', async () => {
    const flag = await flagBy(tokens.supervisor);
    const edited = await request(`${base()}/flags/${flag}`, {
      method: 'PATCH',
      token: tokens.supervisor,
      json: { note: 'Greet by name.' },
    });
    expect([edited.status, edited.body.note]).toEqual([200, 'Greet by name.']);
    expect((await request(`${base()}/flags/${flag}`, { method: 'DELETE', token: tokens.supervisor })).status).toBe(204);

    const own = await caseBy(tokens.supervisor);
    const changed = await request(`${base()}/evals/cases/${own}`, {
      method: 'PATCH',
      token: tokens.supervisor,
      json: { expected: 'Greets by name.' },
    });
    expect([changed.status, changed.body.expected]).toEqual([200, 'Greets by name.']);
    expect((await request(`${base()}/evals/cases/${own}`, { method: 'DELETE', token: tokens.supervisor })).status).toBe(204);
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
