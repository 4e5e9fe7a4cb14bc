import { DomainError, flagsIssueTitle } from '@svc/domain';
import { renderFlagsIssue } from '@svc/digest';
import type { Store } from '../store.ts';
import type { FlagService } from '../flags/service.ts';

/** The `service-flags` issue of a workspace's repositories: the flags digest, and how many flags it holds. */
export function createGithubFlagsIssue(store: Store, flags: FlagService, publicUrl: string) {
  return async (workspaceId: string): Promise<{ title: string; body: string; open: number }> => {
    const workspace = await store.workspaces.findById(workspaceId);
    if (!workspace) throw new DomainError('workspace_not_found', `no workspace ${workspaceId}`);
    const newest = await flags.newestInDigest(workspace.id);
    return {
      title: flagsIssueTitle,
      body: renderFlagsIssue({ workspace: workspace.slug, ...newest, flagsUrl: `${publicUrl}/w/${workspace.slug}/flags.md` }),
      open: newest.total,
    };
  };
}
