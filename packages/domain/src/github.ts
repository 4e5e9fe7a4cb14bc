import { z } from 'zod';
import { fieldErrorCodes } from './errors.ts';

/** GitHub's limit on a comment's or an issue's body, in characters. */
export const githubBodyLimit = 65_536;

/** The title of the one issue that holds a repository's flags digest. */
export const flagsIssueTitle = 'Service flags';

/** A GitHub account name: letters, digits and single dashes inside, up to 39. */
const accountName = String.raw`[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}`;
/** A GitHub repository's own name: letters, digits, `.`, `-` and `_`, up to 100, neither `.` nor `..`. */
const ownName = String.raw`(?!\.\.?$)[A-Za-z0-9._-]{1,100}`;

/** A GitHub repository as `owner/name`, an account name and the repository's own. Matched case-insensitively. */
export const repositoryName = z
  .string()
  .max(140)
  .regex(new RegExp(String.raw`^${accountName}\/${ownName}$`), 'expected a GitHub repository as owner/name, e.g. acme/support-bot')
  .meta({ example: 'acme/support-bot' })
  .register(fieldErrorCodes, { code: 'invalid_repository' });

/**
 * A repository in a path, `:owner/:repo`. Core checks the two together as a `repositoryName` (`invalid_repository`,
 * field `repository`), so here each part only carries its share of that pattern for the OpenAPI document to state.
 */
export const repositoryPath = z.object({
  owner: z
    .string()
    .max(100)
    .meta({ pattern: `^${accountName}$`, example: 'acme' }),
  repo: z
    .string()
    .max(100)
    .meta({ pattern: `^${ownName}$`, example: 'support-bot' }),
});

export const createGithubLinkInput = z.object({ repository: repositoryName }).meta({ id: 'GithubLinkInput' });

export const githubLink = z
  .object({
    repository: z.string().meta({ description: '`owner/name` as it was linked' }),
    installed: z.boolean().meta({ description: 'Whether the GitHub App is installed on the repository: it acts only where it is' }),
    created_by: z.string().meta({ description: 'The email of the member who linked it' }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'GithubLink' });
export type GithubLinkView = z.infer<typeof githubLink>;

export const githubLinkList = z.object({ links: z.array(githubLink) }).meta({ id: 'GithubLinkList' });

// What the GitHub App asks of core.

export const previewDeployInput = z.object({
  repository: repositoryName,
  installation_id: z.number().int().positive(),
  pull_number: z.number().int().positive(),
  head_sha: z.string().regex(/^[0-9a-f]{40}$/, 'expected a commit sha'),
  branch: z.string().min(1).max(255),
  /** `svc.yaml` and everything under `agents/` at the head commit, by path. */
  files: z.record(z.string().max(300), z.string().max(1_000_000)),
});
export type PreviewDeployInput = z.infer<typeof previewDeployInput>;

export const eventKind = z.enum(['run_finished', 'flags_issue']);

export const claimedEvent = z.object({
  id: z.string(),
  kind: eventKind,
  payload: z.record(z.string(), z.unknown()),
  /** Presented with `done` or `retry`: refused once the claim expired and the event went to another claimer. */
  claim_id: z.string(),
  claimed_until: z.iso.datetime(),
  attempts: z.number().int(),
});
export type ClaimedEvent = z.infer<typeof claimedEvent>;

/** The first line of the pull request comment: how the app finds its one comment again to edit it. */
export const prCommentMarker = '<!-- svc:pr-preview -->';
