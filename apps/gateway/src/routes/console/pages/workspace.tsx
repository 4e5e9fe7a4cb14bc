import type { Workspace } from '@svc/domain';
import { Layout } from '../components/layout.tsx';
import { When } from '../components/when.tsx';
import { flagsPath, inboxPath, membersPath } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

export function WorkspacePage({ viewer, workspace }: { viewer: Viewer; workspace: Workspace }) {
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
        <a href={membersPath(workspace.slug)}>Members</a>
      </p>
      <p className="muted">
        A repository deploys its agents here when its <code>svc.yaml</code> names <code>{workspace.slug}</code>.
      </p>
    </Layout>
  );
}
