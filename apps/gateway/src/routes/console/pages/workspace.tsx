import type { GithubLinkView, Workspace } from '@svc/domain';
import { GithubSection } from '../components/github-section.tsx';
import { Layout } from '../components/layout.tsx';
import { When } from '../components/when.tsx';
import { agentEvalsPath, evalRunsPath, flagsPath, inboxPath, membersPath } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

export interface WorkspacePageProps {
  viewer: Viewer;
  workspace: Workspace;
  agents: string[];
  links: GithubLinkView[];
}

/** A workspace: what it is, where its pages are, its agents (those deployed anywhere) and its GitHub repositories. */
export function WorkspacePage({ viewer, workspace, agents, links }: WorkspacePageProps) {
  return (
    <Layout title={workspace.name ?? workspace.slug} viewer={viewer} workspace={workspace.slug}>
      <h1>{workspace.name ?? workspace.slug}</h1>
      <dl>
        <dt>Slug</dt>
        <dd>
          <code>{workspace.slug}</code>
        </dd>
        <dt>Your role</dt>
        <dd>{workspace.role}</dd>
        <dt>Created</dt>
        <dd>
          <When at={workspace.created_at} />
        </dd>
      </dl>
      <p className="actions">
        <a href={inboxPath(workspace.slug)}>Inbox</a>
        <a href={flagsPath(workspace.slug)}>Flags</a>
        <a href={evalRunsPath(workspace.slug)}>Eval runs</a>
        <a href={membersPath(workspace.slug)}>Members</a>
      </p>
      {agents.length > 0 && (
        <section aria-label="Agents">
          <h2>Agents</h2>
          <ul className="agents">
            {agents.map((agent) => (
              <li key={agent}>
                {agent} · <a href={agentEvalsPath(workspace.slug, agent)}>Eval cases</a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p className="muted">
        A repository deploys its agents here when its <code>svc.yaml</code> names <code>{workspace.slug}</code>.
      </p>
      <GithubSection workspace={workspace.slug} role={workspace.role} links={links} csrfToken={viewer.csrfToken} />
    </Layout>
  );
}
