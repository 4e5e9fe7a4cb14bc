import type { FlagView } from '@svc/domain';
import { fitsGithub, largestFitting } from './github-limits.ts';
import { digestFlags, flagsDigestOf } from './flags-digest.ts';
import { count, plural } from './markdown.ts';

export interface FlagsIssueInput {
  workspace: string;
  flags: FlagView[];
  /** The whole digest, `flags.md`, in the console. */
  flagsUrl: string;
}

/**
 * The body of the repository's `service-flags` issue: the flags digest as `svc flags` prints it, or, when that is
 * longer than GitHub allows, the first flags that fit and a link to the whole digest.
 */
export function renderFlagsIssue({ workspace, flags: all, flagsUrl }: FlagsIssueInput): string {
  const flags = digestFlags(all);
  const whole = flagsDigestOf(workspace, flags);
  if (fitsGithub(whole)) return whole;
  const cut = (shown: number) => {
    const more = `_This issue shows ${plural(shown, 'flag')} of ${count(flags.length)}; the whole digest, with every flag, is [flags.md](${flagsUrl})._`;
    return flagsDigestOf(workspace, flags, shown, more);
  };
  return cut(largestFitting(flags.length, cut) ?? 0);
}
