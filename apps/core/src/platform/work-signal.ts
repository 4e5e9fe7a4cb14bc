/** While a caller waits for work, core looks again this often: leases and claims of callers that died expire meanwhile. */
const recheckMs = 1000;

/** Wakes the callers waiting for work (runners and the GitHub App, long-polling) when some may have appeared. */
export class WorkSignal {
  private waiters = new Set<() => void>();
  private stopping = false;
  private notified = 0;

  /** How many times it was notified: a reader that compares it before and after a read knows whether it missed one. */
  get generation(): number {
    return this.notified;
  }

  /** Whether core is stopping: nobody should wait for work any more. */
  get closed(): boolean {
    return this.stopping;
  }

  /** Resolves at the next `notify`, after `ms`, or when `abort` fires, whichever comes first; at once when closed. */
  wait(ms: number, abort?: AbortSignal): Promise<void> {
    if (this.stopping || abort?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        abort?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      abort?.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  notify(): void {
    this.notified++;
    for (const wake of [...this.waiters]) wake();
  }

  /** Core is stopping: every waiter answers now, so its server can close without waiting out a long poll. */
  close(): void {
    this.stopping = true;
    this.notify();
  }

  /**
   * A long poll: takes work with `take` as soon as there is some, or answers nothing once `waitMs` has passed, core
   * stops, or the caller has hung up (`abort`), so that nothing is taken for a caller no longer there to get it.
   */
  async poll<T>(waitMs: number, abort: AbortSignal | undefined, take: () => Promise<T[]>): Promise<T[]> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (abort?.aborted) return [];
      const taken = await take();
      const remaining = deadline - Date.now();
      if (taken.length > 0 || remaining <= 0 || this.stopping) return taken;
      await this.wait(Math.min(remaining, recheckMs), abort);
    }
  }
}
