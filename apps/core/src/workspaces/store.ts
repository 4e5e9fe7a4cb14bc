import type { MembershipEvent, Role } from '@svc/domain';
import type { NewMail } from '../platform/mail-store.ts';

export interface MemberRecord {
  userId: string;
  email: string;
  role: Role;
  addedAt: string;
}

export interface InvitationRecord {
  id: string;
  workspaceId: string;
  email: string;
  role: Role;
  tokenHash: string;
  invitedBy: string;
  status: 'pending' | 'accepted' | 'revoked';
  expiresAt: string;
  createdAt: string;
  decidedAt: string | null;
}

/** A pending invitation as members see it: the inviter by email. */
export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invitedByEmail: string;
  expiresAt: string;
}

/** An invitation found by its link, with what its page shows. */
export interface InvitationByLink extends InvitationRecord {
  workspaceSlug: string;
  invitedByEmail: string;
}

export interface MembershipEventRecord {
  id: string;
  workspaceId: string;
  action: MembershipEvent['action'];
  actorEmail: string;
  email: string;
  role: Role | null;
  previousRole: Role | null;
  at: string;
}

/** The event a change records; the store fills in the roles it finds. */
export type NewMembershipEvent = Omit<MembershipEventRecord, 'action' | 'role' | 'previousRole' | 'email'>;

export type InvitationOutcome = 'created' | 'already_member';
export type MemberChangeOutcome = 'changed' | 'not_member' | 'last_owner';
export type AcceptOutcome = 'accepted' | 'gone' | 'already_member';

/**
 * Members and invitations. Each method is one transaction that also records its membership event, and the rule
 * that a workspace keeps an owner is checked inside it, so changes made at once cannot remove every owner.
 */
export interface MembersStore {
  members: {
    list(workspaceId: string): Promise<MemberRecord[]>;
    /** Gives a member a role; `last_owner` when that would leave the workspace without an owner. */
    changeRole(workspaceId: string, userId: string, role: Role, event: NewMembershipEvent): Promise<MemberChangeOutcome>;
    /** Removes a member (`left` when the actor is the member); `last_owner` when no owner would remain. */
    remove(workspaceId: string, userId: string, event: NewMembershipEvent): Promise<MemberChangeOutcome>;
    /** The newest events first. */
    events(workspaceId: string, limit: number): Promise<MembershipEventRecord[]>;
  };
  invitations: {
    /**
     * Inserts the invitation and its mail, revoking a pending invitation to the same address; `already_member`
     * (nothing written) when the address belongs to a member.
     */
    create(invitation: InvitationRecord, mail: NewMail, event: NewMembershipEvent): Promise<InvitationOutcome>;
    /** Pending invitations that have not expired at `now`, oldest first. */
    listPending(workspaceId: string, now: string): Promise<PendingInvitation[]>;
    findByTokenHash(tokenHash: string): Promise<InvitationByLink | undefined>;
    /** Revokes a pending invitation; false when there is none with this id in the workspace. */
    revoke(workspaceId: string, id: string, event: NewMembershipEvent): Promise<boolean>;
    /**
     * Accepts a pending invitation that has not expired at `event.at`: the user joins with its role.
     * `gone` when it was accepted, revoked or expired; `already_member` (the invitation is spent) when the user
     * had joined another way.
     */
    accept(id: string, userId: string, event: NewMembershipEvent): Promise<AcceptOutcome>;
  };
}
