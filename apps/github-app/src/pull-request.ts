import type { CoreClient } from '@svc/core-client';
import { renderPrComment } from '@svc/digest';
import type { Logger } from '@svc/server-kit';
import type { Context, ProbotOctokit } from 'probot';
import { coreErrorOf } from './core.ts';
import { HeadFilesError, readHeadFiles } from './head-files.ts';
import { onePullRequestAtATime, writeStickyComment } from './sticky-comment.ts';

type PullRequestContext = Context<'pull_request.opened' | 'pull_request.synchronize' | 'pull_request.reopened'>;

interface ManifestIssue {
  file: string;
  path: string;
  message: string;
}

/**
 * A pull request's preview: for a repository that a workspace linked and the app is installed on, the head commit's
 * `svc.yaml` and `agents/**` are deployed to the branch's environment and an eval run starts there; the pull
 * request's one comment says it is running, with the run's link. A pull request from a fork is not deployed (its
 * code would run with the environment's secrets); its comment says how a member runs it. A manifest error or a
 * failed deploy is shown in the comment with its message.
 */
export async function previewPullRequest(context: PullRequestContext, core: CoreClient, app: AppAuth): Promise<void> {
  const { pull_request: pull, repository: repo } = context.payload;
  const repository = repo.full_name;
  const pr = { repository, pullNumber: pull.number };
  const headSha = pull.head.sha;
  const log = context.log.child({ repository, pull_request: pull.number, head_sha: headSha });

  const target = await core.github.repositories.find.query({ repository });
  if (!target) return log.info('repository not linked to a workspace: no preview');
  const installationId =
    target.installed && target.installation_id !== null ? target.installation_id : await confirmInstallation(context, core, app, log);
  if (installationId === undefined) return log.info('app not installed on the repository: no preview');
  await onePullRequestAtATime(pr, () => preview(context, core, target.workspace_slug, installationId, log));
}

/** The app's own (JWT) client, for what only the app may ask, such as where it is installed. */
export type AppAuth = () => Promise<ProbotOctokit>;

/**
 * The installation a pull request's payload names, when core never heard of it (the app was down when the owner
 * installed it, or the repository was linked after): GitHub confirms it for the repository, and core is told, so
 * the preview goes on. Undefined when GitHub says the app is not installed there.
 */
async function confirmInstallation(context: PullRequestContext, core: CoreClient, app: AppAuth, log: Logger): Promise<number | undefined> {
  const named = context.payload.installation?.id;
  if (named === undefined) return undefined;
  const { owner, repo } = context.repo();
  const octokit = await app();
  const installation = await octokit.rest.apps.getRepoInstallation({ owner, repo }).catch((error: { status?: number }) => {
    if (error.status === 404) return undefined;
    throw error;
  });
  if (installation?.data.id !== named) return undefined;
  await core.github.installations.sync.mutate({ installation_id: named, added: [context.payload.repository.full_name], removed: [] });
  log.info({ installation: named }, 'installation confirmed with GitHub and told to core');
  return named;
}

async function preview(
  context: PullRequestContext,
  core: CoreClient,
  workspace: string,
  installationId: number,
  log: Logger,
): Promise<void> {
  const { pull_request: pull, repository: repo } = context.payload;
  const repository = repo.full_name;
  const pr = { repository, pullNumber: pull.number };
  const headSha = pull.head.sha;

  const comment = async (body: string, what: string, extra: object = {}) => {
    const written = await writeStickyComment(context.octokit, pr, body);
    log.info({ workspace, ...extra }, `${what}: comment ${written}`);
  };

  if (pull.head.repo?.full_name.toLowerCase() !== pull.base.repo.full_name.toLowerCase()) {
    return comment(
      renderPrComment({ state: 'fork', workspace, pull_number: pull.number, head: pull.head.label }),
      'pull request from a fork, not deployed',
    );
  }

  let files: Record<string, string>;
  try {
    files = await readHeadFiles(context.octokit, repository, headSha);
  } catch (error) {
    if (!(error instanceof HeadFilesError)) throw error;
    return comment(
      renderPrComment({ state: 'failed', workspace, stage: 'manifest', message: error.message, commit: headSha }),
      'head commit unreadable',
    );
  }

  let preview;
  try {
    preview = await core.github.previews.deploy.mutate({
      repository,
      installation_id: context.payload.installation?.id ?? installationId,
      pull_number: pull.number,
      head_sha: headSha,
      branch: pull.head.ref,
      files,
    });
  } catch (error) {
    // Core's refusal (a manifest's issues, a branch that would deploy to live...) or no answer at all: either way
    // the pull request says so, since this delivery is claimed and GitHub will not send it again.
    const failure = coreErrorOf(error);
    if (!failure) throw error;
    if (failure.code === 'core_unreachable') log.error({ err: error }, 'core did not answer: preview not deployed');
    const manifest = failure.code === 'invalid_manifest';
    const issues = manifest ? ((failure.details.issues as ManifestIssue[] | undefined) ?? []) : undefined;
    return comment(
      renderPrComment({
        state: 'failed',
        workspace,
        stage: manifest ? 'manifest' : 'deploy',
        message: failure.message,
        issues,
        commit: headSha,
      }),
      'preview not deployed',
      { error: failure.code },
    );
  }
  await comment(
    renderPrComment({
      state: 'running',
      workspace,
      environment: preview.environment,
      version: preview.version,
      url: preview.run_url,
      commit: headSha,
    }),
    'deployed and started an eval run',
    { environment: preview.environment, version: preview.version.number, run: preview.run_id },
  );
}
