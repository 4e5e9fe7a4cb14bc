import { expect } from 'vitest';
import type { OperationCases, World } from '../world.ts';

const acme = { workspace: 'acme' };
const nowhere = { workspace: 'nowhere' };

const files = {
  'svc.yaml': 'workspace: acme\n',
  'agents/support/agent.yaml': 'name: Support\nmodel: scripted\nscripted:\n  rules: []\n  fallback: Hello.\n',
  'agents/support/instructions.md': 'Help.',
};

/** A new chat on acme's live support agent, one turn long: the ids of the visitor's message and the agent's reply. */
async function turn({ api, token }: World): Promise<{ visitor: string; reply: string }> {
  expect((await api.call('pushDeployment', { token, params: acme, json: { environment: 'preview', files } })).status).toBe(201);
  expect((await api.call('publish', { token, params: acme })).status).toBe(200);
  const chat = await api.call('createChat', { token, params: { slug: 'acme' }, json: { agent: 'support' } });
  const sent = await api.call('sendMessage', { token, params: { slug: 'acme', id: chat.body.chat_id }, json: { text: 'hi' } });
  return { visitor: sent.body.visitor_message_id, reply: sent.body.message_id };
}

/** A flag of a fresh reply, with a note. */
async function flagged(world: World): Promise<string> {
  const { reply } = await turn(world);
  const created = await world.api.call('createFlag', { token: world.token, params: acme, json: { message_id: reply, note: 'Say hi.' } });
  expect(created.status).toBe(201);
  return created.body.id;
}

export const flagCases: OperationCases = {
  listFlags: {
    sample: ({ token }) => ({ token, params: acme, query: { status: 'all' } }),
    async answers(world) {
      const { api, token, supervisorToken } = world;
      await flagged(world);
      await flagged(world);
      expect((await api.call('listFlags', { token: supervisorToken, params: acme })).body.flags.length).toBeGreaterThan(0);
      const first = await api.call('listFlags', { token, params: acme, query: { agent: 'support', limit: '1' } });
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const next = await api.call('listFlags', {
        token,
        params: acme,
        query: { agent: 'support', limit: '1', cursor: first.body.next_cursor },
      });
      expect(next.body.flags).toHaveLength(1);
      expect((await api.call('listFlags', { token, params: nowhere })).body.error.code).toBe('workspace_not_found');
    },
  },
  flagsDigest: {
    sample: ({ token }) => ({ token, params: acme }),
    async answers(world) {
      const { api, token } = world;
      await flagged(world);
      const digest = await api.call('flagsDigest', { token, params: acme });
      expect(digest.body).toContain('Say hi.');
      expect((await api.call('flagsDigest', { token, params: acme, query: { agent: 'support' } })).body).toContain('Say hi.');
      expect((await api.call('flagsDigest', { token, params: nowhere })).body.error.code).toBe('workspace_not_found');
    },
  },
  createFlag: {
    sample: ({ token }) => ({ token, params: acme, json: { message_id: 'msg_unknown' } }),
    async answers(world) {
      const { api, token, supervisorToken } = world;
      const { visitor, reply } = await turn(world);
      const create = (json: unknown, params = acme, as = token) => api.call('createFlag', { token: as, params, json });
      const created = await create({ message_id: reply, note: 'Say hi.' }, acme, supervisorToken);
      expect(created.status).toBe(201);
      expect(created.body.warning).toBeUndefined();
      // The reply says "Hello.": a note quoting it warns that the case would pass as it is.
      const warned = await create({ message_id: (await turn(world)).reply, note: 'Say "hello".' });
      expect(warned).toMatchObject({ status: 201, body: { status: 'open', warning: { code: 'reply_already_passes' } } });
      expect((await create({ message_id: reply })).body).toMatchObject({ flag_id: created.body.id, error: { code: 'already_flagged' } });
      expect((await create({ message_id: visitor })).body.error.code).toBe('not_an_agent_reply');
      expect((await create({ message_id: 'msg_unknown' })).body.error.code).toBe('message_not_found');
      expect((await create({ message_id: reply, note: 'x'.repeat(10_001) })).body.error).toMatchObject({
        code: 'invalid_request',
        field: 'note',
      });
      expect((await create({ message_id: reply }, nowhere)).body.error.code).toBe('workspace_not_found');
    },
  },
  getFlag: {
    sample: ({ token }) => ({ token, params: { ...acme, id: 'flag_unknown' } }),
    async answers(world) {
      const { api, token } = world;
      const id = await flagged(world);
      expect((await api.call('getFlag', { token, params: { ...acme, id } })).body.history).toHaveLength(1);
      expect((await api.call('getFlag', { token, params: { ...acme, id: 'flag_unknown' } })).body.error.code).toBe('flag_not_found');
      expect((await api.call('getFlag', { token, params: { ...nowhere, id } })).body.error.code).toBe('workspace_not_found');
    },
  },
  updateFlag: {
    sample: ({ token }) => ({ token, params: { ...acme, id: 'flag_unknown' }, json: { note: 'Say hello.' } }),
    async answers(world) {
      const { api, token } = world;
      const id = await flagged(world);
      const update = (params: Record<string, string>, note: string | null = 'Say hello.') =>
        api.call('updateFlag', { token, params, json: { note } });
      expect((await update({ ...acme, id })).body.note).toBe('Say hello.');
      expect((await update({ ...acme, id }, null)).body.note).toBeNull();
      expect((await update({ ...acme, id: 'flag_unknown' })).body.error.code).toBe('flag_not_found');
      expect((await update({ ...nowhere, id })).body.error.code).toBe('workspace_not_found');
      expect((await api.call('removeFlag', { token, params: { ...acme, id } })).status).toBe(204);
      expect((await update({ ...acme, id })).body.error.code).toBe('flag_removed');
    },
  },
  removeFlag: {
    sample: ({ token }) => ({ token, params: { ...acme, id: 'flag_unknown' } }),
    async answers(world) {
      const { api, token } = world;
      const id = await flagged(world);
      expect((await api.call('removeFlag', { token, params: { ...acme, id } })).status).toBe(204);
      expect((await api.call('removeFlag', { token, params: { ...acme, id: 'flag_unknown' } })).body.error.code).toBe('flag_not_found');
      expect((await api.call('removeFlag', { token, params: { ...nowhere, id } })).body.error.code).toBe('workspace_not_found');
    },
  },
};
