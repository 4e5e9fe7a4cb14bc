import { z } from 'zod';
import { emailAddress } from './email.ts';
import { role, workspacePath } from './workspaces.ts';

/** How long an invitation's link works. */
export const invitationLifetimeMs = 7 * 24 * 3600 * 1000;
/** Invitations a workspace may send per hour. */
export const invitationsPerHour = 20;

export const inviteMemberInput = z
  .object({
    email: emailAddress,
    role,
  })
  .meta({ id: 'InviteMemberRequest' });
export type InviteMemberInput = z.infer<typeof inviteMemberInput>;

export const changeRoleInput = z.object({ role }).meta({ id: 'ChangeRoleRequest' });
export type ChangeRoleInput = z.infer<typeof changeRoleInput>;

export const memberPath = workspacePath.extend({ user_id: z.string().max(100) });
export const invitationPath = workspacePath.extend({ id: z.string().max(100) });

export const member = z
  .object({
    user_id: z.string(),
    email: emailAddress,
    role,
    added_at: z.iso.datetime(),
  })
  .meta({ id: 'Member' });
export type Member = z.infer<typeof member>;

export const invitation = z
  .object({
    id: z.string(),
    email: emailAddress,
    role,
    invited_by: emailAddress.meta({ description: 'The email of the owner who sent the invitation' }),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof invitation>;

export const memberList = z
  .object({ members: z.array(member), invitations: z.array(invitation).meta({ description: 'Pending invitations' }) })
  .meta({ id: 'MemberList' });
export type MemberList = z.infer<typeof memberList>;

export const membershipActions = ['invited', 'invitation_revoked', 'joined', 'role_changed', 'removed', 'left'] as const;

export const membershipEvent = z
  .object({
    id: z.string(),
    action: z.enum(membershipActions),
    actor: emailAddress.meta({ description: 'Who made the change' }),
    email: emailAddress.meta({ description: 'Whose membership or invitation changed' }),
    role: role.nullable().meta({ description: 'The role given (invited, joined, role_changed), else the role held' }),
    previous_role: role.nullable(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'MembershipEvent' });
export type MembershipEvent = z.infer<typeof membershipEvent>;

export const membershipEventList = z.object({ events: z.array(membershipEvent) }).meta({ id: 'MembershipEventList' });
