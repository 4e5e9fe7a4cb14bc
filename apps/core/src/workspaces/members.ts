import { randomBytes } from 'node:crypto';
import {
  DomainError,
  type Invitation,
  invitationLifetimeMs,
  type InviteMemberInput,
  type Member,
  type MembershipEvent,
  type Role,
} from '@svc/domain';
import { authorize } from '../platform/authorization.ts';
import type { InvitationByLink, NewMembershipEvent } from './store.ts';
import type { Membership, Store, User } from '../store.ts';
import { invitationMail } from '../identity/auth-mails.ts';
import type { Clock } from '../platform/clock.ts';
import type { IdentityService } from '../identity/service.ts';
import { newId } from '../platform/ids.ts';
import type { Mailer } from '../platform/mail.ts';
import type { RateLimits } from '../platform/rate-limits.ts';
import { sha256 } from '../platform/secrets.ts';
import type { SessionService } from '../identity/sessions.ts';

export interface MemberDeps {
  store: Store;
  identity: IdentityService;
  sessions: SessionService;
  mailer: Mailer;
  rateLimits: RateLimits;
  publicUrl: string;
  clock: Clock;
}

/** What an invitation's page shows, for whoever opens the link. */
export type InvitationView =
  | { state: 'gone'; reason: 'accepted' | 'revoked' | 'expired' | 'unknown' }
  | { state: 'pending'; workspace: string; email: string; role: Role; invited_by: string; expires_at: string };

const eventsShown = 200;

function stateOf(invitation: InvitationByLink | undefined, now: number): 'pending' | 'accepted' | 'revoked' | 'expired' | 'unknown' {
  if (!invitation) return 'unknown';
  if (invitation.status !== 'pending') return invitation.status;
  return Date.parse(invitation.expiresAt) <= now ? 'expired' : 'pending';
}

/**
 * Workspace members and invitations. Owners manage them; every member reads them; a member may leave.
 * Invitations are mailed through the mail outbox with a link that signs the invitee in and shows an Accept page.
 */
