import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EgressRules, ProviderSettings } from '@svc/agent-runtime';
import { connectCoreOverHttp } from '@svc/core-client';
import { backoffMs, type Logger, modelCallDurations, newRequestId, runCoreLoop, withRequestId } from '@svc/server-kit';
import { Registry } from 'prom-client';
import { createReplayer, type ExecutionReport, type LeasedExecution } from './replay.ts';

export interface RunnerOptions {
  /** The cores to work for: the runner moves to the next when the one it calls cannot be reached. */
  coreUrls: string[];
  /** How long to wait before asking core again after it did not answer. */
  pollMs: number;
  /** Core's SVC_SECRET_KEY: core answers only calls with the internal token derived from it. */
  secretKey: Buffer;
  log: Logger;
  /** Executions replayed at once (EVAL_CONCURRENCY). */
  concurrency?: number;
  providers?: ProviderSettings;
  /** Where the agents' tools may connect. */
  egress?: EgressRules;
  /** How long a stop waits for the executions in flight before abandoning them to their leases' expiry. */
  stopGraceMs?: number;
}

export interface Runner {
  /** Resolves once core has answered for the first time. */
  connected: Promise<void>;
  /** The runner's metrics: its agents' and judges' model calls. */
  registry: Registry;
  /** Leases nothing more, finishes what it holds (within the grace), then resolves. */
  stop(): Promise<void>;
}

/** How long a lease request waits for work when there is none. */
const longPollMs = 25_000;
/** The most executions one lease request may ask for. */
const maxLease = 64;
/** Tries of a report before the case is left to its lease's expiry. */
const reportAttempts = 5;

/**
 * The eval runner: stateless, any number of them. It long-polls core for case executions, keeping every slot busy
 * and some executions leased ahead so that a slot that frees never waits for core; replays each, renews the
 * leases it holds every third of their length, and reports each result with its lease. Whatever it holds when it
 * dies is leased again by another runner once its lease expires, and core refuses a report on a lost lease.
 */
