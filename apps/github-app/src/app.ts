import type { CoreClient } from '@svc/core-client';
import type { Context, Probot } from 'probot';
import { ensureFlagsLabel } from './labels.ts';
import { previewPullRequest } from './pull-request.ts';

/**
 * Runs a webhook handler once per delivery: the delivery's id (`X-GitHub-Delivery`) is claimed in core first, so a
 * redelivery, or the same delivery reaching a second app process, does nothing twice.
 */
function once<C extends Context>(core: CoreClient, handler: (context: C) => Promise<void>) {
  return async (context: C) => {
    const { first } = await core.github.deliveries.claim.mutate({ id: context.id });
    if (!first) {
      context.log.info({ delivery: context.id, event: context.name }, 'delivery handled before: ignored');
      return;
    }
    try {
      await handler(context);
    } catch (error) {
      // Not done: a redelivery (GitHub's, or one asked for in the app's settings) tries again.
      await core.github.deliveries.release.mutate({ id: context.id });
      throw error;
    }
  };
}

/** Creates the `service-flags` label where it is missing, so the flags issue can carry it from day one. */
async function labelRepositories(context: Context, repositories: { full_name: string }[]): Promise<void> {
  for (const { full_name: repository } of repositories) {
    if (await ensureFlagsLabel(context.octokit, repository)) context.log.info({ repository }, 'created the service-flags label');
  }
}

/** The app's webhook handlers; whatever they need kept is kept by core. */
export function svcApp(core: CoreClient) {
  return (app: Probot): void => {
    const sync = async (context: Context, installationId: number, added: { full_name: string }[], removed: { full_name: string }[]) => {
      await core.github.installations.sync.mutate({
        installation_id: installationId,
        added: added.map((r) => r.full_name),
        removed: removed.map((r) => r.full_name),
      });
      context.log.info(
        { installation: installationId, added: added.map((r) => r.full_name), removed: removed.map((r) => r.full_name) },
        'installation synced with core',
      );
    };

    app.on(
      'installation.created',
      once(core, async (context) => {
        const repositories = (context.payload.repositories ?? []).flatMap((r) => (r.full_name ? [{ full_name: r.full_name }] : []));
        await sync(context, context.payload.installation.id, repositories, []);
        await labelRepositories(context, repositories);
      }),
    );
    app.on(
      'installation.deleted',
      once(core, async (context) => {
        const { id } = context.payload.installation;
        await core.github.installations.sync.mutate({ installation_id: id, added: [], removed: [], deleted: true });
        context.log.info({ installation: id }, 'app uninstalled: core forgets the installation');
      }),
    );
    app.on(
      'installation_repositories',
      once(core, async (context) => {
        const { installation, repositories_added: added, repositories_removed: removed } = context.payload;
        const named = (repositories: { full_name?: string }[]) =>
          repositories.flatMap((r) => (r.full_name ? [{ full_name: r.full_name }] : []));
        await sync(context, installation.id, added, named(removed));
        await labelRepositories(context, added);
      }),
    );
    app.on(
      ['pull_request.opened', 'pull_request.synchronize', 'pull_request.reopened'],
      once(core, (context) => previewPullRequest(context, core, () => app.auth())),
    );
  };
}
