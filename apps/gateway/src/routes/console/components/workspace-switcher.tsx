import type { Workspace } from '@svc/domain';
import { workspacePath } from '../paths.ts';

/** Every workspace of the person, with their role; a disclosure that opens without script. */
export function WorkspaceSwitcher({ workspaces, current }: { workspaces: Workspace[]; current?: string }) {
  const selected = workspaces.find((w) => w.slug === current);
  return (
    <details className="switcher">
      <summary>{selected ? (selected.name ?? selected.slug) : 'Workspaces'}</summary>
      <ul>
        {workspaces.map((w) => (
          <li key={w.slug}>
            <a href={workspacePath(w.slug)} aria-current={w.slug === current ? 'page' : undefined}>
              <span>{w.name ?? w.slug}</span>
              {w.name && <span className="muted">{w.slug}</span>}
              <span className="role">{w.role}</span>
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
