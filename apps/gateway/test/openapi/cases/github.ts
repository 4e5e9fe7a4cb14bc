import { expect } from 'vitest';
import type { OperationCases } from '../world.ts';

const acme = { workspace: 'acme' };
const bare = { workspace: 'bare' };
const nowhere = { workspace: 'nowhere' };

export const githubCases: OperationCases = {
  listGithubLinks: {
    sample: ({ token }) => ({ token, params: acme }),
    async answers({ api, token, supervisorToken }) {
      expect((await api.call('createGithubLink', { token, params: acme, json: { repository: 'acme/listed' } })).status).toBe(201);
      const listed = await api.call('listGithubLinks', { token: supervisorToken, params: acme });
      expect(listed.body.links).toContainEqual(expect.objectContaining({ repository: 'acme/listed', installed: false }));
      expect((await api.call('listGithubLinks', { token, params: nowhere })).body.error.code).toBe('workspace_not_found');
    },
  },
  createGithubLink: {
    sample: ({ token }) => ({ token, params: acme, json: { repository: 'acme/sample' } }),
    async answers({ api, token, supervisorToken }) {
      const create = (repository: string, params = acme, as = token) =>
        api.call('createGithubLink', { token: as, params, json: { repository } });
      expect((await create('Acme/Created')).body).toMatchObject({ repository: 'Acme/Created', created_by: 'ada@example.com' });
      expect((await create('acme/created', bare)).body.error.code).toBe('repository_linked');
      expect((await create('acme/created-too', acme, supervisorToken)).body.error.code).toBe('forbidden');
      expect((await create('not a repository')).body.error).toMatchObject({ code: 'invalid_repository', field: 'repository' });
      expect((await create('acme/created-too', nowhere)).body.error.code).toBe('workspace_not_found');
    },
  },
  removeGithubLink: {
    sample: ({ token }) => ({ token, params: { ...acme, owner: 'acme', repo: 'unlinked' } }),
    async answers({ api, token, supervisorToken }) {
      const remove = (params: Record<string, string>, as = token) => api.call('removeGithubLink', { token: as, params });
      expect((await api.call('createGithubLink', { token, params: acme, json: { repository: 'acme/removed' } })).status).toBe(201);
      expect((await remove({ ...acme, owner: 'acme', repo: 'removed' }, supervisorToken)).body.error.code).toBe('forbidden');
      expect((await remove({ ...acme, owner: 'ACME', repo: 'Removed' })).status).toBe(204);
      expect((await remove({ ...acme, owner: 'acme', repo: 'removed' })).body.error.code).toBe('link_not_found');
      expect((await remove({ ...acme, owner: '-acme', repo: 'removed' })).body.error.code).toBe('invalid_repository');
      expect((await remove({ ...nowhere, owner: 'acme', repo: 'removed' })).body.error.code).toBe('workspace_not_found');
    },
  },
};