export function createMemberService({ store, identity, sessions, mailer, rateLimits, publicUrl, clock }: MemberDeps) {
  const eventBy = (workspaceId: string, actor: User): NewMembershipEvent => ({
    id: newId('mev'),
    workspaceId,
    actorEmail: actor.email,
    at: clock().toISOString(),
  });

  async function pendingByLink(token: string): Promise<InvitationByLink> {
    const invitation = await store.invitations.findByTokenHash(sha256(token));
    const state = stateOf(invitation, clock().getTime());
    if (state !== 'pending' || !invitation) throw gone(state);
    return invitation;
  }

  const gone = (state: string) =>
    new DomainError(
      'invitation_gone',
      state === 'accepted'
        ? 'this invitation was accepted already'
        : state === 'revoked'
          ? 'this invitation was revoked; ask an owner of the workspace for a new one'
          : state === 'expired'
            ? 'this invitation has expired; ask an owner of the workspace for a new one'
            : 'this invitation link is not valid',
    );

  return {
    async list(membership: Membership): Promise<{ members: Member[]; invitations: Invitation[] }> {
      const [members, pending] = await Promise.all([
        store.members.list(membership.id),
        store.invitations.listPending(membership.id, clock().toISOString()),
      ]);
      return {
        members: members.map((m) => ({ user_id: m.userId, email: m.email, role: m.role, added_at: m.addedAt })),
        invitations: pending.map((i) => ({
          id: i.id,
          email: i.email,
          role: i.role,
          invited_by: i.invitedByEmail,
          expires_at: i.expiresAt,
        })),
      };
    },

    async events(membership: Membership): Promise<MembershipEvent[]> {
      const events = await store.members.events(membership.id, eventsShown);
      return events.map((e) => ({
        id: e.id,
        action: e.action,
        actor: e.actorEmail,
        email: e.email,
        role: e.role,
        previous_role: e.previousRole,
        at: e.at,
      }));
    },

    /** Mails an invitation (owners only); a pending one to the same address is replaced, its link stops working. */
    async invite(membership: Membership, actor: User, input: InviteMemberInput): Promise<Invitation> {
      authorize(membership, 'manageMembers');
      if (!mailer.available) throw new DomainError('email_not_configured', 'this server cannot send mail (no SMTP_URL)');
      const email = input.email.trim().toLowerCase();
      await rateLimits.consume('invitationsPerWorkspace', membership.id, 'invitations from this workspace');
      const token = randomBytes(32).toString('base64url');
      const event = eventBy(membership.id, actor);
      const expiresAt = new Date(Date.parse(event.at) + invitationLifetimeMs).toISOString();
      const record = {
        id: newId('inv'),
        workspaceId: membership.id,
        email,
        role: input.role,
        tokenHash: sha256(token),
        invitedBy: actor.id,
        status: 'pending' as const,
        expiresAt,
        createdAt: event.at,
        decidedAt: null,
      };
      const mail = mailer.compose(
        invitationMail(
          email,
          { workspace: membership.slug, role: input.role, invitedBy: actor.email },
          `${publicUrl}/invitations/${token}`,
        ),
        expiresAt,
      );
      const outcome = await store.invitations.create(record, mail, event);
      if (outcome === 'already_member') throw new DomainError('already_member', `${email} is already a member of ${membership.slug}`);
      void mailer.loop.kick();
      return { id: record.id, email, role: input.role, invited_by: actor.email, expires_at: expiresAt };
    },

    async revokeInvitation(membership: Membership, actor: User, id: string): Promise<void> {
      authorize(membership, 'manageMembers');
      if (!(await store.invitations.revoke(membership.id, id, eventBy(membership.id, actor)))) {
        throw new DomainError('invitation_not_found', `no pending invitation ${id} in ${membership.slug}`);
      }
    },

    async changeRole(membership: Membership, actor: User, userId: string, role: Role): Promise<Member> {
      authorize(membership, 'manageMembers');
      const outcome = await store.members.changeRole(membership.id, userId, role, eventBy(membership.id, actor));
      if (outcome === 'not_member') throw new DomainError('member_not_found', `no member ${userId} in ${membership.slug}`);
      if (outcome === 'last_owner')
        throw new DomainError('last_owner', `${membership.slug} needs an owner: make another member owner first`);
      const changed = (await store.members.list(membership.id)).find((m) => m.userId === userId);
      if (!changed) throw new DomainError('member_not_found', `no member ${userId} in ${membership.slug}`);
      return { user_id: changed.userId, email: changed.email, role: changed.role, added_at: changed.addedAt };
    },

    /** Removes a member (owners), or the caller themself (anyone: leaving). Access ends with the answer. */
    async remove(membership: Membership, actor: User, userId: string): Promise<void> {
      if (userId !== actor.id) authorize(membership, 'manageMembers');
      const outcome = await store.members.remove(membership.id, userId, eventBy(membership.id, actor));
      if (outcome === 'not_member') throw new DomainError('member_not_found', `no member ${userId} in ${membership.slug}`);
      if (outcome === 'last_owner')
        throw new DomainError('last_owner', `${membership.slug} needs an owner: make another member owner first`);
    },

    /** What the invitation's page shows; changes nothing (mail scanners open links). */
    async view(token: string): Promise<InvitationView> {
      const invitation = await store.invitations.findByTokenHash(sha256(token));
      const state = stateOf(invitation, clock().getTime());
      if (state !== 'pending' || !invitation) return { state: 'gone', reason: state === 'pending' ? 'unknown' : state };
      return {
        state: 'pending',
        workspace: invitation.workspaceSlug,
        email: invitation.email,
        role: invitation.role,
        invited_by: invitation.invitedByEmail,
        expires_at: invitation.expiresAt,
      };
    },

    /**
     * Signs the invitee in by the link, as a sign-in link does (a human's POST): the account of the invited
     * address, created if needed. The link keeps working until the invitation is accepted, revoked or expires.
     */
    async signIn(token: string): Promise<{ sessionToken: string; expiresAt: string }> {
      const invitation = await pendingByLink(token);
      const user = await identity.findOrCreateUser(invitation.email);
      const session = await sessions.create(user.id);
      return { sessionToken: session.token, expiresAt: session.expiresAt };
    },

    /** Accepts the invitation for the signed-in user, who must be the one invited. */
    async accept(token: string, user: User): Promise<{ workspace: string; role: Role }> {
      const invitation = await pendingByLink(token);
      if (user.email !== invitation.email) {
        throw new DomainError(
          'wrong_account',
          `this invitation is for ${invitation.email}, but you are signed in as ${user.email}; sign out and open the link again`,
        );
      }
      const outcome = await store.invitations.accept(invitation.id, user.id, eventBy(invitation.workspaceId, user));
      if (outcome === 'gone') throw gone('expired');
      return { workspace: invitation.workspaceSlug, role: invitation.role };
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
