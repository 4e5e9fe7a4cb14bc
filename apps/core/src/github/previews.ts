import { renderPrComment } from '@svc/digest';
import { DomainError, environmentForBranch, type PreviewDeployInput } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import { githubAppUser } from './store.ts';
import type { Membership, Store } from '../store.ts';
import { type Clock, isoNow } from '../platform/clock.ts';
import { type DeploymentService, liveEnvironment } from '../agents/deployments.ts';
import type { EvalRunService } from '../evals/runs.ts';
import type { GithubEventService } from './events.ts';
import type { GraderAgreement } from '../evals/grader-agreement.ts';

export interface GithubPreviewDeps {
  store: Store;
  deployments: DeploymentService;
  runs: EvalRunService;
  graders: GraderAgreement;
  events: GithubEventService;
  publicUrl: string;
  clock: Clock;
  log: Logger;
}

/**
 * A pull request's preview: its head's files deployed to the branch's environment as `svc push` would (by the
 * GitHub App as author), an eval run there, and the pull request the run reports to.
 */
export function createGithubPreviewService({ store, deployments, runs, graders, events, publicUrl, clock, log }: GithubPreviewDeps) {
  async function linkedWorkspace(repository: string): Promise<Membership> {
    const link = await store.githubLinks.find(repository);
    const workspace = link && (await store.workspaces.findById(link.workspaceId));
    if (!workspace) {
      throw new DomainError('link_not_found', `${repository} is linked to no workspace: a member connects it with svc github connect`);
    }
    // The app deploys and runs evals as a developer would; it holds no membership of its own.
    return { ...workspace, role: 'developer' };
  }

  return {
    async deploy(input: PreviewDeployInput) {
      const workspace = await linkedWorkspace(input.repository);
      const environment = environmentForBranch(input.branch);
      if (environment === liveEnvironment) {
        throw new DomainError(
          'invalid_request',
          `branch "${input.branch}" would deploy to live, and a pull request's preview never does: rename the branch`,
          { field: 'branch' },
        );
      }
      const deployed = await deployments.push(workspace, githubAppUser.id, {
        environment,
        files: input.files,
        git: { commit: input.head_sha, branch: input.branch },
      });
      const run = await runs.start(workspace, githubAppUser.email, { environment }, 'pull_request');
      await store.previewTargets.create({
        runId: run.id,
        workspaceId: workspace.id,
        repository: input.repository,
        pullNumber: input.pull_number,
        installationId: input.installation_id,
        headSha: input.head_sha,
        createdAt: isoNow(clock),
      });
      // A run may end before its pull request is kept (a quick runner): then it is announced here, once.
      const started = await store.evalRuns.find(run.id);
      if (started?.status === 'finished' || started?.status === 'cancelled') await events.runEnded(run.id);
      log.info(
        { repository: input.repository, pull_request: input.pull_number, run: run.id, environment, version: deployed.version.number },
        'pull request preview deployed, eval run started',
      );
      return {
        workspace: workspace.slug,
        environment,
        version: { id: deployed.version.id, number: deployed.version.number },
        run_id: run.id,
        run_url: `${publicUrl}/w/${workspace.slug}/evals/${run.id}`,
        missing_secrets: deployed.missing_secrets,
      };
    },

    /** The comment a preview's run writes into its pull request, and where. */
    async comment(runId: string) {
      const target = await store.previewTargets.get(runId);
      const workspace = target && (await store.workspaces.findById(target.workspaceId));
      if (!target || !workspace) throw new DomainError('preview_not_found', `eval run ${runId} is no pull request's preview`);
      const run = await runs.get(workspace.id, runId);
      const baseline = run.baseline_run_id ? await runs.get(workspace.id, run.baseline_run_id) : null;
      const agreement = await graders.list(workspace.id);
      const markdown = renderPrComment({
        state: 'finished',
        workspace: workspace.slug,
        run,
        baseline,
        url: `${publicUrl}/w/${workspace.slug}/evals/${runId}`,
        commit: target.headSha,
        graders: agreement.graders,
      });
      return {
        markdown,
        repository: target.repository,
        pull_number: target.pullNumber,
        installation_id: target.installationId,
        head_sha: target.headSha,
      };
    },
  };
}

export type GithubPreviewService = ReturnType<typeof createGithubPreviewService>;
