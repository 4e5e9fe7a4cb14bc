import { DomainError } from '@svc/domain';
import type { Request, Router } from 'express';
import type { PageKit } from './page-kit.tsx';
import { RevokeTokenPage } from './pages/revoke-token.tsx';
import { TokensPage } from './pages/tokens.tsx';
import { sendPage } from './render.tsx';
import { checkCsrf } from './session.ts';
import { tokenInUse } from './token-in-use.ts';

/** The person's developer tokens; revoking one asks first. */
export function tokenRoutes(routes: Router, { core, session, page, viewer }: PageKit): void {
  const listTokens = async (req: Request) => (await core.tokens.list.query(undefined, session.caller(req))).tokens;

  routes.get(
    '/tokens',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (signedIn) sendPage(res, <TokensPage viewer={signedIn} tokens={await listTokens(req)} />);
    }),
  );

  routes.get(
    '/tokens/:id/revoke',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const tokens = await listTokens(req);
      const token = tokens.find((t) => t.id === req.params.id);
      if (!token) throw new DomainError('not_found', `no active token ${String(req.params.id)}`);
      sendPage(res, <RevokeTokenPage viewer={signedIn} token={token} inUse={tokenInUse(tokens)?.id === token.id} />);
    }),
  );

  routes.post(
    '/tokens/:id/revoke',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      checkCsrf(req, signedIn.csrfToken);
      await core.tokens.revoke.mutate({ id: String(req.params.id) }, session.caller(req));
      res.redirect(303, '/tokens');
    }),
  );
}
