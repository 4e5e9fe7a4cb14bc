import RE2 from 're2';

/**
 * A scripted rule's `when`, compiled for RE2: matching takes time linear in the text whatever the pattern, so a
 * customer's pattern cannot stall the process that runs it. The price is RE2's syntax: no lookarounds and no
 * backreferences.
 */
export const compileWhen = (pattern: string): RE2 => new RE2(pattern, 'i');

/** Why a `when` cannot run, or undefined when it can. */
export function whenProblem(pattern: string): string | undefined {
  try {
    compileWhen(pattern);
    return undefined;
  } catch (error) {
    return `not a regular expression this platform runs (${(error as Error).message}); lookarounds and backreferences are not supported, so that matching stays linear in time`;
  }
}
