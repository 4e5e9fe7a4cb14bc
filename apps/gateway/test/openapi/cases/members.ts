import { expect } from 'vitest';
import type { OperationCases, World } from '../world.ts';

const acme = { workspace: 'acme' };
const nowhere = { workspace: 'nowhere' };

/** A user of the suite's platform made a member of `acme` directly, and their id. */
async function memberOfAcme({ platform, clock }: World, email: string): Promise<string> {
  const { store, identity } = platform.core.services;
  const user = await identity.findOrCreateUser(email);
  await store.workspaces.addMember((await store.workspaces.findBySlug('acme'))!.id, user.id, 'developer', clock.now().toISOString());
  return user.id;
}

const idOf = async ({ platform }: World, email: string) => (await platform.core.services.identity.findOrCreateUser(email)).id;

export const memberCases: OperationCases = {
  listMembers: {
    sample: ({ token }) => ({ token, params: acme }),
    async answers({ api, supervisorToken }) {
      const list = await api.call('listMembers', { token: supervisorToken, params: acme });
      expect(list.body.members.map((m: { email: string }) => m.email)).toContain('sam@example.com');
      expect((await api.call('listMembers', { token: supervisorToken, params: nowhere })).body.error.code).toBe('workspace_not_found');
    },
  },
  listMembershipEvents: {
    sample: ({ token }) => ({ token, params: acme }),
    async answers({ api, token }) {
      expect((await api.call('listMembershipEvents', { token, params: acme })).status).toBe(200);
      expect((await api.call('listMembershipEvents', { token, params: nowhere })).body.error.code).toBe('workspace_not_found');
    },
  },
  inviteMember: {
    sample: ({ token }) => ({ token, params: acme, json: { email: 'new@example.com', role: 'developer' } }),
    async answers({ api, token, supervisorToken, mail }) {
      const invite = (email: string, as = token, params = acme, baseUrl?: string) =>
        api.call('inviteMember', { token: as, params, json: { email, role: 'developer' }, baseUrl });
      expect((await invite('new@example.com')).body.error.code).toBe('email_not_configured');
      expect((await invite('new@example.com', supervisorToken)).body.error.code).toBe('forbidden');
      expect((await invite('new@example.com', token, nowhere)).body.error.code).toBe('workspace_not_found');
      expect((await invite('new@example.com', mail.token, acme, mail.url)).status).toBe(201);
      expect((await invite('ada@example.com', mail.token, acme, mail.url)).body.error.code).toBe('already_member');
      // A workspace of its own spends its hourly invitations, so acme's are left for the other cases.
      await api.call('createWorkspace', { token: mail.token, json: { slug: 'crowd' }, baseUrl: mail.url });
      let answer;
      for (let i = 0; i < 21; i++) answer = await invite(`guest${i}@example.com`, mail.token, { workspace: 'crowd' }, mail.url);
      expect(answer!.body.error.code).toBe('rate_limited');
    },
  },
  changeMemberRole: {
    sample: async (world) => ({
      token: world.token,
      params: { ...acme, user_id: await idOf(world, 'sam@example.com') },
      json: { role: 'supervisor' },
    }),
    async answers(world) {
      const { api, token, supervisorToken } = world;
      const change = (user_id: string, role: string, as = token, workspace = 'acme') =>
        api.call('changeMemberRole', { token: as, params: { workspace, user_id }, json: { role } });
      const dev = await memberOfAcme(world, 'dev@example.com');
      expect((await change(dev, 'supervisor')).status).toBe(200);
      expect((await change(dev, 'developer', supervisorToken)).body.error.code).toBe('forbidden');
      expect((await change('usr_nobody', 'developer')).body.error.code).toBe('member_not_found');
      expect((await change(await idOf(world, 'ada@example.com'), 'developer')).body.error.code).toBe('last_owner');
      expect((await change(dev, 'developer', token, 'nowhere')).body.error.code).toBe('workspace_not_found');
    },
  },
  removeMember: {
    sample: async (world) => ({ token: world.token, params: { ...acme, user_id: 'usr_nobody' } }),
    async answers(world) {
      const { api, token, supervisorToken } = world;
      const remove = (user_id: string, as = token, workspace = 'acme') =>
        api.call('removeMember', { token: as, params: { workspace, user_id } });
      const rex = await memberOfAcme(world, 'rex@example.com');
      expect((await remove(rex, supervisorToken)).body.error.code).toBe('forbidden');
      expect((await remove(rex)).status).toBe(204);
      expect((await remove(rex)).body.error.code).toBe('member_not_found');
      expect((await remove(await idOf(world, 'ada@example.com'))).body.error.code).toBe('last_owner');
      expect((await remove(rex, token, 'nowhere')).body.error.code).toBe('workspace_not_found');
    },
  },
  revokeInvitation: {
    sample: ({ token }) => ({ token, params: { ...acme, id: 'inv_nobody' } }),
    async answers({ api, token, supervisorToken, mail }) {
      const onMail = { token: mail.token, baseUrl: mail.url };
      const invited = await api.call('inviteMember', { ...onMail, params: acme, json: { email: 'later@example.com', role: 'supervisor' } });
      const revoke = (id: string) => api.call('revokeInvitation', { ...onMail, params: { ...acme, id } });
      expect((await revoke(invited.body.id)).status).toBe(204);
      expect((await revoke(invited.body.id)).body.error.code).toBe('invitation_not_found');
      const byDeveloper = await api.call('revokeInvitation', { token: supervisorToken, params: { ...acme, id: 'inv_nobody' } });
      expect(byDeveloper.body.error.code).toBe('forbidden');
      expect((await api.call('revokeInvitation', { token, params: { ...nowhere, id: 'inv_nobody' } })).body.error.code).toBe(
        'workspace_not_found',
      );
    },
  },
};