export function startRunner({
  coreUrls,
  pollMs,
  secretKey,
  log,
  concurrency = 8,
  providers = {},
  egress = { allowPrivateNetworks: false, platformPorts: new Set(coreUrls.map((url) => Number(new URL(url).port))) },
  stopGraceMs = 10_000,
}: RunnerOptions): Runner {
  // Long polls (`poll`) on connections of their own, closed on stop: a poll left waiting never holds core's shutdown up.
  const { core, poll, current, close } = connectCoreOverHttp(coreUrls, secretKey);
  const name = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const registry = new Registry();
  const replayer = createReplayer({
    bundle: async (workspaceId, versionId) =>
      (await core.evalWork.bundle.query({ workspace_id: workspaceId, version_id: versionId })).files,
    providers: { ...providers, onModelCall: modelCallDurations(registry) },
    egress,
  });
  /**
   * Executions leased ahead of the slots: a slot that frees starts the next at once. The runner asks again only once
   * half of them are gone, for several at a time, so core answers one lease request per few cases, not per case.
   */
  const ahead = Math.max(8, Math.ceil(concurrency / 4));

  /**
   * A report that failed is tried again after a second (`pollMs` if shorter), twice as long at each try: about 15 s
   * in all, enough to ride out a core's restart; spread ±20 % so the runners a restart failed together spread out.
   */
  const reportBackoff = { baseMs: Math.min(pollMs, 1000), maxMs: 8_000, jitter: [0.8, 1.2] } as const;
  const stopping = new AbortController();
  /** Leased and not yet reported, by execution id. */
  const held = new Map<string, LeasedExecution>();
  /** Those whose report is under way: core may finish one before a renewal that was sent earlier. */
  const reporting = new Set<string>();
  /** Leased, waiting for a slot. */
  const queue: LeasedExecution[] = [];
  const working = new Set<Promise<void>>();
  let replaying = 0;
  let leaseMs = 60_000;
  let renewTimer: NodeJS.Timeout | undefined;
  let wakeLoop: () => void = () => {};

  async function report(result: ExecutionReport, execution: LeasedExecution): Promise<void> {
    reporting.add(execution.id);
    try {
      await reportOnce(result, execution);
    } finally {
      // In one step: a renewal's answer coming in between would find it held and not reporting.
      held.delete(execution.id);
      reporting.delete(execution.id);
    }
  }

  /** Sends the report, again on failures while the lease is held; says whether core took it or another runner will. */
  async function reportOnce(result: ExecutionReport, execution: LeasedExecution): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { accepted } = await core.evalWork.report.mutate(result);
        if (accepted)
          log.info(
            { run: execution.run_id, case: execution.case_id, attempt: execution.attempt, verdict: result.verdict },
            'case finished',
          );
        else
          log.warn({ run: execution.run_id, case: execution.case_id }, 'case finished after its lease was lost; another runner reports it');
        return;
      } catch (error) {
        if (attempt >= reportAttempts) throw error;
        await sleep(backoffMs(attempt, reportBackoff));
      }
    }
  }

  function pump(): void {
    while (replaying < concurrency && queue.length > 0) {
      const execution = queue.shift()!;
      replaying++;
      const freeSlot = () => {
        replaying--;
        pump();
        wakeLoop();
      };
      // One request id for all an execution takes: its replay, the bundle it fetches and its report.
      const work = withRequestId(newRequestId(), async () => {
        try {
          let result: ExecutionReport;
          try {
            result = await replayer.replay(execution);
          } finally {
            freeSlot(); // the slot takes the next case while this one reports
          }
          await report(result, execution);
        } catch (error) {
          log.error({ err: error, run: execution.run_id, case: execution.case_id }, 'could not finish a case; its lease will expire');
        } finally {
          held.delete(execution.id);
        }
      });
      working.add(work);
      void work.finally(() => working.delete(work));
    }
  }

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

  function scheduleRenewals(): void {
    clearInterval(renewTimer);
    renewTimer = setInterval(() => void renew(), Math.max(100, Math.floor(leaseMs / 3)));
  }

  async function leaseMore(): Promise<void> {
    const inHand = replaying + queue.length;
    if (inHand > concurrency + ahead / 2) {
      await new Promise<void>((resolve) => (wakeLoop = resolve));
      return;
    }
    const wanted = Math.min(maxLease, concurrency + ahead - inHand);
    const lease = await poll.evalWork.lease.mutate({ runner: name, max: wanted, wait_ms: longPollMs }, { signal: stopping.signal });
    if (lease.lease_ms !== leaseMs || !renewTimer) {
      leaseMs = lease.lease_ms;
      scheduleRenewals();
    }
    for (const execution of lease.executions) {
      held.set(execution.id, execution);
      queue.push(execution);
    }
    pump();
  }

  const { connected, done: loop } = runCoreLoop({
    log,
    pollMs,
    signal: stopping.signal,
    messages: {
      connected: 'eval runner connected to core',
      refused: "core refused the runner: its SVC_SECRET_KEY is not core's; retrying",
    },
    context: () => ({ core: current(), runner: name, concurrency }),
    ping: () => core.health.ping.query(undefined, { signal: stopping.signal }),
    work: leaseMore,
  });

  return {
    connected,
    registry,
    async stop() {
      stopping.abort();
      wakeLoop();
      await loop;
      await close();
      // What is leased and waiting is replayed too, within the grace; past it, the leases expire and another runner takes over.
      const drained = (async () => {
        while (working.size > 0) await Promise.race(working);
      })();
      const timeout = sleep(stopGraceMs, undefined, { ref: false });
      await Promise.race([drained, timeout]);
      if (held.size > 0) log.warn({ executions: held.size }, 'stopped with cases in flight; their leases will expire');
      clearInterval(renewTimer);
    },
  };
}
