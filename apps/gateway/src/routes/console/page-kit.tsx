import type { Logger } from '@svc/server-kit';
import type { Request, Response } from 'express';
import type { CoreClient } from '../../core-client.ts';
import { toDomainError } from '../../http/errors.ts';
import { ErrorPage } from './pages/error.tsx';
import { sendPage } from './render.tsx';
import { checkCsrf, type ConsoleSession } from './session.ts';
import type { Viewer } from './viewer.ts';

export type PageHandler = (req: Request, res: Response) => Promise<void>;

/** A posted form's field as text; a missing one is empty. */
export const formField = (req: Request, name: string): string => String((req.body as Record<string, unknown> | undefined)?.[name] ?? '');

/** What every console route uses: core, the session, and the pages' handling of failures and sign-in. */
export interface PageKit {
  core: CoreClient;
  session: ConsoleSession;
  /** A handler whose failures answer as a page with the error's status, not as JSON. */
  page(handler: PageHandler): PageHandler;
  errorPage(res: Response, thrown: unknown): void;
  /** The signed-in person, or undefined once the answer redirects to sign-in, which comes back here. */
  viewer(req: Request, res: Response): Promise<Viewer | undefined>;
  /** The signed-in person, or undefined for a page that anyone may see. */
  currentViewer(req: Request): Promise<Viewer | undefined>;
  /**
   * A workspace form's POST: for the signed-in person, with the session's CSRF token checked, runs the change and
   * answers 303 to the page it names; a change that names none answered itself (`res`, as `signedIn` sees it).
   */
  workspaceForm(act: (req: Request, workspace: string, res: Response, signedIn: Viewer) => Promise<string | undefined>): PageHandler;
}

export function pageKit(core: CoreClient, session: ConsoleSession, log: Logger): PageKit {
  function errorPage(res: Response, thrown: unknown): void {
    const error = toDomainError(thrown, log);
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    sendPage(res.status(error.status), <ErrorPage message={error.message} />);
  }

  async function currentViewer(req: Request): Promise<Viewer | undefined> {
    const user = await session.current(req);
    if (!user) return undefined;
    const { workspaces } = await core.workspaces.list.query(undefined, session.caller(req));
    return { email: user.user.email, csrfToken: user.csrf_token, workspaces };
  }

  const page =
    (handler: PageHandler): PageHandler =>
    async (req, res) => {
      try {
        await handler(req, res);
      } catch (thrown) {
        errorPage(res, thrown);
      }
    };

  async function viewer(req: Request, res: Response): Promise<Viewer | undefined> {
    const signedIn = await currentViewer(req);
    if (!signedIn) res.redirect(303, `/login?next=${encodeURIComponent(req.originalUrl)}`);
    return signedIn;
  }

  return {
    core,
    session,
    errorPage,
    page,
    currentViewer,
    viewer,
    workspaceForm: (act) =>
      page(async (req, res) => {
        const signedIn = await viewer(req, res);
        if (!signedIn) return;
        checkCsrf(req, signedIn.csrfToken);
        const next = await act(req, String(req.params.workspace), res, signedIn);
        if (next !== undefined) res.redirect(303, next);
      }),
  };
}
