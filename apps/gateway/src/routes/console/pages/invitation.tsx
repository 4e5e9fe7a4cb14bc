import type { Role } from '@svc/domain';
import { CsrfField } from '../components/csrf-field.tsx';
import { Layout } from '../components/layout.tsx';
import { When } from '../components/when.tsx';
import { invitationPath } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

export interface InvitationOffer {
  workspace: string;
  email: string;
  role: Role;
  invited_by: string;
  expires_at: string;
}

const Offer = ({ invitation }: { invitation: InvitationOffer }) => (
  <>
    <p>
      <b>{invitation.invited_by}</b> invited <b>{invitation.email}</b> to the workspace <b>{invitation.workspace}</b> as{' '}
      <b>{invitation.role}</b>.
    </p>
    <p className="muted">
      The invitation works until <When at={invitation.expires_at} />.
    </p>
  </>
);

/** Not signed in: continuing signs in as the invited address (a POST with the sign-in form's CSRF token). */
export const InvitationSignInPage = ({
  token,
  invitation,
  csrfToken,
}: {
  token: string;
  invitation: InvitationOffer;
  csrfToken: string;
}) => (
  <Layout title="Invitation">
    <h1>You are invited to {invitation.workspace}</h1>
    <Offer invitation={invitation} />
    <form method="post" action={`${invitationPath(token)}/sign-in`}>
      <CsrfField token={csrfToken} />
      <button>Continue as {invitation.email}</button>
    </form>
  </Layout>
);

/** Signed in as the invited address: joining is the Accept button's POST, never the link itself. */
export const InvitationAcceptPage = ({ token, invitation, viewer }: { token: string; invitation: InvitationOffer; viewer: Viewer }) => (
  <Layout title="Accept the invitation" viewer={viewer}>
    <h1>Join {invitation.workspace}?</h1>
    <Offer invitation={invitation} />
    <form method="post" action={`${invitationPath(token)}/accept`}>
      <CsrfField token={viewer.csrfToken} />
      <button>Accept</button>
    </form>
  </Layout>
);

export const InvitationOtherAccountPage = ({ invitation, viewer }: { invitation: InvitationOffer; viewer: Viewer }) => (
  <Layout title="Another account" viewer={viewer}>
    <h1>This invitation is for another account</h1>
    <Offer invitation={invitation} />
    <p className="error">
      You are signed in as {viewer.email}. Sign out, then open the link again to accept as {invitation.email}.
    </p>
  </Layout>
);

const gone = { accepted: 'was accepted already', revoked: 'was revoked', expired: 'has expired', unknown: 'is not valid' };

export const InvitationGonePage = ({ reason, viewer }: { reason: keyof typeof gone; viewer?: Viewer }) => (
  <Layout title="Invitation not valid" viewer={viewer}>
    <h1>This invitation {gone[reason]}</h1>
    <p>Nothing was changed. Ask an owner of the workspace for a new invitation if you still need one.</p>
  </Layout>
);
