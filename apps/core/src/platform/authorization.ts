import { type Action, allows, allowsChange, DomainError, permissions, type Role } from '@svc/domain';

/** Refuses with 403 `forbidden` what the member's role does not allow (`permissions`, the one table of who may do what). */
export function authorize(member: { role: Role }, action: Action): void {
  if (!allows(member.role, action)) {
    const { roles, may } = permissions[action];
    throw new DomainError('forbidden', `only ${roles.map((role) => `${role}s`).join(' and ')} may ${may}; you are ${member.role}`);
  }
}

/**
 * A change to something a member made: theirs under `own`, anyone's under `any`. A supervisor changes their own
 * flags and cases; a developer anyone's.
 */
export function authorizeChange(member: { role: Role }, madeBy: string | null, actor: string, own: Action, any: Action): void {
  if (!allowsChange(member.role, madeBy, actor, own, any)) authorize(member, any);
}
