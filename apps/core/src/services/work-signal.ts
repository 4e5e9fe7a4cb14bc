/** Wakes the callers waiting for work (runners long-polling for leases) when some may have appeared. */
export class WorkSignal {
  private waiters = new Set<() => void>();

  /** Resolves at the next `notify`, or after `ms` at the latest. */
  wait(ms: number): Promise<void> {
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
}
