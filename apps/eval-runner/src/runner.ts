import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EgressRules, ProviderSettings } from '@svc/agent-runtime';
import { connectCoreOverHttp } from '@svc/core-client';
import { type Logger, modelCallDurations, newRequestId, runCoreLoop, withRequestId } from '@svc/server-kit';
import { Registry } from 'prom-client';
import { executionReporter } from './execution-reports.ts';
import { heldExecutions, leaseRenewals } from './held-executions.ts';
import { createReplayer, type ExecutionReport } from './replay.ts';

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

  const stopping = new AbortController();
  const executions = heldExecutions();
  const { held, queue } = executions;
  const renewals = leaseRenewals({ core, log, executions });
  const report = executionReporter({ core, log, pollMs, executions });
  const working = new Set<Promise<void>>();
  let replaying = 0;
  let wakeLoop: () => void = () => {};

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

  async function leaseMore(): Promise<void> {
    const inHand = replaying + queue.length;
    if (inHand > concurrency + ahead / 2) {
      await new Promise<void>((resolve) => (wakeLoop = resolve));
      return;
    }
    const wanted = Math.min(maxLease, concurrency + ahead - inHand);
    const lease = await poll.evalWork.lease.mutate({ runner: name, max: wanted, wait_ms: longPollMs }, { signal: stopping.signal });
    renewals.keepAlive(lease.lease_ms);
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
      await settledWithin(working, stopGraceMs);
      if (held.size > 0) log.warn({ executions: held.size }, 'stopped with cases in flight; their leases will expire');
      renewals.stop();
    },
  };
}

/** Waits for the work under way, and for work it starts meanwhile, to settle, or for `graceMs` to pass. */
async function settledWithin(working: Set<Promise<void>>, graceMs: number): Promise<void> {
  const drained = (async () => {
    while (working.size > 0) await Promise.race(working);
  })();
  const timeout = sleep(graceMs, undefined, { ref: false });
  await Promise.race([drained, timeout]);
}
