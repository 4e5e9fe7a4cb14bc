/** How long GitHub may take to answer one request unless told (GITHUB_TIMEOUT_MS). */
export const defaultGithubTimeoutMs = 10_000;

/**
 * fetch with a deadline on each request to GitHub, from sending it to the answer's last byte (read here, so a
 * stalled body fails too): a GitHub that takes the request and says nothing fails it with "no answer from GitHub
 * within … ms", as a 500. The webhook or the event it served fails, and the event is tried again later.
 */
export function fetchWithDeadline(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      const response = await fetch(input, { ...init, signal });
      const body = await response.arrayBuffer();
      const answer = new Response(body.byteLength > 0 ? body : null, response);
      // Octokit reports the URL that answered; a Response built here has none of its own.
      Object.defineProperty(answer, 'url', { value: response.url });
      return answer;
    } catch (error) {
      if (!deadline.aborted) throw error;
      // Named as an aborted request is, which Octokit passes on without retrying it: GitHub may have applied a write
      // it did not answer, and the event's next attempt reads GitHub's state again before it writes.
      const late = new Error(`no answer from GitHub within ${timeoutMs} ms`, { cause: error });
      late.name = 'AbortError';
      throw late;
    }
  };
}
