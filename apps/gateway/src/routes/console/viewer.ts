import type { Role, Workspace } from '@svc/domain';

/** The signed-in person as every console page's header shows them. */
export interface Viewer {
  email: string;
  /** The session's CSRF token, which every form of the page posts back. */
  csrfToken: string;
  /** Every workspace the person belongs to, with their role in it. */
  workspaces: Workspace[];
}

/**
 * The viewer's role in one of their workspaces, which says what the page offers them (core decides what they may do):
 * the least one if the workspace is not in their list.
 */
export const roleIn = (viewer: Viewer, workspace: string): Role =>
  viewer.workspaces.find((w) => w.slug === workspace)?.role ?? 'supervisor';
