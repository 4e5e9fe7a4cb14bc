import type { Logger } from '@svc/server-kit';
import { type ErrorRequestHandler, type Request, type Response, Router } from 'express';
import type { CoreClient } from '../../core-client.ts';
import { toDomainError } from '../../http/errors.ts';
import { formBody } from '../../http/json-body.ts';
import { clientIp } from '../../http/mount.ts';
import { html, page, sendPage, stylesheet, stylesheetPath } from './html.ts';
import { checkCsrf, consoleSession, type SignedIn } from './session.ts';

type Handler = (req: Request, res: Response) => Promise<void>;

/**
 * The web console's pages: sign-in by mailed link, the device approval pages, tokens. Server-rendered,
 * no client build. A GET or HEAD never changes anything; every change is a POST with a CSRF token.
 */
export function consoleRoutes(core: CoreClient, publicUrl: string, log: Logger): Router {
  const secure = publicUrl.startsWith('https:');
  const session = consoleSession(core, secure);
  const routes = Router();
  routes.use(['/login', '/logout', '/auth', '/device', '/tokens'], formBody);
  routes.get(stylesheetPath, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('css').send(stylesheet);
  });

  /** Failures as a page with the error's status, not as JSON. */
  function errorPage(res: Response, thrown: unknown): void {
    const error = toDomainError(thrown, log);
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    sendPage(
      res.status(error.status),
      page(
        'Something went wrong',
        html`<h1>That did not work</h1>
          <p class="error">${error.message}</p>
          <p><a href="/">Back to svc</a></p>`,
      ),
    );
  }
  const pageRoute =
    (handler: Handler): Handler =>
    async (req, res) => {
      try {
        await handler(req, res);
      } catch (thrown) {
        errorPage(res, thrown);
      }
    };

  /** The signed-in user, or a redirect to sign-in that comes back here. */
  async function signedIn(req: Request, res: Response): Promise<SignedIn | undefined> {
    const user = await session.current(req);
    if (!user) res.redirect(303, `/login?next=${encodeURIComponent(req.originalUrl)}`);
    return user;
  }

  const nav = (user: SignedIn) => ({ email: user.user.email, csrf: user.csrf_token });

  routes.get(
    '/',
    pageRoute(async (req, res) => {
      const user = await signedIn(req, res);
      if (!user) return;
      sendPage(
        res,
        page(
          'Console',
          html`<h1>svc</h1>
            <p>Signed in as ${user.user.email}.</p>
            <ul>
              <li><a href="/tokens">Developer tokens</a></li>
              <li><a href="/device">Approve a CLI sign-in</a></li>
              <li><a href="/openapi.json">API reference (OpenAPI)</a></li>
            </ul>`,
          nav(user),
        ),
      );
    }),
  );

  routes.get(
    '/login',
    pageRoute(async (req, res) => {
      const csrf = session.loginCsrf(req, res);
      const next = typeof req.query.next === 'string' ? req.query.next : '/';
      sendPage(
        res,
        page(
          'Sign in',
          html`<h1>Sign in to svc</h1>
            <p>We will mail you a sign-in link.</p>
            <form method="post" action="/login">
              <input type="hidden" name="csrf_token" value="${csrf}" /><input type="hidden" name="next" value="${next}" />
              <p>
                <label>Email <input type="email" name="email" required autocomplete="email" autofocus /></label>
              </p>
              <p><button>Mail me a link</button></p>
            </form>`,
        ),
      );
    }),
  );

  routes.post(
    '/login',
    pageRoute(async (req, res) => {
      session.checkLoginCsrf(req);
      const { email, next } = req.body as { email?: string; next?: string };
      await core.consoleAuth.requestLink.mutate({ email: email ?? '', next, ip: clientIp(req) }, session.caller(req));
      sendPage(
        res,
        page(
          'Check your mail',
          html`<h1>Check your mail</h1>
            <p>We sent a sign-in link to <b>${email ?? ''}</b>. It works once, for 15 minutes.</p>`,
        ),
      );
    }),
  );

  // Opening the link (a GET or HEAD, as mail scanners do) only shows this page; the button's POST signs in.
  routes.get(
    '/auth/link/:token',
    pageRoute(async (req, res) => {
      const link = await core.consoleAuth.previewLink.query({ token: String(req.params.token) }, session.caller(req));
      if (!link.valid) {
        sendPage(
          res.status(410),
          page(
            'Link expired',
            html`<h1>This link has expired</h1>
              <p>It was used already or is over 15 minutes old. <a href="/login">Ask for a new one</a>.</p>`,
          ),
        );
        return;
      }
      const csrf = session.loginCsrf(req, res);
      sendPage(
        res,
        page(
          'Sign in',
          html`<h1>Sign in to svc</h1>
            <p>Continue as <b>${link.email}</b>?</p>
            <form method="post"><input type="hidden" name="csrf_token" value="${csrf}" /><button>Continue as ${link.email}</button></form>`,
        ),
      );
    }),
  );

  routes.post(
    '/auth/link/:token',
    pageRoute(async (req, res) => {
      session.checkLoginCsrf(req);
      const signedInNow = await core.consoleAuth.redeemLink.mutate({ token: String(req.params.token) }, session.caller(req));
      session.set(res, signedInNow.sessionToken, signedInNow.expiresAt);
      res.redirect(303, signedInNow.next);
    }),
  );

  routes.post(
    '/logout',
    pageRoute(async (req, res) => {
      const user = await session.current(req);
      if (user) checkCsrf(req, user.csrf_token);
      await core.consoleAuth.signOut.mutate(undefined, session.caller(req));
      session.clear(res);
      res.redirect(303, '/login');
    }),
  );

  routes.get(
    '/device',
    pageRoute(async (req, res) => {
      const user = await signedIn(req, res);
      if (!user) return;
      const code = typeof req.query.user_code === 'string' ? req.query.user_code : '';
      if (!code) {
        sendPage(
          res,
          page(
            'Approve a sign-in',
            html`<h1>Approve a CLI sign-in</h1>
              <p>Type the code your terminal shows.</p>
              <form method="get" action="/device">
                <p><input type="text" name="user_code" required placeholder="BCDF-GHJK" autocomplete="off" autofocus class="code" /></p>
                <p><button>Continue</button></p>
              </form>`,
            nav(user),
          ),
        );
        return;
      }
      const request = await core.deviceAuth.view.query({ user_code: code, ip: clientIp(req) }, session.caller(req));
      if (request.status !== 'pending') {
        const said = { approved: 'was approved', spent: 'was approved and used', denied: 'was denied', expired: 'expired' }[request.status];
        sendPage(
          res,
          page(
            'Sign-in request',
            html`<h1>This sign-in request ${said}</h1>
              <p class="muted">Code ${request.userCode}. Nothing more to do here.</p>`,
            nav(user),
          ),
        );
        return;
      }
      sendPage(
        res,
        page(
          'Approve a sign-in',
          html`<h1>Approve this sign-in?</h1>
            <p>Check that this code matches the one in your terminal:</p>
            <p class="code">${request.userCode}</p>
            <dl>
              <dt>Client</dt>
              <dd>${request.clientName}</dd>
              <dt>Host name</dt>
              <dd>${request.hostname ?? 'not given'}</dd>
              <dt>IP address</dt>
              <dd>${request.ip ?? 'unknown'}</dd>
              <dt>User agent</dt>
              <dd>${request.userAgent ?? 'unknown'}</dd>
              <dt>Requested</dt>
              <dd><time>${request.createdAt}</time></dd>
              <dt>Signing in as</dt>
              <dd>${user.user.email}</dd>
            </dl>
            <p class="muted">Approving gives that client a developer token for your account. If you did not start this, deny it.</p>
            <form method="post" action="/device">
              <input type="hidden" name="csrf_token" value="${user.csrf_token}" /><input
                type="hidden"
                name="user_code"
                value="${request.userCode}"
              />
              <button name="decision" value="approved">Approve</button>
              <button name="decision" value="denied" class="secondary">Deny</button>
            </form>`,
          nav(user),
        ),
      );
    }),
  );

  routes.post(
    '/device',
    pageRoute(async (req, res) => {
      const user = await signedIn(req, res);
      if (!user) return;
      checkCsrf(req, user.csrf_token);
      const { user_code: code, decision } = req.body as { user_code?: string; decision?: string };
      const choice = decision === 'approved' ? 'approved' : 'denied';
      await core.deviceAuth.decide.mutate({ user_code: code ?? '', decision: choice, ip: clientIp(req) }, session.caller(req));
      const body =
        choice === 'approved'
          ? html`<h1>Approved</h1>
              <p>You can return to your terminal: it is signed in.</p>`
          : html`<h1>Denied</h1>
              <p>The client was refused. You can close this page.</p>`;
      sendPage(res, page(choice === 'approved' ? 'Approved' : 'Denied', body, nav(user)));
    }),
  );

  routes.get(
    '/tokens',
    pageRoute(async (req, res) => {
      const user = await signedIn(req, res);
      if (!user) return;
      const { tokens } = await core.tokens.list.query(undefined, session.caller(req));
      const rows = tokens.map(
        (t) =>
          html`<tr>
            <td>${t.name}</td>
            <td><code>${t.id}</code></td>
            <td>${t.created_at.slice(0, 10)}</td>
            <td>${t.last_used_at?.slice(0, 16).replace('T', ' ') ?? 'never'}</td>
            <td>
              <form method="post" action="/tokens/${t.id}/revoke">
                <input type="hidden" name="csrf_token" value="${user.csrf_token}" /><button class="secondary">Revoke</button>
              </form>
            </td>
          </tr>`,
      );
      sendPage(
        res,
        page(
          'Developer tokens',
          html`<h1>Developer tokens</h1>
            ${
              tokens.length
                ? html`<table>
                    <thead>
                      <tr>
                        <th>Name</th>
                        <th>ID</th>
                        <th>Created</th>
                        <th>Last used</th>
                        <th></th>
                      </tr>
                    </thead>
                    <tbody>
                      ${rows}
                    </tbody>
                  </table>`
                : html`<p>No tokens. <code>svc login</code> creates one.</p>`
            }`,
          nav(user),
        ),
      );
    }),
  );

  routes.post(
    '/tokens/:id/revoke',
    pageRoute(async (req, res) => {
      const user = await signedIn(req, res);
      if (!user) return;
      checkCsrf(req, user.csrf_token);
      await core.tokens.revoke.mutate({ id: String(req.params.id) }, session.caller(req));
      res.redirect(303, '/tokens');
    }),
  );

  // A request these routes cannot read (a malformed percent-escape in the path, a body that does not decode).
  const unreadable: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.headersSent) next(error);
    else errorPage(res, error);
  };
  routes.use(unreadable);
  return routes;
}
