import type { Role } from '@svc/domain';
import type { Request, Router } from 'express';
import { formField, type PageKit } from './page-kit.tsx';
import { membersPath, invitationPath } from './paths.ts';
import { InvitationAcceptPage, InvitationGonePage, InvitationOtherAccountPage, InvitationSignInPage } from './pages/invitation.tsx';
import { MembersPage } from './pages/members.tsx';
import { sendPage } from './render.tsx';
import { checkCsrf } from './session.ts';

// Core validates the role and answers invalid_request for anything else.
const roleField = (req: Request) => formField(req, 'role') as Role;

/**
 * A workspace's members page (owners see the forms, other members read) and the page an invitation's link opens.
 * Opening a link (GET or HEAD, as mail scanners do) changes nothing: signing in and accepting are POSTs.
 */
export function memberRoutes(routes: Router, { core, session, page, viewer, currentViewer, workspaceForm }: PageKit): void {
  /** Runs a form's change, then shows the members page again. */
  const change = (act: (req: Request, workspace: string) => Promise<unknown>) =>
    workspaceForm(async (req, workspace) => {
      await act(req, workspace);
      return membersPath(workspace);
    });

  routes.get(
    '/w/:workspace/members',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const workspace = String(req.params.workspace);
      const { members, invitations } = await core.members.list.query({ workspace }, session.caller(req));
      sendPage(res, <MembersPage viewer={signedIn} workspace={workspace} members={members} invitations={invitations} />);
    }),
  );
  routes.post(
    '/w/:workspace/members',
    change((req, workspace) =>
      core.members.invite.mutate({ workspace, email: formField(req, 'email'), role: roleField(req) }, session.caller(req)),
    ),
  );
  routes.post(
    '/w/:workspace/members/:user_id/role',
    change((req, workspace) =>
      core.members.changeRole.mutate({ workspace, user_id: String(req.params.user_id), role: roleField(req) }, session.caller(req)),
    ),
  );
  routes.post(
    '/w/:workspace/members/:user_id/remove',
    change((req, workspace) => core.members.remove.mutate({ workspace, user_id: String(req.params.user_id) }, session.caller(req))),
  );
  routes.post(
    '/w/:workspace/members/invitations/:id/revoke',
    change((req, workspace) => core.members.revokeInvitation.mutate({ workspace, id: String(req.params.id) }, session.caller(req))),
  );

  routes.get(
    '/invitations/:token',
    page(async (req, res) => {
      const token = String(req.params.token);
      const [invitation, signedIn] = await Promise.all([core.invitations.view.query({ token }, session.caller(req)), currentViewer(req)]);
      if (invitation.state === 'gone')
        return sendPage(res.status(410), <InvitationGonePage reason={invitation.reason} viewer={signedIn} />);
      if (!signedIn) {
        return sendPage(res, <InvitationSignInPage token={token} invitation={invitation} csrfToken={session.loginCsrf(req, res)} />);
      }
      if (signedIn.email !== invitation.email) {
        return sendPage(res.status(403), <InvitationOtherAccountPage invitation={invitation} viewer={signedIn} />);
      }
      sendPage(res, <InvitationAcceptPage token={token} invitation={invitation} viewer={signedIn} />);
    }),
  );
  routes.post(
    '/invitations/:token/sign-in',
    page(async (req, res) => {
      session.checkLoginCsrf(req);
      const token = String(req.params.token);
      const signedInNow = await core.invitations.signIn.mutate({ token }, session.caller(req));
      session.set(res, signedInNow.sessionToken, signedInNow.expiresAt);
      res.redirect(303, invitationPath(token));
    }),
  );
  routes.post(
    '/invitations/:token/accept',
    page(async (req, res) => {
      const token = String(req.params.token);
      const signedIn = await currentViewer(req);
      // Signed out meanwhile: back to the invitation's page, which offers to sign in.
      if (!signedIn) return res.redirect(303, invitationPath(token));
      checkCsrf(req, signedIn.csrfToken);
      const joined = await core.invitations.accept.mutate({ token }, session.caller(req));
      res.redirect(303, membersPath(joined.workspace));
    }),
  );
}
