import { DomainError } from '@svc/domain';
import type { Router } from 'express';
import type { PageKit } from './page-kit.tsx';
import { HomePage } from './pages/home.tsx';
import { WorkspacePage } from './pages/workspace.tsx';
import { sendPage } from './render.tsx';

/** The console's home and each workspace's page. */
export function homeRoutes(routes: Router, { core, session, page, viewer }: PageKit): void {
  routes.get(
    '/',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (signedIn) sendPage(res, <HomePage viewer={signedIn} />);
    }),
  );

  routes.get(
    '/w/:workspace',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const slug = String(req.params.workspace);
      const workspace = signedIn.workspaces.find((w) => w.slug === slug);
      // A workspace the person does not belong to answers as one that does not exist.
      if (!workspace) throw new DomainError('workspace_not_found', `no workspace "${slug}" among yours`);
      const [{ environments }, { links }] = await Promise.all([
        core.agents.environments.query({ workspace: slug }, session.caller(req)),
        core.github.links.list.query({ workspace: slug }, session.caller(req)),
      ]);
      const agents = [...new Set(environments.flatMap((e) => e.version?.agents ?? []))].sort();
      sendPage(res, <WorkspacePage viewer={signedIn} workspace={workspace} agents={agents} links={links} />);
    }),
  );
}
