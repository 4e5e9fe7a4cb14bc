import type { Router } from 'express';
import { clientIp } from '../../http/mount.ts';
import type { PageKit } from './page-kit.tsx';
import { CheckMailPage } from './pages/check-mail.tsx';
import { ContinueAsPage } from './pages/continue-as.tsx';
import { LinkExpiredPage } from './pages/link-expired.tsx';
import { LoginPage } from './pages/login.tsx';
import { sendPage } from './render.tsx';
import { checkCsrf } from './session.ts';

/** Sign-in by mailed link, and sign-out; in local mode, the page after asking for a link points to the dev mailbox. */
export function signInRoutes(routes: Router, { core, session, page }: PageKit, localMode: boolean): void {
  routes.get(
    '/login',
    page(async (req, res) => {
      const csrf = session.loginCsrf(req, res);
      const next = typeof req.query.next === 'string' ? req.query.next : '/';
      sendPage(res, <LoginPage csrf={csrf} next={next} />);
    }),
  );

  routes.post(
    '/login',
    page(async (req, res) => {
      session.checkLoginCsrf(req);
      const { email, next } = req.body as { email?: string; next?: string };
      await core.consoleAuth.requestLink.mutate({ email: email ?? '', next, ip: clientIp(req) }, session.caller(req));
      sendPage(res, <CheckMailPage email={email ?? ''} localMode={localMode} />);
    }),
  );

  // Opening the link (a GET or HEAD, as mail scanners do) only shows this page; the button's POST signs in.
  routes.get(
    '/auth/link/:token',
    page(async (req, res) => {
      const link = await core.consoleAuth.previewLink.query({ token: String(req.params.token) }, session.caller(req));
      if (!link.valid) {
        sendPage(res.status(410), <LinkExpiredPage />);
        return;
      }
      sendPage(res, <ContinueAsPage email={link.email} csrf={session.loginCsrf(req, res)} />);
    }),
  );

  routes.post(
    '/auth/link/:token',
    page(async (req, res) => {
      session.checkLoginCsrf(req);
      const signedInNow = await core.consoleAuth.redeemLink.mutate({ token: String(req.params.token) }, session.caller(req));
      session.set(res, signedInNow.sessionToken, signedInNow.expiresAt);
      res.redirect(303, signedInNow.next);
    }),
  );

  routes.post(
    '/logout',
    page(async (req, res) => {
      const user = await session.current(req);
      if (user) checkCsrf(req, user.csrf_token);
      await core.consoleAuth.signOut.mutate(undefined, session.caller(req));
      session.clear(res);
      res.redirect(303, '/login');
    }),
  );
}
