import type { Role } from '@svc/domain';
import { and, asc, count, desc, eq, gt } from 'drizzle-orm';
import type { NewMail } from '../platform/mail-store.ts';
import type { Changes } from '../platform/changes.ts';
import type { MembersStore, MembershipEventRecord, NewMembershipEvent } from './store.ts';
import { mailRow } from '../platform/mail-row.ts';
import type { SqliteDb } from '../platform/sqlite/database.ts';
import type { Write } from '../platform/sqlite/group-commit.ts';
import { invitations, mailOutbox, memberships, membershipEvents, users, workspaces } from '../platform/sqlite/schema.ts';

/**
 * Members and invitations on SQLite. Every write that may change a user's memberships publishes it on `changes` once
 * settled, committed or not, so no request after it is answered from a cached old role.
 */
export function createSqliteMembers(db: SqliteDb, write: Write, changes: Changes): MembersStore {
  const record = (event: MembershipEventRecord) => db.insert(membershipEvents).values(event).run();

  const memberOf = (workspaceId: string, userId: string) =>
    db
      .select({ role: memberships.role, email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
      .get();

  const owners = (workspaceId: string) =>
    db
      .select({ n: count() })
      .from(memberships)
      .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, 'owner')))
      .get()?.n ?? 0;

  /** Whether taking `role` away from a member leaves the workspace without an owner. */
  const wouldLeaveNoOwner = (workspaceId: string, from: Role, to: Role | undefined) =>
    from === 'owner' && to !== 'owner' && owners(workspaceId) <= 1;

  const change = async <T>(userId: string, work: () => T): Promise<T> => {
    try {
      return await write(work);
    } finally {
      await changes.publish('memberships', userId);
    }
  };

  return {
    members: {
      async list(workspaceId) {
        return db
          .select({ userId: users.id, email: users.email, role: memberships.role, addedAt: memberships.createdAt })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(eq(memberships.workspaceId, workspaceId))
          .orderBy(asc(memberships.createdAt), asc(users.email))
          .all();
      },
      changeRole(workspaceId, userId, role, event) {
        return change(userId, () => {
          const current = memberOf(workspaceId, userId);
          if (!current) return 'not_member';
          if (current.role === role) return 'changed';
          if (wouldLeaveNoOwner(workspaceId, current.role, role)) return 'last_owner';
          db.update(memberships)
            .set({ role })
            .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
            .run();
          record({ ...event, action: 'role_changed', email: current.email, role, previousRole: current.role });
          return 'changed';
        });
      },
      remove(workspaceId, userId, event) {
        return change(userId, () => {
          const current = memberOf(workspaceId, userId);
          if (!current) return 'not_member';
          if (wouldLeaveNoOwner(workspaceId, current.role, undefined)) return 'last_owner';
          db.delete(memberships)
            .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
            .run();
          const action = event.actorEmail === current.email ? 'left' : 'removed';
          record({ ...event, action, email: current.email, role: null, previousRole: current.role });
          return 'changed';
        });
      },
      async events(workspaceId, limit) {
        return db
          .select()
          .from(membershipEvents)
          .where(eq(membershipEvents.workspaceId, workspaceId))
          .orderBy(desc(membershipEvents.at), desc(membershipEvents.id))
          .limit(limit)
          .all();
      },
    },
    invitations: {
      async create(invitation, mail: NewMail, event: NewMembershipEvent) {
        return write(() => {
          const member = db
            .select({ userId: memberships.userId })
            .from(memberships)
            .innerJoin(users, eq(users.id, memberships.userId))
            .where(and(eq(memberships.workspaceId, invitation.workspaceId), eq(users.email, invitation.email)))
            .get();
          if (member) return 'already_member';
          db.update(invitations)
            .set({ status: 'revoked', decidedAt: invitation.createdAt })
            .where(
              and(
                eq(invitations.workspaceId, invitation.workspaceId),
                eq(invitations.email, invitation.email),
                eq(invitations.status, 'pending'),
              ),
            )
            .run();
          db.insert(invitations).values(invitation).run();
          db.insert(mailOutbox).values(mailRow(mail)).run();
          record({ ...event, action: 'invited', email: invitation.email, role: invitation.role, previousRole: null });
          return 'created';
        });
      },
      async listPending(workspaceId, now) {
        return db
          .select({
            id: invitations.id,
            email: invitations.email,
            role: invitations.role,
            invitedByEmail: users.email,
            expiresAt: invitations.expiresAt,
          })
          .from(invitations)
          .innerJoin(users, eq(users.id, invitations.invitedBy))
          .where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.status, 'pending'), gt(invitations.expiresAt, now)))
          .orderBy(asc(invitations.createdAt))
          .all();
      },
      async findByTokenHash(tokenHash) {
        const row = db
          .select({ invitation: invitations, workspaceSlug: workspaces.slug, invitedByEmail: users.email })
          .from(invitations)
          .innerJoin(workspaces, eq(workspaces.id, invitations.workspaceId))
          .innerJoin(users, eq(users.id, invitations.invitedBy))
          .where(eq(invitations.tokenHash, tokenHash))
          .get();
        return row && { ...row.invitation, workspaceSlug: row.workspaceSlug, invitedByEmail: row.invitedByEmail };
      },
      async revoke(workspaceId, id, event) {
        return write(() => {
          const pending = db
            .select()
            .from(invitations)
            .where(and(eq(invitations.id, id), eq(invitations.workspaceId, workspaceId), eq(invitations.status, 'pending')))
            .get();
          if (!pending) return false;
          db.update(invitations).set({ status: 'revoked', decidedAt: event.at }).where(eq(invitations.id, id)).run();
          record({ ...event, action: 'invitation_revoked', email: pending.email, role: pending.role, previousRole: null });
          return true;
        });
      },
      accept(id, userId, event) {
        return change(userId, () => {
          const pending = db
            .select()
            .from(invitations)
            .where(and(eq(invitations.id, id), eq(invitations.status, 'pending'), gt(invitations.expiresAt, event.at)))
            .get();
          if (!pending) return 'gone';
          db.update(invitations).set({ status: 'accepted', decidedAt: event.at }).where(eq(invitations.id, id)).run();
          if (memberOf(pending.workspaceId, userId)) return 'already_member';
          db.insert(memberships).values({ workspaceId: pending.workspaceId, userId, role: pending.role, createdAt: event.at }).run();
          record({ ...event, action: 'joined', email: pending.email, role: pending.role, previousRole: null });
          return 'accepted';
        });
      },
    },
  };
}
