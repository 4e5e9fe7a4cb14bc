import { type Role, roles } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import { type ErrorRequestHandler, type Request, type Response, Router } from 'express';
import type { CoreClient } from '../../core-client.ts';
import { toDomainError } from '../../http/errors.ts';
import { formBody } from '../../http/json-body.ts';
import { html, page, sendPage } from './html.ts';
import { checkCsrf, consoleSession, type SignedIn } from './session.ts';

type Handler = (req: Request, res: Response) => Promise<void>;
type Page = { title: string; body: ReturnType<typeof html>; status?: number };

/**
 * A workspace's members page (owners see the forms, other members read) and the page an invitation's link opens.
 * Opening a link (GET or HEAD, as mail scanners do) changes nothing: signing in and accepting are POSTs.
 */
export function memberConsoleRoutes(core: CoreClient, publicUrl: string, log: Logger): Router {
  const session = consoleSession(core, publicUrl.startsWith('https:'));
  const routes = Router();
  routes.use(['/workspaces', '/invitations'], formBody);

  const nav = (user: SignedIn | undefined) => user && { email: user.user.email, csrf: user.csrf_token };
  const show = (res: Response, user: SignedIn | undefined, { title, body, status = 200 }: Page) =>
    sendPage(res.status(status), page(title, body, nav(user)));

  /** Failures as a page with the error's status; the user's session is left as it was. */
  async function errorPage(req: Request, res: Response, thrown: unknown): Promise<void> {
    const error = toDomainError(thrown, log);
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    show(res, await session.current(req), {
      status: error.status,
      title: 'That did not work',
      body: html`<h1>That did not work</h1>
        <p class="error">${error.message}</p>
        <p><a href="/">Back to svc</a></p>`,
    });
  }
  const pageRoute =
    (handler: Handler): Handler =>
    async (req, res) => {
      try {
        await handler(req, res);
      } catch (thrown) {
        await errorPage(req, res, thrown);
      }
    };

  async function signedIn(req: Request, res: Response): Promise<SignedIn | undefined> {
    const user = await session.current(req);
    if (!user) res.redirect(303, `/login?next=${encodeURIComponent(req.originalUrl)}`);
    return user;
  }

  /** Runs a form's change for the signed-in user, then shows the members page again. */
  const change = (act: (req: Request, workspace: string) => Promise<unknown>): Handler =>
    pageRoute(async (req, res) => {
      const user = await signedIn(req, res);
      if (!user) return;
      checkCsrf(req, user.csrf_token);
      const workspace = String(req.params.workspace);
      await act(req, workspace);
      res.redirect(303, `/workspaces/${encodeURIComponent(workspace)}/members`);
    });
  const field = (req: Request, name: string) => String((req.body as Record<string, unknown> | undefined)?.[name] ?? '');
  // Core validates the role and answers invalid_request for anything else.
  const roleField = (req: Request) => field(req, 'role') as Role;

  routes.get(
    '/workspaces/:workspace/members',
    pageRoute(async (req, res) => {
      const user = await signedIn(req, res);
      if (!user) return;
      const workspace = String(req.params.workspace);
      const caller = session.caller(req);
      const { members, invitations } = await core.members.list.query({ workspace }, caller);
      const isOwner = members.some((m) => m.user_id === user.user.id && m.role === 'owner');
      const base = `/workspaces/${encodeURIComponent(workspace)}`;
      const csrf = html`<input type="hidden" name="csrf_token" value="${user.csrf_token}" />`;
      const roleOptions = (selected: string) =>
        roles.map((r) => html`<option value="${r}" ${r === selected ? html`selected` : html``}>${r}</option>`);
      const memberRows = members.map((m) => {
        const self = m.user_id === user.user.id;
        const roleCell = isOwner
          ? html`<form method="post" action="${base}/members/${m.user_id}/role">
              ${csrf}<select name="role" aria-label="Role of ${m.email}">
                ${roleOptions(m.role)}
              </select>
              <button class="secondary">Change</button>
            </form>`
          : html`${m.role}`;
        const removeCell =
          isOwner || self
            ? html`<form method="post" action="${base}/members/${m.user_id}/remove">
                ${csrf}<button class="secondary">${self ? 'Leave' : `Remove ${m.email}`}</button>
              </form>`
            : html``;
        return html`<tr>
          <td>${m.email}</td>
          <td>${roleCell}</td>
          <td>${m.added_at.slice(0, 10)}</td>
          <td>${removeCell}</td>
        </tr>`;
      });
      const invitationRows = invitations.map(
        (i) =>
          html`<tr>
            <td>${i.email}</td>
            <td>${i.role}</td>
            <td>${i.invited_by}</td>
            <td>${i.expires_at.slice(0, 10)}</td>
            <td>
              ${
                isOwner
                  ? html`<form method="post" action="${base}/invitations/${i.id}/revoke">
                      ${csrf}<button class="secondary">Revoke</button>
                    </form>`
                  : html``
              }
            </td>
          </tr>`,
      );
      const inviteForm = isOwner
        ? html`<h2>Invite someone</h2>
            <form method="post" action="${base}/members">
              ${csrf}
              <p>
                <label>Email <input type="email" name="email" required /></label>
              </p>
              <p>
                <label
                  >Role
                  <select name="role">
                    ${roleOptions('supervisor')}
                  </select></label
                >
                <button>Send invitation</button>
              </p>
            </form>`
        : html`<p class="muted">Only owners invite, change roles and remove members.</p>`;
      show(res, user, {
        title: `Members of ${workspace}`,
        body: html`<h1>Members of ${workspace}</h1>
          <table>
            <thead>
              <tr>
                <th>Email</th>
                <th>Role</th>
                <th>Added</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              ${memberRows}
            </tbody>
          </table>
          ${
            invitations.length
              ? html`<h2>Pending invitations</h2>
                  <table>
                    <thead>
                      <tr>
                        <th>Email</th>
                        <th>Role</th>
                        <th>Invited by</th>
                        <th>Expires</th>
                        <th></th>
                      </tr>
                    </thead>
                    <tbody>
                      ${invitationRows}
                    </tbody>
                  </table>`
              : html``
          }
          ${inviteForm}`,
      });
    }),
  );

  routes.post(
    '/workspaces/:workspace/members',
    change((req, workspace) =>
      core.members.invite.mutate({ workspace, email: field(req, 'email'), role: roleField(req) }, session.caller(req)),
    ),
  );
  routes.post(
    '/workspaces/:workspace/members/:user_id/role',
    change((req, workspace) =>
      core.members.changeRole.mutate({ workspace, user_id: String(req.params.user_id), role: roleField(req) }, session.caller(req)),
    ),
  );
  routes.post(
    '/workspaces/:workspace/members/:user_id/remove',
    change((req, workspace) => core.members.remove.mutate({ workspace, user_id: String(req.params.user_id) }, session.caller(req))),
  );
  routes.post(
    '/workspaces/:workspace/invitations/:id/revoke',
    change((req, workspace) => core.members.revokeInvitation.mutate({ workspace, id: String(req.params.id) }, session.caller(req))),
  );

  routes.get(
    '/invitations/:token',
    pageRoute(async (req, res) => {
      const token = String(req.params.token);
      const [invitation, user] = await Promise.all([core.invitations.view.query({ token }, session.caller(req)), session.current(req)]);
      if (invitation.state === 'gone') {
        const said = { accepted: 'was accepted already', revoked: 'was revoked', expired: 'has expired', unknown: 'is not valid' }[
          invitation.reason
        ];
        show(res, user, {
          status: 410,
          title: 'Invitation not valid',
          body: html`<h1>This invitation ${said}</h1>
            <p>Nothing was changed. Ask an owner of the workspace for a new invitation if you still need one.</p>`,
        });
        return;
      }
      const offer = html`<p>
          <b>${invitation.invited_by}</b> invited <b>${invitation.email}</b> to the workspace <b>${invitation.workspace}</b> as
          <b>${invitation.role}</b>.
        </p>
        <p class="muted">The invitation works until <time>${invitation.expires_at}</time>.</p>`;
      if (!user) {
        const csrf = session.loginCsrf(req, res);
        show(res, undefined, {
          title: 'Invitation',
          body: html`<h1>You are invited to ${invitation.workspace}</h1>
            ${offer}
            <form method="post" action="/invitations/${token}/sign-in">
              <input type="hidden" name="csrf_token" value="${csrf}" /><button>Continue as ${invitation.email}</button>
            </form>`,
        });
        return;
      }
      if (user.user.email !== invitation.email) {
        show(res, user, {
          status: 403,
          title: 'Another account',
          body: html`<h1>This invitation is for another account</h1>
            ${offer}
            <p class="error">
              You are signed in as ${user.user.email}. Sign out, then open the link again to accept as ${invitation.email}.
            </p>`,
        });
        return;
      }
      show(res, user, {
        title: 'Accept the invitation',
        body: html`<h1>Join ${invitation.workspace}?</h1>
          ${offer}
          <form method="post" action="/invitations/${token}/accept">
            <input type="hidden" name="csrf_token" value="${user.csrf_token}" /><button>Accept</button>
          </form>`,
      });
    }),
  );

  routes.post(
    '/invitations/:token/sign-in',
    pageRoute(async (req, res) => {
      session.checkLoginCsrf(req);
      const token = String(req.params.token);
      const signedInNow = await core.invitations.signIn.mutate({ token }, session.caller(req));
      session.set(res, signedInNow.sessionToken, signedInNow.expiresAt);
      res.redirect(303, `/invitations/${token}`);
    }),
  );

  routes.post(
    '/invitations/:token/accept',
    pageRoute(async (req, res) => {
      const token = String(req.params.token);
      const user = await session.current(req);
      // Signed out meanwhile: back to the invitation's page, which offers to sign in.
      if (!user) return res.redirect(303, `/invitations/${token}`);
      checkCsrf(req, user.csrf_token);
      const joined = await core.invitations.accept.mutate({ token }, session.caller(req));
      res.redirect(303, `/workspaces/${encodeURIComponent(joined.workspace)}/members`);
    }),
  );

  // A request these routes cannot read (a malformed percent-escape in the path, a body that does not decode).
  const unreadable: ErrorRequestHandler = (error, req, res, next) => {
    if (res.headersSent) next(error);
    else void errorPage(req, res, error).catch(next);
  };
  routes.use(unreadable);
  return routes;
}
