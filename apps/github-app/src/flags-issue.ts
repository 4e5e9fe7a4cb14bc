import type { Logger } from '@svc/server-kit';
import { type Octokit, repoOf } from './github.ts';
import { ensureFlagsLabel, flagsLabel } from './labels.ts';

export interface FlagsIssueContent {
  /** Exactly `Service flags`: the issue is found again by it. */
  title: string;
  body: string;
  /** Flags open with a note: none means every flag is fixed. */
  open: number;
}

export type FlagsIssueOutcome = 'created' | 'updated' | 'unchanged' | 'reopened' | 'closed' | 'none';

const sameText = (a: string | null | undefined, b: string) => (a ?? '').replace(/\r\n/g, '\n').trim() === b.replace(/\r\n/g, '\n').trim();

/**
 * Keeps one issue with the workspace's open flags, by the rules of Renovate's dependency dashboard: the issue is
 * found by its exact title among the issues the app authored; duplicates are closed with a comment pointing to the
 * one kept (the oldest open); the body is written only when it changed, and every write re-applies the label
 * (created if missing); when flags return, the latest closed issue is reopened rather than a new one created; when
 * every flag is fixed, the issue is closed with a comment.
 */
export async function syncFlagsIssue(
  octokit: Octokit,
  repository: string,
  botLogin: string,
  content: FlagsIssueContent,
  log: Logger,
): Promise<FlagsIssueOutcome> {
  const { owner, repo } = repoOf(repository);
  const authored = await octokit.paginate(octokit.rest.issues.listForRepo, { owner, repo, creator: botLogin, state: 'all', per_page: 100 });
  const issues = authored.filter((issue) => !issue.pull_request && issue.title === content.title).sort((a, b) => a.number - b.number);
  const open = issues.filter((issue) => issue.state === 'open');
  const [kept, ...duplicates] = open;

  for (const duplicate of duplicates) {
    await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: duplicate.number,
      body: `Closing: this is a duplicate of #${kept!.number}, which keeps the flags digest.`,
    });
    await octokit.rest.issues.update({ owner, repo, issue_number: duplicate.number, state: 'closed', state_reason: 'not_planned' });
    log.info({ repository, issue: duplicate.number, kept: kept!.number }, 'closed a duplicate flags issue');
  }

  if (content.open === 0) {
    if (!kept) return 'none';
    await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: kept.number,
      body: 'Every flag is fixed: no flagged reply with a note is open. Closing; this issue reopens when new flags come in.',
    });
    await octokit.rest.issues.update({ owner, repo, issue_number: kept.number, state: 'closed', state_reason: 'completed' });
    log.info({ repository, issue: kept.number }, 'closed the flags issue: every flag is fixed');
    return 'closed';
  }

  if (kept && sameText(kept.body, content.body)) {
    log.info({ repository, issue: kept.number }, 'flags issue unchanged');
    return 'unchanged';
  }
  if (await ensureFlagsLabel(octokit, repository)) log.info({ repository }, 'created the service-flags label');
  const labelsOf = (issue: { labels: (string | { name?: string })[] }) => [
    ...new Set([...issue.labels.map((label) => (typeof label === 'string' ? label : (label.name ?? ''))).filter(Boolean), flagsLabel.name]),
  ];
  if (kept) {
    await octokit.rest.issues.update({ owner, repo, issue_number: kept.number, body: content.body, labels: labelsOf(kept) });
    log.info({ repository, issue: kept.number, open_flags: content.open }, 'updated the flags issue');
    return 'updated';
  }
  const latestClosed = issues.at(-1);
  if (latestClosed) {
    await octokit.rest.issues.update({
      owner,
      repo,
      issue_number: latestClosed.number,
      state: 'open',
      body: content.body,
      labels: labelsOf(latestClosed),
    });
    log.info({ repository, issue: latestClosed.number, open_flags: content.open }, 'reopened the flags issue');
    return 'reopened';
  }
  const { data: created } = await octokit.rest.issues.create({
    owner,
    repo,
    title: content.title,
    body: content.body,
    labels: [flagsLabel.name],
  });
  log.info({ repository, issue: created.number, open_flags: content.open }, 'created the flags issue');
  return 'created';
}
