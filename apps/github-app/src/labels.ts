import { type Octokit, repoOf, statusOf } from './github.ts';

/** The label of the issue that holds the flags digest. */
export const flagsLabel = {
  name: 'service-flags',
  color: 'd93f0b',
  description: 'Agent replies flagged by supervisors, as a digest for a coding agent',
};

/** Creates the `service-flags` label where it is missing; true when it made it. */
export async function ensureFlagsLabel(octokit: Octokit, repository: string): Promise<boolean> {
  const { owner, repo } = repoOf(repository);
  try {
    await octokit.rest.issues.getLabel({ owner, repo, name: flagsLabel.name });
    return false;
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
  }
  try {
    await octokit.rest.issues.createLabel({ owner, repo, ...flagsLabel });
    return true;
  } catch (error) {
    // Another delivery created it meanwhile.
    if (statusOf(error) === 422) return false;
    throw error;
  }
}
