import type { ProbotOctokit } from 'probot';

/** An installation's Octokit, as Probot hands it to webhook handlers and `probot.auth(installationId)` returns it. */
export type Octokit = InstanceType<typeof ProbotOctokit>;

/** A repository by its `owner/name`, as the REST API's path parameters take it. */
export function repoOf(fullName: string): { owner: string; repo: string } {
  const [owner = '', repo = ''] = fullName.split('/');
  return { owner, repo };
}

/** GitHub answered with this HTTP status (Octokit's RequestError). */
export const statusOf = (error: unknown): number | undefined => (error as { status?: number } | null)?.status;
