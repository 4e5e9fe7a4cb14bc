import { ProbotOctokit } from 'probot';

/** How many times one request is retried after GitHub said to slow down, each after the wait it named. */
const rateLimitRetries = 3;
/** A wait longer than this fails the request instead: a pull request's comment or the next event should not stall for it. */
const longestWaitS = 15 * 60;

type Throttle = NonNullable<ConstructorParameters<typeof ProbotOctokit>[0]>['throttle'];

/**
 * Octokit as the app uses it: GitHub's 403 and 429 rate-limit answers (primary and secondary) are retried after
 * the time they name (`Retry-After`, `x-ratelimit-reset`), by Octokit's throttling plugin; other failures by its
 * retry plugin. `pacing` replaces the plugin's spacing of writes (tests that need no second between writes).
 */
export function githubOctokit(pacing: Partial<NonNullable<Throttle>> = {}): typeof ProbotOctokit {
  const onLimit =
    (kind: string) =>
    (
      retryAfter: number,
      options: { method: string; url: string },
      octokit: { log: { warn(o: object, m: string): void } },
      retryCount: number,
    ) => {
      const retry = retryCount < rateLimitRetries && retryAfter <= longestWaitS;
      octokit.log.warn(
        { method: options.method, url: options.url, retry_after_s: retryAfter, attempt: retryCount + 1 },
        retry ? `GitHub ${kind} rate limit: retrying after the time it named` : `GitHub ${kind} rate limit: giving up`,
      );
      return retry;
    };
  // A function, not an object: Probot passes throttle options of its own to every instance, and these must win.
  return ProbotOctokit.defaults((options: { throttle?: Throttle }) => ({
    ...options,
    throttle: { ...options.throttle, onRateLimit: onLimit('primary'), onSecondaryRateLimit: onLimit('secondary'), ...pacing },
  }));
}
