import type { Logger } from '@svc/server-kit';
import { type ErrorRequestHandler, Router } from 'express';
import type { CoreClient } from '../../core-client.ts';
import { formBody } from '../../http/json-body.ts';
import { sameOriginChanges } from '../../http/same-origin.ts';
import { deviceRoutes } from './device-routes.tsx';
import { evalRoutes } from './eval-routes.tsx';
import { flagRoutes } from './flag-routes.tsx';
import { githubRoutes } from './github-routes.tsx';
import { homeRoutes } from './home-routes.tsx';
import { inboxRoutes } from './inbox-routes.tsx';
import { memberRoutes } from './member-routes.tsx';
import { pageKit } from './page-kit.tsx';
import { consoleSession } from './session.ts';
import { signInRoutes } from './sign-in-routes.tsx';
import { favicon, faviconPath, stylesheet, stylesheetPath } from './stylesheet.ts';
import { tokenRoutes } from './token-routes.tsx';

/** The paths under which every page is for a signed-in person. */
const sessionPaths = ['/device', '/tokens', '/w'];

/**
 * The web console's pages: sign-in by mailed link, the device approval pages, tokens, workspaces, their members, GitHub repositories, inbox and chats, flags, eval cases and runs. Rendered on the
 * server from components, no client build. A GET or HEAD never changes anything; every change is a POST with a
 * CSRF token. The routes are registered on this one router, so its route table lists every page.
 */
export function consoleRoutes(core: CoreClient, publicUrl: string, log: Logger, localMode = false): Router {
  const kit = pageKit(core, consoleSession(core, publicUrl.startsWith('https:')), log);
  const routes = Router();
  routes.use(['/login', '/logout', '/auth', '/device', '/tokens', '/w', '/invitations'], sameOriginChanges('the console pages'), formBody);
  routes.get(stylesheetPath, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('css').send(stylesheet);
  });
  routes.get(faviconPath, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('svg').send(favicon);
  });
  homeRoutes(routes, kit);
  signInRoutes(routes, kit, localMode);
  deviceRoutes(routes, kit);
  tokenRoutes(routes, kit);
  memberRoutes(routes, kit);
  inboxRoutes(routes, kit);
  flagRoutes(routes, kit);
  evalRoutes(routes, kit);
  githubRoutes(routes, kit);

  // A request these routes cannot read (a malformed percent-escape in the path, a body that does not decode).
  const unreadable: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.headersSent) next(error);
    else kit.errorPage(res, error);
  };
  // Under the paths whose every page needs a session, a signed-out visitor is sent to sign in whatever the request
  // holds, as those pages do, rather than told what is wrong with it.
  const signInFirst: ErrorRequestHandler = async (error, req, res, next) => {
    if (res.headersSent) return next(error);
    await kit.page(async () => {
      if (await kit.viewer(req, res)) kit.errorPage(res, error);
    })(req, res);
  };
  routes.use(sessionPaths, signInFirst);
  routes.use(unreadable);
  return routes;
}
