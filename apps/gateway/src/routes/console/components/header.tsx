import type { Viewer } from '../viewer.ts';
import { CsrfField } from './csrf-field.tsx';
import { evalRunsPath, flagsPath, inboxPath, membersPath } from '../paths.ts';
import { WorkspaceSwitcher } from './workspace-switcher.tsx';

export function Header({ viewer, workspace }: { viewer?: Viewer; workspace?: string }) {
  return (
    <header className="top">
      <nav className="bar" aria-label="svc">
        <a className="brand" href="/">
          svc
        </a>
        {viewer && viewer.workspaces.length > 0 && <WorkspaceSwitcher workspaces={viewer.workspaces} current={workspace} />}
        {viewer && workspace && <a href={inboxPath(workspace)}>Inbox</a>}
        {viewer && workspace && <a href={flagsPath(workspace)}>Flags</a>}
        {viewer && workspace && <a href={evalRunsPath(workspace)}>Evals</a>}
        {viewer && workspace && <a href={membersPath(workspace)}>Members</a>}
        {viewer && <a href="/tokens">Tokens</a>}
        {viewer && <span className="who">{viewer.email}</span>}
        {viewer && (
          <form method="post" action="/logout">
            <CsrfField token={viewer.csrfToken} />
            <button className="secondary">Sign out</button>
          </form>
        )}
      </nav>
    </header>
  );
}
