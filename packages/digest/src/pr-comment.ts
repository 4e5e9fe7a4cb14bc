import { prCommentMarker } from '@svc/domain';
import { largestFitting } from './github-limits.ts';
import { code, fenced, inline, plural, trimmed } from './markdown.ts';
import { finishedPreview, type FinishedPreview } from './pr-comment-run.ts';

/** The hidden first line the pull request comment is found by, to be edited in place rather than posted twice. */
export { prCommentMarker };

export interface PreviewVersion {
  id: string;
  number: number;
}

/** A problem in the repository's `svc.yaml` or `agents/**`, with the file and where in it. */
export interface PreviewManifestIssue {
  file: string;
  path: string;
  message: string;
}

export type PrCommentInput =
  | ({ state: 'running' } & RunningPreview)
  | ({ state: 'finished' } & FinishedPreview)
  | ({ state: 'fork' } & ForkPreview)
  | ({ state: 'failed' } & FailedPreview);

export interface RunningPreview {
  workspace: string;
  environment: string;
  version: PreviewVersion;
  /** The run's page in the console. */
  url: string;
  commit?: string;
}

export interface ForkPreview {
  workspace: string;
  pull_number: number;
  /** Where the pull request's code comes from, as GitHub labels it: `someone:their-branch`. */
  head: string;
}

export interface FailedPreview {
  workspace: string;
  /** What failed: reading the manifest, deploying it, or the eval run (it could not start, failed or was cancelled). */
  stage: 'manifest' | 'deploy' | 'run';
  message: string;
  /** The manifest's issues, each with its file and path. */
  issues?: PreviewManifestIssue[];
  environment?: string;
  version?: PreviewVersion;
  /** The run's page in the console, when a run exists. */
  url?: string;
  commit?: string;
}

/** How much of an error message and of each manifest issue the comment shows. */
const messageLimit = 4_000;
const issueLimit = 500;

function where(workspace: string, environment?: string, version?: PreviewVersion, commit?: string): string {
  return [
    `Workspace ${code(workspace)}`,
    environment ? `environment ${code(environment)}` : undefined,
    version ? `version v${version.number} (${code(version.id)})` : undefined,
    commit ? `commit ${code(commit.slice(0, 7))}` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

function running({ workspace, environment, version, url, commit }: RunningPreview): string[] {
  return [
    `## ⏳ svc evals: running`,
    where(workspace, environment, version, commit),
    `This commit is deployed to ${code(environment)} and its eval cases are replaying. This comment shows the result when the run finishes.`,
    `[The run in the console](${url})`,
  ];
}

function fork({ workspace, pull_number: pull, head }: ForkPreview): string[] {
  return [
    '## ⚪ svc evals: not run on pull requests from forks',
    `This pull request comes from a fork (${code(head)}), so svc did not deploy it: the agents' tools would run with the secrets of workspace ${code(workspace)}'s environments, on code no member has reviewed.`,
    'A member of the workspace who has read the change can run the evals from a checkout of it:',
    fenced(
      [
        `gh pr checkout ${pull}`,
        'svc push   # deploys the branch to its own environment',
        'svc eval   # replays every eval case there',
      ].join('\n'),
      'sh',
    ),
  ];
}

const issueLine = ({ file, path, message }: PreviewManifestIssue) =>
  `- ${code(file)}${path ? ` at ${code(path)}` : ''}: ${inline(message, issueLimit)}`;

/** The manifest's issues, the first `max` of them when there are too many for a comment. */
function issueList(issues: PreviewManifestIssue[], max: number): string[] {
  if (issues.length === 0) return [];
  const rest = issues.length - Math.min(max, issues.length);
  const more = rest === 0 ? [] : [`- … and ${plural(rest, 'more issue')}: \`svc push\` from a checkout lists them all.`];
  return [[...issues.slice(0, max).map(issueLine), ...more].join('\n')];
}

const headlines: Record<FailedPreview['stage'], string> = {
  manifest: '## ❌ svc evals: the manifest has errors',
  deploy: '## ❌ svc evals: the deploy failed',
  run: '## ❌ svc evals: the run did not finish',
};

function failed(input: FailedPreview, maxIssues: number): string[] {
  const { workspace, stage, message, issues = [], environment, version, url, commit } = input;
  const explained = {
    manifest: `svc read \`svc.yaml\` and \`agents/**\` at this commit and found ${plural(Math.max(issues.length, 1), 'problem')}; nothing was deployed. Fix them and push: this comment follows every push.`,
    deploy: `svc could not deploy this commit${environment ? ` to ${code(environment)}` : ''}, so no eval ran:`,
    run: 'The eval run did not finish, so this change has no verdict:',
  }[stage];
  return [
    headlines[stage],
    where(workspace, environment, version, commit),
    explained,
    ...issueList(issues, maxIssues),
    ...(stage === 'manifest' && issues.length > 0 ? [] : [fenced(trimmed(message, messageLimit))]),
    ...(url ? [`[The run in the console](${url})`] : []),
  ];
}

const comment = (parts: string[]) => `${prCommentMarker}\n${parts.join('\n\n')}\n`;

/**
 * The one comment a pull request gets, as markdown: where its preview stands. The first line is a hidden marker;
 * the body stays under GitHub's limit (a finished run cuts its table of cases first, with a link to the run; a
 * manifest with too many issues lists the first ones).
 */
export function renderPrComment(input: PrCommentInput): string {
  switch (input.state) {
    case 'running':
      return comment(running(input));
    case 'fork':
      return comment(fork(input));
    case 'finished':
      return finishedPreview(input, prCommentMarker);
    case 'failed': {
      const all = input.issues?.length ?? 0;
      return comment(failed(input, largestFitting(all, (n) => comment(failed(input, n))) ?? 0));
    }
  }
}
