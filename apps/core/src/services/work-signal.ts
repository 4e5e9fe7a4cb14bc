/** Wakes the callers waiting for work (runners long-polling for leases) when some may have appeared. */
export class WorkSignal {
  private waiters = new Set<() => void>();
  private closedAt: number | undefined;

  /** Whether core is stopping: nobody should wait for work any more. */
  get closed(): boolean {
    return this.closedAt !== undefined;
  }

  /** Resolves at the next `notify`, or after `ms` at the latest; at once when closed. */
  wait(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiters.add(done);
    });
  }

  notify(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Core is stopping: every waiter answers now, so its server can close without waiting out a long poll. */
  close(): void {
    this.closedAt = Date.now();
    this.notify();
  }
}
