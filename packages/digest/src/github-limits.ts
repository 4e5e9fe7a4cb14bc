import { githubBodyLimit } from '@svc/domain';

/** Measured in UTF-16 units, never fewer than GitHub's characters, so a body that fits here fits there. */
export const fitsGithub = (body: string): boolean => body.length <= githubBodyLimit;

/**
 * The largest `n` in [0, max] whose rendering fits GitHub, or undefined when even 0 does not: renderings grow
 * with `n`, so a binary search finds it in a few renders however long the run or the digest.
 */
export function largestFitting(max: number, render: (n: number) => string): number | undefined {
  if (!fitsGithub(render(0))) return undefined;
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fitsGithub(render(mid))) low = mid;
    else high = mid - 1;
  }
  return low;
}
