import type { Context, Probot } from 'probot';
import { flagsLabel } from './labels.ts';

type Repository = { name: string; full_name: string };

/** Creates the `service-flags` label where it is missing, so the digest issue can carry it from day one. */
async function ensureFlagsLabel(context: Context, repositories: Repository[]): Promise<void> {
  for (const repo of repositories) {
    const owner = repo.full_name.split('/')[0] ?? '';
    try {
      await context.octokit.rest.issues.getLabel({ owner, repo: repo.name, name: flagsLabel.name });
    } catch (error) {
      if ((error as { status?: number }).status !== 404) throw error;
      await context.octokit.rest.issues.createLabel({ owner, repo: repo.name, ...flagsLabel });
      context.log.info({ repo: repo.full_name }, 'created the service-flags label');
    }
  }
}

export function svcApp(app: Probot): void {
  app.on('installation.created', (context) => ensureFlagsLabel(context, context.payload.repositories ?? []));
  app.on('installation_repositories.added', (context) => ensureFlagsLabel(context, context.payload.repositories_added));
}
