import { allows, type Invitation, type Member } from '@svc/domain';
import { CsrfField } from '../components/csrf-field.tsx';
import { Layout } from '../components/layout.tsx';
import { RoleSelect } from '../components/role-select.tsx';
import { When } from '../components/when.tsx';
import { membersPath } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

export interface MembersPageProps {
  viewer: Viewer;
  workspace: string;
  members: Member[];
  invitations: Invitation[];
}

/** A workspace's members and pending invitations; those who manage members see the forms, every member may leave. */
export function MembersPage({ viewer, workspace, members, invitations }: MembersPageProps) {
  const managesMembers = members.some((m) => m.email === viewer.email && allows(m.role, 'manageMembers'));
  const base = membersPath(workspace);
  const csrf = <CsrfField token={viewer.csrfToken} />;
  return (
    <Layout title={`Members of ${workspace}`} viewer={viewer} workspace={workspace}>
      <h1>Members of {workspace}</h1>
      <table className="stacked">
        <thead>
          <tr>
            <th>Email</th>
            <th>Role</th>
            <th>Added</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.user_id}>
              <td>{m.email}</td>
              <td data-label="Role">
                {managesMembers ? (
                  <form method="post" action={`${base}/${encodeURIComponent(m.user_id)}/role`} className="inline">
                    {csrf}
                    <RoleSelect selected={m.role} label={`Role of ${m.email}`} />
                    <button className="secondary">Change</button>
                  </form>
                ) : (
                  m.role
                )}
              </td>
              <td data-label="Added">
                <When at={m.added_at} />
              </td>
              <td>
                {(managesMembers || m.email === viewer.email) && (
                  <form method="post" action={`${base}/${encodeURIComponent(m.user_id)}/remove`}>
                    {csrf}
                    <button className="secondary">{m.email === viewer.email ? 'Leave' : `Remove ${m.email}`}</button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {invitations.length > 0 && (
        <>
          <h2>Pending invitations</h2>
          <table className="stacked">
            <thead>
              <tr>
                <th>Email</th>
                <th>Role</th>
                <th>Invited by</th>
                <th>Expires</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((i) => (
                <tr key={i.id}>
                  <td>{i.email}</td>
                  <td data-label="Role">{i.role}</td>
                  <td data-label="Invited by">{i.invited_by}</td>
                  <td data-label="Expires">
                    <When at={i.expires_at} />
                  </td>
                  <td>
                    {managesMembers && (
                      <form method="post" action={`${base}/invitations/${encodeURIComponent(i.id)}/revoke`}>
                        {csrf}
                        <button className="secondary">Revoke</button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {managesMembers ? (
        <>
          <h2>Invite someone</h2>
          <form method="post" action={base}>
            {csrf}
            <p>
              <label>
                Email <input type="email" name="email" required />
              </label>
            </p>
            <p>
              <label>
                Role <RoleSelect selected="supervisor" />
              </label>{' '}
              <button>Send invitation</button>
            </p>
          </form>
        </>
      ) : (
        <p className="muted">Only owners invite, change roles and remove members.</p>
      )}
    </Layout>
  );
}
