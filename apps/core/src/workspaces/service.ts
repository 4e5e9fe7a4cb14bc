import { type CreateWorkspaceInput, DomainError } from '@svc/domain';
import { ChangeCache } from '../platform/change-cache.ts';
import type { Membership, Store } from '../store.ts';
import { type Clock, isoNow } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';

export function createWorkspaceService(store: Store, clock: Clock) {
  // Every workspace request looks up its caller's membership: each answer is kept a minute, until any core publishes
  // a change of that user's memberships (the stores publish every one); a workspace's slug never changes.
  const memberships = new ChangeCache<Membership>({
    changes: store.changes,
    topic: 'memberships',
    ttlMs: 60_000,
    maxEntries: 10_000,
    changeKeyOf: (key) => key.slice(0, key.indexOf(' ')),
  });

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
      const membership = await memberships.get(`${userId} ${slug}`, () => store.workspaces.findForUser(slug, userId));
      if (!membership) throw new DomainError('workspace_not_found', `no workspace "${slug}" among yours`);
      return { ...membership };
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
