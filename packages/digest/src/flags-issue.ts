import { fitsGithub, largestFitting } from './github-limits.ts';
import { digestFlags, type FlagsDigestInput, flagsDigestOf } from './flags-digest.ts';
import { count, plural } from './markdown.ts';

export interface FlagsIssueInput extends FlagsDigestInput {
  /** The digest, `flags.md`, in the console. */
  flagsUrl: string;
}

/**
 * The body of the repository's `service-flags` issue: the flags digest as `svc flags` prints it, or, when that is
 * longer than GitHub allows, the first flags that fit and a link to the digest.
 */
export function renderFlagsIssue({ workspace, flags: given, total, flagsUrl }: FlagsIssueInput): string {
  const flags = digestFlags(given);
  const view = { workspace, flags, total: total ?? flags.length };
  const whole = flagsDigestOf(view);
  if (fitsGithub(whole)) return whole;
  const cut = (shown: number) => {
    const more = `_This issue shows ${plural(shown, 'flag')} of the digest's ${count(flags.length)}; the digest, with every one, is [flags.md](${flagsUrl})._`;
    return flagsDigestOf(view, shown, more);
  };
  return cut(largestFitting(flags.length, cut) ?? 0);
}
