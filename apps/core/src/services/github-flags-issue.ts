import { DomainError, flagsIssueTitle } from '@svc/domain';
import { inFlagsDigest, renderFlagsDigest } from '@svc/digest';
import type { Store } from '../store/store.ts';
import type { FlagService } from './flags.ts';
import { trimmedBody } from './github-previews.ts';

/** The `service-flags` issue of a workspace's repositories: the flags digest, and how many flags it holds. */
export function createGithubFlagsIssue(store: Store, flags: FlagService, publicUrl: string) {
  return async (workspaceId: string): Promise<{ title: string; body: string; open: number }> => {
    const workspace = await store.workspaces.findById(workspaceId);
    if (!workspace) throw new DomainError('workspace_not_found', `no workspace ${workspaceId}`);
    const { flags: open } = await flags.list({ ...workspace, role: 'supervisor' }, 'open');
    const body = renderFlagsDigest({ workspace: workspace.slug, flags: open });
    return {
      title: flagsIssueTitle,
      body: trimmedBody(body, `${publicUrl}/w/${workspace.slug}/flags (or \`svc flags --save flags.md\`)`),
      open: open.filter(inFlagsDigest).length,
    };
  };
}
