import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InvitationRecord, NewMembershipEvent } from '../src/workspaces/store.ts';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const later = '2026-01-08T00:00:00.000Z';

/** What every Store must do with members, invitations and their events (run against each implementation). */
export function describeMembersStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: members`, () => {
    let store: Store;
    let events = 0;
    beforeEach(async () => {
      store = await open();
      for (const [id, email] of [
        ['usr_ada', 'ada@example.com'],
        ['usr_bob', 'bob@example.com'],
        ['usr_cy', 'cy@example.com'],
      ] as const)
        await store.users.create({ id, email, createdAt: at(0) });
      await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at(0) }, 'usr_ada');
    });
    afterEach(() => store.close());

    const by = (actorEmail: string, minute = 1): NewMembershipEvent => ({
      id: `mev_${++events}`,
      workspaceId: 'ws_1',
      actorEmail,
      at: at(minute),
    });
    const mail = (id: string) => ({
      id,
      to: 'x@example.com',
      subject: 'Invitation',
      bodySealed: 'sealed',
      createdAt: at(1),
      deliverUntil: at(50),
    });
    const invitation = (id: string, email: string, changes: Partial<InvitationRecord> = {}): InvitationRecord => ({
      id,
      workspaceId: 'ws_1',
      email,
      role: 'developer',
      tokenHash: `hash_${id}`,
      invitedBy: 'usr_ada',
      status: 'pending',
      expiresAt: at(50),
      createdAt: at(1),
      decidedAt: null,
      ...changes,
    });

    it('lists members with their emails, roles and when they were added', async () => {
      await store.workspaces.addMember('ws_1', 'usr_bob', 'supervisor', at(2));
      expect(await store.members.list('ws_1')).toEqual([
        { userId: 'usr_ada', email: 'ada@example.com', role: 'owner', addedAt: at(0) },
        { userId: 'usr_bob', email: 'bob@example.com', role: 'supervisor', addedAt: at(2) },
      ]);
    });

    it('changes roles and removes members, recording each change; never the last owner', async () => {
      await store.workspaces.addMember('ws_1', 'usr_bob', 'developer', at(2));
      expect(await store.members.changeRole('ws_1', 'usr_ada', 'developer', by('ada@example.com'))).toBe('last_owner');
      expect(await store.members.remove('ws_1', 'usr_ada', by('ada@example.com'))).toBe('last_owner');
      expect(await store.members.changeRole('ws_1', 'usr_cy', 'owner', by('ada@example.com'))).toBe('not_member');
      expect(await store.members.changeRole('ws_1', 'usr_bob', 'owner', by('ada@example.com', 3))).toBe('changed');
      expect(await store.members.changeRole('ws_1', 'usr_ada', 'supervisor', by('bob@example.com', 4))).toBe('changed');
      expect(await store.members.remove('ws_1', 'usr_ada', by('ada@example.com', 5))).toBe('changed');
      expect(await store.members.remove('ws_1', 'usr_bob', by('bob@example.com', 6))).toBe('last_owner');
      expect(await store.workspaces.findForUser('acme', 'usr_ada')).toBeUndefined();
      expect((await store.workspaces.findForUser('acme', 'usr_bob'))?.role).toBe('owner');
      const recorded = await store.members.events('ws_1', 10);
      expect(recorded.map((e) => [e.action, e.actorEmail, e.email, e.role, e.previousRole, e.at])).toEqual([
        ['left', 'ada@example.com', 'ada@example.com', null, 'supervisor', at(5)],
        ['role_changed', 'bob@example.com', 'ada@example.com', 'supervisor', 'owner', at(4)],
        ['role_changed', 'ada@example.com', 'bob@example.com', 'owner', 'developer', at(3)],
      ]);
      expect(await store.members.events('ws_1', 1)).toHaveLength(1);
    });

    it('keeps one owner when both owners are removed at once', async () => {
      await store.workspaces.addMember('ws_1', 'usr_bob', 'owner', at(2));
      const outcomes = await Promise.all([
        store.members.remove('ws_1', 'usr_ada', by('bob@example.com')),
        store.members.remove('ws_1', 'usr_bob', by('ada@example.com')),
      ]);
      expect(outcomes.sort()).toEqual(['changed', 'last_owner']);
      expect(await store.members.list('ws_1')).toHaveLength(1);
    });

    it('answers a changed membership at once, not the role it knew before', async () => {
      await store.workspaces.addMember('ws_1', 'usr_bob', 'developer', at(2));
      expect((await store.workspaces.findForUser('acme', 'usr_bob'))?.role).toBe('developer');
      await store.members.changeRole('ws_1', 'usr_bob', 'supervisor', by('ada@example.com'));
      expect((await store.workspaces.findForUser('acme', 'usr_bob'))?.role).toBe('supervisor');
      await store.members.remove('ws_1', 'usr_bob', by('ada@example.com'));
      expect(await store.workspaces.findForUser('acme', 'usr_bob')).toBeUndefined();
    });

    it('creates an invitation with its mail, replacing a pending one to the same address, and refuses members', async () => {
      expect(await store.invitations.create(invitation('inv_1', 'cy@example.com'), mail('mail_1'), by('ada@example.com'))).toBe('created');
      expect(
        await store.invitations.create(invitation('inv_2', 'cy@example.com', { role: 'owner' }), mail('mail_2'), by('ada@example.com')),
      ).toBe('created');
      expect(await store.invitations.create(invitation('inv_3', 'ada@example.com'), mail('mail_3'), by('ada@example.com'))).toBe(
        'already_member',
      );
      expect(await store.invitations.listPending('ws_1', at(2))).toEqual([
        { id: 'inv_2', email: 'cy@example.com', role: 'owner', invitedByEmail: 'ada@example.com', expiresAt: at(50) },
      ]);
      expect((await store.invitations.findByTokenHash('hash_inv_1'))?.status).toBe('revoked');
      expect(await store.invitations.findByTokenHash('hash_inv_3')).toBeUndefined();
      expect((await store.mails.due(at(2), 10)).map((m) => [m.id, m.deliverUntil])).toEqual([
        ['mail_1', at(50)],
        ['mail_2', at(50)],
      ]);
      expect(await store.invitations.listPending('ws_1', at(50))).toEqual([]);
      expect((await store.members.events('ws_1', 10)).map((e) => [e.action, e.email, e.role])).toEqual([
        ['invited', 'cy@example.com', 'owner'],
        ['invited', 'cy@example.com', 'developer'],
      ]);
    });

    it('finds an invitation by its token hash with the workspace slug and the inviter', async () => {
      await store.invitations.create(invitation('inv_1', 'cy@example.com'), mail('mail_1'), by('ada@example.com'));
      expect(await store.invitations.findByTokenHash('hash_inv_1')).toEqual({
        ...invitation('inv_1', 'cy@example.com'),
        workspaceSlug: 'acme',
        invitedByEmail: 'ada@example.com',
      });
      expect(await store.invitations.findByTokenHash('nothing')).toBeUndefined();
    });

    it('revokes a pending invitation once, in its own workspace only', async () => {
      await store.invitations.create(invitation('inv_1', 'cy@example.com'), mail('mail_1'), by('ada@example.com'));
      expect(await store.invitations.revoke('ws_other', 'inv_1', by('ada@example.com'))).toBe(false);
      expect(await store.invitations.revoke('ws_1', 'inv_1', by('ada@example.com', 2))).toBe(true);
      expect(await store.invitations.revoke('ws_1', 'inv_1', by('ada@example.com', 3))).toBe(false);
      expect(await store.invitations.accept('inv_1', 'usr_cy', by('cy@example.com', 4))).toBe('gone');
      expect((await store.members.events('ws_1', 10)).map((e) => e.action)).toEqual(['invitation_revoked', 'invited']);
    });

    it('accepts a pending invitation once, before it expires: the user joins with its role', async () => {
      await store.invitations.create(invitation('inv_1', 'cy@example.com'), mail('mail_1'), by('ada@example.com'));
      await store.invitations.create(invitation('inv_2', 'bob@example.com'), mail('mail_2'), by('ada@example.com'));
      const twice = await Promise.all([
        store.invitations.accept('inv_1', 'usr_cy', by('cy@example.com', 2)),
        store.invitations.accept('inv_1', 'usr_cy', by('cy@example.com', 2)),
      ]);
      expect(twice.sort()).toEqual(['accepted', 'gone']);
      expect((await store.workspaces.findForUser('acme', 'usr_cy'))?.role).toBe('developer');
      expect((await store.invitations.findByTokenHash('hash_inv_1'))?.status).toBe('accepted');
      expect(await store.invitations.accept('inv_2', 'usr_bob', { ...by('bob@example.com'), at: later })).toBe('gone');
      expect(await store.workspaces.findForUser('acme', 'usr_bob')).toBeUndefined();
      expect((await store.members.events('ws_1', 10)).filter((e) => e.action === 'joined')).toHaveLength(1);
    });

    it('spends the invitation of a user who joined another way, adding nothing', async () => {
      await store.invitations.create(invitation('inv_1', 'cy@example.com'), mail('mail_1'), by('ada@example.com'));
      await store.workspaces.addMember('ws_1', 'usr_cy', 'supervisor', at(2));
      expect(await store.invitations.accept('inv_1', 'usr_cy', by('cy@example.com', 3))).toBe('already_member');
      expect((await store.workspaces.findForUser('acme', 'usr_cy'))?.role).toBe('supervisor');
      expect((await store.invitations.findByTokenHash('hash_inv_1'))?.status).toBe('accepted');
    });
  });
}
