import { expect } from 'vitest';
import type { OperationCases } from '../world.ts';

export const workspaceCases: OperationCases = {
  health: {
    sample: () => ({}),
    async answers({ api }) {
      expect((await api.call('health')).body).toEqual({ status: 'ok' });
    },
  },
  listWorkspaces: {
    sample: ({ token }) => ({ token }),
    async answers({ api, token }) {
      expect((await api.call('listWorkspaces', { token })).status).toBe(200);
    },
  },
  createWorkspace: {
    sample: ({ token }) => ({ token, json: { slug: 'sampled' } }),
    async answers({ api, token }) {
      expect((await api.call('createWorkspace', { token, json: { slug: 'globex', name: 'Globex' } })).status).toBe(201);
      expect((await api.call('createWorkspace', { token, json: { slug: 'globex' } })).body.error.code).toBe('slug_taken');
      expect((await api.call('createWorkspace', { token, json: { slug: 'A' } })).body.error).toMatchObject({ field: 'slug' });
    },
  },
  getWorkspace: {
    sample: ({ token }) => ({ token, params: { workspace: 'acme' } }),
    async answers({ api, token }) {
      expect((await api.call('getWorkspace', { token, params: { workspace: 'acme' } })).body.slug).toBe('acme');
      const missing = await api.call('getWorkspace', { token, params: { workspace: 'nowhere' } });
      expect(missing.body.error.code).toBe('workspace_not_found');
    },
  },
  whoami: {
    sample: ({ token }) => ({ token }),
    async answers({ api, token }) {
      expect((await api.call('whoami', { token })).body.user.email).toBe('ada@example.com');
    },
  },
  listTokens: {
    sample: ({ token }) => ({ token }),
    async answers({ api, token }) {
      expect((await api.call('listTokens', { token })).body.tokens).toContainEqual(expect.objectContaining({ current: true }));
    },
  },
  revokeToken: {
    sample: ({ token }) => ({ token, params: { id: 'tok_unknown' } }),
    async answers({ api, platform }) {
      const { identity } = platform.core.services;
      const user = await identity.findOrCreateUser('ada@example.com');
      const spare = await identity.issueToken(user.id, 'spare');
      const listed = (await api.call('listTokens', { token: spare.token })).body.tokens;
      const id = listed.find((t: { current: boolean }) => t.current).id;
      expect((await api.call('revokeToken', { token: spare.token, params: { id } })).status).toBe(204);
      const again = await api.call('revokeToken', { token: (await identity.issueToken(user.id, 'other')).token, params: { id } });
      expect(again.body.error.code).toBe('not_found');
    },
  },
};
