/** How retries of one kind wait: twice as long at each attempt, up to a cap, drawn at random around that. */
export interface Backoff {
  /** The wait before the first retry. */
  baseMs: number;
  /** The longest wait before jitter: the wait doubles from `baseMs` up to this. */
  maxMs: number;
  /**
   * The range the wait is multiplied by, drawn uniformly: `[0, 1]` (the default, full jitter) spreads the most the
   * retries of callers that failed together; `[0.8, 1.2]` keeps each near its schedule; `[1, 1]` draws nothing.
   */
  jitter?: readonly [low: number, high: number];
}

/** The wait, in whole milliseconds, before retry `attempt` (1 for the first; less counts as the first). */
export function backoffMs(attempt: number, { baseMs, maxMs, jitter = [0, 1] }: Backoff): number {
  // Thirty doublings take any base past any cap; the bound keeps the power finite however many attempts failed.
  const doublings = Math.min(Math.max(attempt - 1, 0), 30);
  const wait = Math.min(baseMs * 2 ** doublings, maxMs);
  const [low, high] = jitter;
  return Math.round(wait * (low + (high - low) * Math.random()));
}
