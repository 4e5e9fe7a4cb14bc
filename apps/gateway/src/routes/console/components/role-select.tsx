import { type Role, roles } from '@svc/domain';

/** A role picker for a members form. */
export const RoleSelect = ({ selected, label }: { selected: Role; label?: string }) => (
  <select name="role" defaultValue={selected} aria-label={label}>
    {roles.map((role) => (
      <option key={role} value={role}>
        {role}
      </option>
    ))}
  </select>
);
