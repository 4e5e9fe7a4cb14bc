import type { Logger } from '@svc/server-kit';
import type { Store } from '../store.ts';
import { type Clock, isoNow } from '../platform/clock.ts';

/** What the GitHub App tells core of its webhooks and asks of the repositories it hears from. */
export function createGithubInstallationService(store: Store, clock: Clock, log: Logger) {
  return {
    /** Claims a webhook delivery by `X-GitHub-Delivery`: only the first claim of a delivery acts on it. */
    async claimDelivery(id: string): Promise<{ first: boolean }> {
      return { first: await store.githubDeliveries.claim(id, isoNow(clock)) };
    },

    /** The app could not handle a delivery it claimed: a redelivery of it is handled. */
    async releaseDelivery(id: string): Promise<{ released: true }> {
      await store.githubDeliveries.release(id);
      log.info({ delivery: id }, 'GitHub delivery released: its handling failed');
      return { released: true };
    },

    /** The repositories an installation gained and lost, or (deleted) the whole installation gone. */
    async sync(installationId: number, added: string[], removed: string[], deleted: boolean): Promise<Record<string, never>> {
      if (deleted) await store.githubInstallations.removeInstallation(installationId);
      else await store.githubInstallations.sync(installationId, added, removed, isoNow(clock));
      log.info({ installation: installationId, added, removed, deleted }, 'GitHub App installation changed');
      return {};
    },

    /** The workspace a repository is linked to, and whether the app is installed there: null when it is linked to none. */
    async find(repository: string): Promise<{ workspace_slug: string; installed: boolean; installation_id: number | null } | null> {
      const link = await store.githubLinks.find(repository);
      if (!link) return null;
      const [workspace, installation] = await Promise.all([
        store.workspaces.findById(link.workspaceId),
        store.githubInstallations.find(repository),
      ]);
      if (!workspace) return null;
      return {
        workspace_slug: workspace.slug,
        installed: installation !== undefined,
        installation_id: installation?.installationId ?? null,
      };
    },
  };
}

export type GithubInstallationService = ReturnType<typeof createGithubInstallationService>;
