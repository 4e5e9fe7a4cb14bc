import { DomainError, type GithubLinkView } from '@svc/domain';
import { authorize } from '../platform/authorization.ts';
import type { GithubLinkRecord } from './store.ts';
import type { Membership, Store } from '../store.ts';
import { type Clock, isoNow } from '../platform/clock.ts';

/**
 * The repositories a workspace links: the GitHub App acts for a workspace only on these (a `svc.yaml` naming a
 * workspace links nothing: anyone could name anyone's). Every member reads them; owners and developers change them.
 */
export function createGithubLinkService(store: Store, clock: Clock) {
  async function view(link: GithubLinkRecord): Promise<GithubLinkView> {
    const installation = await store.githubInstallations.find(link.repository);
    return { repository: link.repository, installed: installation !== undefined, created_by: link.createdBy, created_at: link.createdAt };
  }

  return {
    async list(membership: Membership): Promise<{ links: GithubLinkView[] }> {
      return { links: await Promise.all((await store.githubLinks.list(membership.id)).map(view)) };
    },

    async create(membership: Membership, email: string, repository: string): Promise<GithubLinkView> {
      authorize(membership, 'linkRepositories');
      const link: GithubLinkRecord = { workspaceId: membership.id, repository, createdBy: email, createdAt: isoNow(clock) };
      if (await store.githubLinks.create(link)) return view(link);
      const existing = await store.githubLinks.find(repository);
      // Which other workspace holds it is that workspace's business: the answer does not name it.
      const where =
        existing?.workspaceId === membership.id ? 'to this workspace already' : 'to another workspace: disconnect it there first';
      throw new DomainError('repository_linked', `${existing?.repository ?? repository} is linked ${where}`, { field: 'repository' });
    },

    async remove(membership: Membership, repository: string): Promise<void> {
      authorize(membership, 'linkRepositories');
      if (!(await store.githubLinks.remove(membership.id, repository))) {
        throw new DomainError('link_not_found', `${repository} is not linked to ${membership.slug}`);
      }
    },
  };
}

export type GithubLinkService = ReturnType<typeof createGithubLinkService>;
