import { expect } from 'vitest';
import type { OperationCases, World } from '../world.ts';

const files = (workspace = 'acme') => ({
  'svc.yaml': `workspace: ${workspace}\n`,
  'agents/support/agent.yaml':
    'name: Support\nmodel: scripted\nscripted:\n  rules:\n    - when: "refund"\n      reply: "Refunds take 5 days."\n  fallback: Hello.\n',
  'agents/support/instructions.md': 'Help.',
});

const acme = { workspace: 'acme' };

/** `acme` with the support agent deployed to preview and live. */
async function deployed({ api, token }: World): Promise<void> {
  expect((await api.call('pushDeployment', { token, params: acme, json: { environment: 'preview', files: files() } })).status).toBe(201);
  expect((await api.call('publish', { token, params: acme })).status).toBe(200);
}

async function chat(world: World): Promise<string> {
  await deployed(world);
  const created = await world.api.call('createChat', { token: world.token, params: { slug: 'acme' }, json: { agent: 'support' } });
  expect(created.status).toBe(201);
  return created.body.chat_id;
}

export const agentCases: OperationCases = {
  pushDeployment: {
    sample: ({ token }) => ({ token, params: acme, json: { environment: 'preview', files: files() } }),
    async answers({ api, token, supervisorToken }) {
      const push = (json: unknown, as = token, workspace = 'acme') =>
        api.call('pushDeployment', { token: as, params: { workspace }, json });
      expect((await push({ environment: 'feat-x', files: files(), git: { commit: 'abc1234', branch: 'feat/x' } })).status).toBe(201);
      const broken = await push({ environment: 'feat-x', files: { ...files(), 'agents/support/agent.yaml': 'name: [' } });
      expect(broken.body).toMatchObject({ error: { code: 'invalid_manifest' }, issues: [{ file: 'agents/support/agent.yaml' }] });
      expect((await push({ environment: 'feat-x', files: files('globex') })).body.error.code).toBe('workspace_mismatch');
      expect((await push({ environment: 'feat-x', files: files() }, supervisorToken)).body.error.code).toBe('forbidden');
      expect((await push({ environment: 'feat-x', files: files() }, token, 'nowhere')).body.error.code).toBe('workspace_not_found');
    },
  },
  listEnvironments: {
    sample: ({ token }) => ({ token, params: acme }),
    async answers({ api, token }) {
      expect((await api.call('listEnvironments', { token, params: acme })).status).toBe(200);
      expect((await api.call('listEnvironments', { token, params: { workspace: 'nowhere' } })).body.error.code).toBe('workspace_not_found');
    },
  },
  publish: {
    sample: ({ token }) => ({ token, params: acme, json: { from: 'preview' } }),
    async answers(world) {
      const { api, token, supervisorToken } = world;
      await deployed(world);
      expect((await api.call('publish', { token, params: acme, json: { from: 'no-such-env' } })).body.error.code).toBe(
        'environment_not_found',
      );
      expect((await api.call('publish', { token: supervisorToken, params: acme })).body.error.code).toBe('forbidden');
      expect((await api.call('publish', { token, params: { workspace: 'nowhere' } })).body.error.code).toBe('workspace_not_found');
    },
  },
  listVersions: {
    sample: ({ token }) => ({ token, params: acme }),
    async answers(world) {
      const { api, token } = world;
      await deployed(world);
      const page = await api.call('listVersions', { token, params: acme, query: { limit: '1' } });
      expect(page).toMatchObject({ status: 200, body: { versions: [{ number: 1 }] } });
      expect((await api.call('listVersions', { token, params: { workspace: 'nowhere' } })).body.error.code).toBe('workspace_not_found');
    },
  },
  setSecret: {
    sample: ({ token }) => ({ token, params: { ...acme, environment: 'live', name: 'API_KEY' }, json: { value: 's3cret' } }),
    async answers(world) {
      const { api, token, supervisorToken } = world;
      await deployed(world);
      const set = (as: string, workspace = 'acme', environment = 'live') =>
        api.call('setSecret', { token: as, params: { workspace, environment, name: 'API_KEY' }, json: { value: 's3cret' } });
      expect((await set(token)).status).toBe(204);
      expect((await set(token, 'acme', 'nowhere')).body.error.code).toBe('environment_not_found');
      expect((await set(supervisorToken)).body.error.code).toBe('forbidden');
      expect((await set(token, 'nowhere')).body.error.code).toBe('workspace_not_found');
    },
  },
  listSecrets: {
    sample: ({ token }) => ({ token, params: { ...acme, environment: 'live' } }),
    async answers(world) {
      const { api, token } = world;
      await deployed(world);
      expect((await api.call('listSecrets', { token, params: { ...acme, environment: 'live' } })).status).toBe(200);
      const unknown = await api.call('listSecrets', { token, params: { ...acme, environment: 'nowhere' } });
      expect(unknown.body.error.code).toBe('environment_not_found');
      const missing = await api.call('listSecrets', { token, params: { workspace: 'nowhere', environment: 'live' } });
      expect(missing.body.error.code).toBe('workspace_not_found');
    },
  },
  inbox: {
    sample: ({ token }) => ({ token, params: acme, query: { agent: 'support', environment: 'live', limit: '10' } }),
    async answers(world) {
      const { api, token } = world;
      const id = await chat(world);
      await api.call('sendMessage', { token, params: { slug: 'acme', id }, json: { text: 'refund?' } });
      const listed = await api.call('inbox', { token, params: acme, query: { agent: 'support', environment: 'live' } });
      expect(listed.status).toBe(200);
      expect(listed.body.chats.find((c: { chat_id: string }) => c.chat_id === id)).toMatchObject({
        version_number: 1,
        first_visitor_message: 'refund?',
        message_count: 2,
      });
      const elsewhere = await api.call('inbox', { token, params: acme, query: { environment: 'preview' } });
      expect(elsewhere.body.chats).toEqual([]);
      expect((await api.call('inbox', { token, params: acme, query: { agent: 'nobody' } })).body.chats).toEqual([]);
      expect((await api.call('inbox', { token, params: { workspace: 'nowhere' } })).body.error.code).toBe('workspace_not_found');
    },
  },
  getChat: {
    sample: ({ token }) => ({ token, params: { ...acme, id: 'chat_unknown' } }),
    async answers(world) {
      const { api, token } = world;
      const id = await chat(world);
      await api.call('sendMessage', { token, params: { slug: 'acme', id }, json: { text: 'refund?' } });
      expect((await api.call('getChat', { token, params: { ...acme, id } })).body.messages).toHaveLength(2);
      expect((await api.call('getChat', { token, params: { ...acme, id: 'chat_unknown' } })).body.error.code).toBe('chat_not_found');
      expect((await api.call('getChat', { token, params: { workspace: 'nowhere', id } })).body.error.code).toBe('workspace_not_found');
    },
  },
  createChat: {
    sample: ({ token }) => ({ token, params: { slug: 'acme' }, json: { agent: 'support' } }),
    async answers(world) {
      const { api, token } = world;
      await chat(world);
      const create = (json: unknown, slug = 'acme') => api.call('createChat', { token, params: { slug }, json });
      expect((await create({ agent: 'support', environment: 'nothing-here' })).body.error.code).toBe('environment_not_found');
      expect((await create({ agent: 'nobody' })).body.error.code).toBe('agent_not_found');
      expect((await create({ agent: 'support' }, 'nowhere')).body.error.code).toBe('workspace_not_found');
    },
  },
  sendMessage: {
    sample: ({ token }) => ({ token, params: { slug: 'acme', id: 'chat_unknown' }, json: { text: 'hello' } }),
    async answers(world) {
      const { api, token } = world;
      const id = await chat(world);
      const send = (chatId: string, slug = 'acme') =>
        api.call('sendMessage', { token, params: { slug, id: chatId }, json: { text: 'refund?' } });
      expect((await send(id)).body.reply).toBe('Refunds take 5 days.');
      const silentModel = { ...files(), 'agents/support/agent.yaml': 'name: Support\nmodel: openai:gpt-4.1-mini\n' };
      await api.call('pushDeployment', { token, params: acme, json: { environment: 'silent-model', files: silentModel } });
      const timedOut = await api.call('createChat', {
        token,
        params: { slug: 'acme' },
        json: { agent: 'support', environment: 'silent-model' },
      });
      expect((await send(timedOut.body.chat_id)).body.error.code).toBe('model_timeout');
      expect((await send('chat_unknown')).body.error.code).toBe('chat_not_found');
      expect((await send(id, 'nowhere')).body.error.code).toBe('workspace_not_found');
    },
  },
};
