import { type CreateWorkspaceInput, DomainError } from '@svc/domain';
import type { Membership, Store } from '../store/store.ts';
import { type Clock, isoNow } from './clock.ts';
import { newId } from './ids.ts';

export function createWorkspaceService(store: Store, clock: Clock) {
  return {
    list(userId: string): Promise<Membership[]> {
      return store.workspaces.listForUser(userId);
    },

    /** Creates a workspace owned by the user. */
    async create(userId: string, input: CreateWorkspaceInput): Promise<Membership> {
      const created = await store.workspaces.createWithOwner(
        { id: newId('ws'), slug: input.slug, name: input.name ?? null, createdAt: isoNow(clock) },
        userId,
      );
      if (!created) throw new DomainError('slug_taken', `the workspace slug "${input.slug}" is taken`);
      return created;
    },

    /**
     * The caller's membership of a workspace. A workspace that does not exist and one the caller
     * does not belong to answer the same, so existence does not leak.
     */
    async resolve(slug: string, userId: string): Promise<Membership> {
      const membership = await store.workspaces.findForUser(slug, userId);
      if (!membership) throw new DomainError('workspace_not_found', `no workspace "${slug}" among yours`);
      return membership;
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
