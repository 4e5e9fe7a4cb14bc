import type { Verdict } from '@svc/domain';
import { modelCallDurations } from '@svc/server-kit';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from './clock.ts';
import type { Store } from '../store.ts';

/**
 * `load` once for all the gauges of one scrape: the registry collects them at the same time, and they share one
 * round of queries. Undefined when the database did not answer: the gauges then show no value rather than a stale one.
 */
function oncePerScrape<T>(load: () => Promise<T>): () => Promise<T | undefined> {
  let loading: Promise<T | undefined> | undefined;
  return () =>
    (loading ??= load()
      .catch(() => undefined)
      .finally(() => (loading = undefined)));
}

const secondsSince = (now: number, iso: string | null) => (iso === null ? 0 : Math.max(0, (now - Date.parse(iso)) / 1000));

/**
 * Core's metrics. What the store holds (the outboxes' backlogs, the eval executions waiting) is read when Prometheus
 * scrapes, so every core tells the same truth of the shared database; what this core does (calls answered, reports
 * recorded, leases taken back, model calls) is counted as it happens, and Prometheus adds the cores up.
 */
export function createCoreMetrics(store: Store, clock: Clock) {
  const registry = new Registry();
  const registers = [registry];
  const backlogs = oncePerScrape(async () => {
    const now = clock();
    const [messages, mails, evals] = await Promise.all([
      store.outbox.backlog(),
      store.mails.backlog(),
      store.evalWork.backlog(now.toISOString()),
    ]);
    return { now: now.getTime(), outboxes: { messages, mails }, evals };
  });

  new Gauge({
    name: 'svc_outbox_pending',
    help: 'Codes (outbox="messages") and mails (outbox="mails") queued and not yet sent or given up on',
    labelNames: ['outbox'],
    registers,
    async collect() {
      const read = await backlogs();
      this.reset();
      if (read) for (const [outbox, backlog] of Object.entries(read.outboxes)) this.set({ outbox }, backlog.pending);
    },
  });
  new Gauge({
    name: 'svc_outbox_oldest_pending_age_seconds',
    help: 'How long ago the oldest pending code (outbox="messages") or mail (outbox="mails") was queued; 0 when none is pending',
    labelNames: ['outbox'],
    registers,
    async collect() {
      const read = await backlogs();
      this.reset();
      if (read)
        for (const [outbox, backlog] of Object.entries(read.outboxes)) this.set({ outbox }, secondsSince(read.now, backlog.oldestQueuedAt));
    },
  });
  new Gauge({
    name: 'svc_eval_executions',
    help: 'Case executions of open eval runs: waiting for a runner (state="queued", those of expired leases included) or under a lease that holds (state="leased")',
    labelNames: ['state'],
    registers,
    async collect() {
      const read = await backlogs();
      this.reset();
      if (read) for (const [state, count] of Object.entries(read.evals)) this.set({ state }, count);
    },
  });
  const finished = new Counter({
    name: 'svc_eval_executions_finished_total',
    help: "Case executions whose runner's report this core recorded, by verdict",
    labelNames: ['verdict'],
    registers,
  });
  const leaseExpiries = new Counter({
    name: 'svc_eval_lease_expiries_total',
    help: 'Case executions this core leased again because the lease of the runner that held them had expired',
    registers,
  });
  const calls = new Histogram({
    name: 'svc_core_call_duration_seconds',
    help: "Calls to core's procedures (gateways', runners', the GitHub App's), by procedure and outcome (ok, or the error code answered), and how long they took; long polls wait up to 25 s",
    labelNames: ['procedure', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const { pool } = store;
  if (pool) {
    new Gauge({
      name: 'svc_db_pool_connections',
      help: 'This core\'s PostgreSQL connections: running a query (state="in_use") or open and idle (state="idle")',
      labelNames: ['state'],
      registers,
      collect() {
        const { total, idle } = pool();
        this.set({ state: 'in_use' }, total - idle);
        this.set({ state: 'idle' }, idle);
      },
    });
    new Gauge({
      name: 'svc_db_pool_waiting',
      help: "Queries waiting for one of this core's PostgreSQL connections: every one is in use",
      registers,
      collect() {
        this.set(pool().waiting);
      },
    });
  }

  return {
    registry,
    /** A call answered: `procedure` undefined when there is no such procedure; `outcome` ok, or the error code answered. */
    callAnswered(procedure: string | undefined, outcome: string, seconds: number): void {
      calls.observe({ procedure: procedure ?? 'unknown', outcome }, seconds);
    },
    executionFinished: (verdict: Verdict) => finished.inc({ verdict }),
    leasesReclaimed(count: number): void {
      if (count > 0) leaseExpiries.inc(count);
    },
    /** For the providers of live chats' agent turns. */
    modelCall: modelCallDurations(registry),
  };
}

export type CoreMetrics = ReturnType<typeof createCoreMetrics>;
