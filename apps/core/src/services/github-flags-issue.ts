import { DomainError, flagsIssueTitle } from '@svc/domain';
import { inFlagsDigest, renderFlagsIssue } from '@svc/digest';
import type { Store } from '../store/store.ts';
import type { FlagService } from './flags.ts';

/** The `service-flags` issue of a workspace's repositories: the flags digest, and how many flags it holds. */
export function createGithubFlagsIssue(store: Store, flags: FlagService, publicUrl: string) {
  return async (workspaceId: string): Promise<{ title: string; body: string; open: number }> => {
    const workspace = await store.workspaces.findById(workspaceId);
    if (!workspace) throw new DomainError('workspace_not_found', `no workspace ${workspaceId}`);
    const { flags: open } = await flags.list({ ...workspace, role: 'supervisor' }, 'open');
    return {
      title: flagsIssueTitle,
      body: renderFlagsIssue({ workspace: workspace.slug, flags: open, flagsUrl: `${publicUrl}/w/${workspace.slug}/flags.md` }),
      open: open.filter(inFlagsDigest).length,
    };
  };
}
