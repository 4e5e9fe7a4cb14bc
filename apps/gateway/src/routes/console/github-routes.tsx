import type { Router } from 'express';
import { formField, type PageKit } from './page-kit.tsx';
import { workspacePath } from './paths.ts';

/** Where the forms go back to: the workspace page, at its GitHub section. */
const githubSection = (workspace: string) => `${workspacePath(workspace)}#github-repositories`;

/** Linking and unlinking a workspace's GitHub repositories from its page; core checks the role. */
export function githubRoutes(routes: Router, { core, session, workspaceForm }: PageKit): void {
  routes.post(
    '/w/:workspace/github/links',
    workspaceForm(async (req, workspace) => {
      await core.github.links.create.mutate({ workspace, repository: formField(req, 'repository').trim() }, session.caller(req));
      return githubSection(workspace);
    }),
  );
  routes.post(
    '/w/:workspace/github/links/:owner/:name/remove',
    workspaceForm(async (req, workspace) => {
      const repository = `${String(req.params.owner)}/${String(req.params.name)}`;
      await core.github.links.remove.mutate({ workspace, repository }, session.caller(req));
      return githubSection(workspace);
    }),
  );
}
