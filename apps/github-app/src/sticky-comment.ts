import { prCommentMarker } from '@svc/domain';
import { type Octokit, repoOf } from './github.ts';

export interface PullRequestRef {
  /** `owner/name`. */
  repository: string;
  pullNumber: number;
}

/** The app's comment on the pull request, found by its marker among the pull request's comments. */
async function findStickyComment(octokit: Octokit, pr: PullRequestRef): Promise<number | undefined> {
  const comments = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    ...repoOf(pr.repository),
    issue_number: pr.pullNumber,
    per_page: 100,
  });
  for await (const page of comments) {
    const mine = page.data.find((comment) => comment.user?.type === 'Bot' && comment.body?.startsWith(prCommentMarker));
    if (mine) return mine.id;
  }
  return undefined;
}

/**
 * Writes the pull request's one comment: edits it in place when it exists (found again by its marker, so an app
 * restarted since still finds it), creates it otherwise. Callers hold the pull request (`onePullRequestAtATime`),
 * so that two writes never both create it.
 */
export async function writeStickyComment(octokit: Octokit, pr: PullRequestRef, body: string): Promise<'created' | 'updated'> {
  if (!body.startsWith(prCommentMarker)) throw new Error('a preview comment starts with its marker');
  const { owner, repo } = repoOf(pr.repository);
  const existing = await findStickyComment(octokit, pr);
  if (existing === undefined) {
    await octokit.rest.issues.createComment({ owner, repo, issue_number: pr.pullNumber, body });
    return 'created';
  }
  await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing, body });
  return 'updated';
}

const tails = new Map<string, Promise<unknown>>();

/**
 * Runs work on one pull request one at a time, in arrival order: a push's preview (deploy, then its "running"
 * comment) and a run's result never interleave, so a run that finishes before its "running" comment is written
 * still has the last word.
 */
export async function onePullRequestAtATime<T>(pr: PullRequestRef, work: () => Promise<T>): Promise<T> {
  const key = `${pr.repository.toLowerCase()}#${pr.pullNumber}`;
  const previous = tails.get(key);
  const run = previous ? previous.then(work, work) : work();
  const tail = run.catch(() => {});
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
