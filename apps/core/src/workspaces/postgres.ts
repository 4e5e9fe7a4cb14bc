import type { Role } from '@svc/domain';
import { and, asc, count, desc, eq, gt } from 'drizzle-orm';
import type { Changes } from '../platform/changes.ts';
import type { MembersStore, MembershipEventRecord } from './store.ts';
import { mailRow } from '../platform/mail-row.ts';
import type { PgDb } from '../platform/postgres/database.ts';
import { invitations, mailOutbox, memberships, membershipEvents, users, workspaces } from '../platform/postgres/schema.ts';
import type { PgTx, Transact } from '../platform/postgres/transaction.ts';

/**
 * Members and invitations on PostgreSQL. Each change is one serializable transaction, so the rule that a workspace
 * keeps an owner holds when changes run at once on several cores; each is published once settled, so that every
 * core forgets the memberships it kept of that user.
 */
export function createPostgresMembers(db: PgDb, transact: Transact, changes: Changes): MembersStore {
  const change = async <T>(userId: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } finally {
      await changes.publish('memberships', userId);
    }
  };
  const record = (tx: PgTx, event: MembershipEventRecord) => tx.insert(membershipEvents).values(event);

  const memberOf = async (tx: PgTx, workspaceId: string, userId: string) => {
    const [member] = await tx
      .select({ role: memberships.role, email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
    return member;
  };

  const owners = async (tx: PgTx, workspaceId: string) => {
    const [owned] = await tx
      .select({ n: count() })
      .from(memberships)
      .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, 'owner')));
    return owned?.n ?? 0;
  };

  /** Whether taking `role` away from a member leaves the workspace without an owner. */
  const wouldLeaveNoOwner = async (tx: PgTx, workspaceId: string, from: Role, to: Role | undefined) =>
    from === 'owner' && to !== 'owner' && (await owners(tx, workspaceId)) <= 1;

  const membership = (workspaceId: string, userId: string) => and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId));

  return {
    members: {
      async list(workspaceId) {
        return db
          .select({ userId: users.id, email: users.email, role: memberships.role, addedAt: memberships.createdAt })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(eq(memberships.workspaceId, workspaceId))
          .orderBy(asc(memberships.createdAt), asc(users.email));
      },
      changeRole(workspaceId, userId, role, event) {
        return change(userId, () =>
          transact(async (tx) => {
            const current = await memberOf(tx, workspaceId, userId);
            if (!current) return 'not_member';
            if (current.role === role) return 'changed';
            if (await wouldLeaveNoOwner(tx, workspaceId, current.role, role)) return 'last_owner';
            await tx.update(memberships).set({ role }).where(membership(workspaceId, userId));
            await record(tx, { ...event, action: 'role_changed', email: current.email, role, previousRole: current.role });
            return 'changed';
          }),
        );
      },
      remove(workspaceId, userId, event) {
        return change(userId, () =>
          transact(async (tx) => {
            const current = await memberOf(tx, workspaceId, userId);
            if (!current) return 'not_member';
            if (await wouldLeaveNoOwner(tx, workspaceId, current.role, undefined)) return 'last_owner';
            await tx.delete(memberships).where(membership(workspaceId, userId));
            const action = event.actorEmail === current.email ? 'left' : 'removed';
            await record(tx, { ...event, action, email: current.email, role: null, previousRole: current.role });
            return 'changed';
          }),
        );
      },
      async events(workspaceId, limit) {
        return db
          .select()
          .from(membershipEvents)
          .where(eq(membershipEvents.workspaceId, workspaceId))
          .orderBy(desc(membershipEvents.at), desc(membershipEvents.id))
          .limit(limit);
      },
    },
    invitations: {
      create(invitation, mail, event) {
        return transact(async (tx) => {
          const [member] = await tx
            .select({ userId: memberships.userId })
            .from(memberships)
            .innerJoin(users, eq(users.id, memberships.userId))
            .where(and(eq(memberships.workspaceId, invitation.workspaceId), eq(users.email, invitation.email)));
          if (member) return 'already_member';
          await tx
            .update(invitations)
            .set({ status: 'revoked', decidedAt: invitation.createdAt })
            .where(
              and(
                eq(invitations.workspaceId, invitation.workspaceId),
                eq(invitations.email, invitation.email),
                eq(invitations.status, 'pending'),
              ),
            );
          await tx.insert(invitations).values(invitation);
          await tx.insert(mailOutbox).values(mailRow(mail));
          await record(tx, { ...event, action: 'invited', email: invitation.email, role: invitation.role, previousRole: null });
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
          .orderBy(asc(invitations.createdAt), asc(invitations.id));
      },
      async findByTokenHash(tokenHash) {
        const [row] = await db
          .select({ invitation: invitations, workspaceSlug: workspaces.slug, invitedByEmail: users.email })
          .from(invitations)
          .innerJoin(workspaces, eq(workspaces.id, invitations.workspaceId))
          .innerJoin(users, eq(users.id, invitations.invitedBy))
          .where(eq(invitations.tokenHash, tokenHash));
        return row && { ...row.invitation, workspaceSlug: row.workspaceSlug, invitedByEmail: row.invitedByEmail };
      },
      revoke(workspaceId, id, event) {
        return transact(async (tx) => {
          const [pending] = await tx
            .select()
            .from(invitations)
            .where(and(eq(invitations.id, id), eq(invitations.workspaceId, workspaceId), eq(invitations.status, 'pending')));
          if (!pending) return false;
          await tx.update(invitations).set({ status: 'revoked', decidedAt: event.at }).where(eq(invitations.id, id));
          await record(tx, { ...event, action: 'invitation_revoked', email: pending.email, role: pending.role, previousRole: null });
          return true;
        });
      },
      accept(id, userId, event) {
        return change(userId, () =>
          transact(async (tx) => {
            const [pending] = await tx
              .select()
              .from(invitations)
              .where(and(eq(invitations.id, id), eq(invitations.status, 'pending'), gt(invitations.expiresAt, event.at)));
            if (!pending) return 'gone';
            await tx.update(invitations).set({ status: 'accepted', decidedAt: event.at }).where(eq(invitations.id, id));
            if (await memberOf(tx, pending.workspaceId, userId)) return 'already_member';
            await tx.insert(memberships).values({ workspaceId: pending.workspaceId, userId, role: pending.role, createdAt: event.at });
            await record(tx, { ...event, action: 'joined', email: pending.email, role: pending.role, previousRole: null });
            return 'accepted';
          }),
        );
      },
    },
  };
}
