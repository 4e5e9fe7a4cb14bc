import type { Workspace } from '@svc/domain';

/** The signed-in person as every console page's header shows them. */
export interface Viewer {
  email: string;
  /** The session's CSRF token, which every form of the page posts back. */
  csrfToken: string;
  /** Every workspace the person belongs to, with their role in it. */
  workspaces: Workspace[];
}
