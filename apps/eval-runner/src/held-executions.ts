import type { CoreClient } from '@svc/core-client';
import type { Logger } from '@svc/server-kit';
import type { LeasedExecution } from './replay.ts';

/** What a runner holds of core's work, from leasing an execution to reporting it. */
export interface HeldExecutions {
  /** Leased and not yet reported, by execution id. */
  held: Map<string, LeasedExecution>;
  /** Those whose report is under way: core may finish one before a renewal that was sent earlier. */
  reporting: Set<string>;
  /** Leased, waiting for a slot. */
  queue: LeasedExecution[];
}

/** A runner's holdings when it starts: nothing. */
export function heldExecutions(): HeldExecutions {
  return { held: new Map(), reporting: new Set(), queue: [] };
}

/** Keeps a runner's leases alive while it holds them. */
export interface LeaseRenewals {
  /** Renews every third of `leaseMs`, the lease length core last gave; starts renewing on the first call. */
  keepAlive(leaseMs: number): void;
  stop(): void;
}

/**
 * Renews the leases a runner holds every third of their length. One core did not renew is another runner's now: an
 * execution still waiting for a slot is dropped; one being replayed is let go, and its report will be refused.
 */
export function leaseRenewals({ core, log, executions }: { core: CoreClient; log: Logger; executions: HeldExecutions }): LeaseRenewals {
  const { held, reporting, queue } = executions;
  let leaseMs = 60_000;
  let renewTimer: NodeJS.Timeout | undefined;

  async function renew(): Promise<void> {
    const leases = [...held.values()].map((e) => ({ id: e.id, lease_id: e.lease_id }));
    if (leases.length === 0) return;
    try {
      const { renewed } = await core.evalWork.renew.mutate({ leases });
      const kept = new Set(renewed);
      for (const lease of leases) {
        // Not renewed because it was reported meanwhile, or is being reported: the report says how that went.
        if (kept.has(lease.id) || !held.has(lease.id) || reporting.has(lease.id)) continue;
        const waiting = queue.findIndex((e) => e.id === lease.id);
        if (waiting >= 0) queue.splice(waiting, 1); // not started: nothing to do with it any more
        held.delete(lease.id);
        log.warn({ execution: lease.id }, 'lease lost: the case is another runner’s now');
      }
    } catch (error) {
      log.warn({ err: error }, 'could not renew leases; retrying');
    }
  }

  return {
    keepAlive(length) {
      if (length === leaseMs && renewTimer) return;
      leaseMs = length;
      clearInterval(renewTimer);
      renewTimer = setInterval(() => void renew(), Math.max(100, Math.floor(leaseMs / 3)));
    },
    stop() {
      clearInterval(renewTimer);
    },
  };
}
