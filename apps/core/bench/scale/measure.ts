import { readFileSync } from 'node:fs';
import type { BenchDatabase } from './database.ts';
import { multiply, type Size } from './multiply.ts';
import { type RetentionTimes, timeRetention } from './retention-pass.ts';
import { answering, type BenchStore, startCoreProcess, startGatewayProcess } from './stores.ts';
import { type Template, workspace } from './template.ts';

/** The pages and API answers that grew with the workspace's history, each read by a developer or a console user. */
const endpoints = (flaggedChat: string) => {
  const api = `/api/developer/v1/${workspace}`;
  return [
    { name: 'GET …/evals/runs', path: `${api}/evals/runs` },
    { name: 'console /w/:ws/evals', path: `/w/${workspace}/evals`, console: true },
    { name: "console, a flag's chat /w/:ws/chats/:id", path: `/w/${workspace}/chats/${flaggedChat}`, console: true },
    { name: "console, an agent's cases /w/:ws/agents/:agent/evals", path: `/w/${workspace}/agents/support/evals`, console: true },
    { name: 'GET …/flags.md', path: `${api}/flags.md` },
    { name: 'GET …/flags', path: `${api}/flags` },
    { name: 'GET …/evals/cases', path: `${api}/evals/cases` },
  ];
};

export interface Counts {
  verifications: number;
  chats: number;
  openFlags: number;
  cases: number;
  finishedRuns: number;
  executions: number;
}

async function count(db: BenchDatabase): Promise<Counts> {
  return {
    verifications: await db.number('select count(*) from phone_verifications'),
    chats: await db.number('select count(*) from chats where not replay'),
    openFlags: await db.number("select count(*) from flags where status = 'open'"),
    cases: await db.number('select count(*) from eval_cases where deleted_at is null'),
    finishedRuns: await db.number("select count(*) from eval_runs where status = 'finished'"),
    executions: await db.number('select count(*) from eval_executions'),
  };
}

export interface Timing {
  median: number;
  p95: number;
  /** The answer's size, in bytes: what a cost that grows with the answer may grow with. */
  bytes: number;
  /** Answers other than 200, each as its status and error code: their times are counted all the same. */
  failures: string[];
}

export interface SizeMeasures {
  size: Size;
  counts: Counts;
  /** How long the copies took to write. */
  buildMs: number;
  /** From core's spawn until its /healthz answered 200. */
  startMs: number;
  /** Core's resident memory once it answered, and its peak over the measures, in bytes. */
  rss: { started: number; peak: number };
  endpoints: Map<string, Timing>;
  retention: RetentionTimes;
  /** What core logged while it started, each line's time from its spawn. */
  startLog: string[];
}

/** A process's resident memory now and at its peak, in bytes, from /proc. */
function memory(pid: number | undefined): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => 1024 * Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

const nearestRank = (sorted: number[], share: number) => sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!;

/** Core's log lines (pino's JSON) written before `until`, each as its time from `spawned` (epoch ms) and its message. */
function linesBefore(output: string, spawned: number, until: number): string[] {
  return output.split('\n').flatMap((line) => {
    try {
      const { time, msg } = JSON.parse(line) as { time: number; msg: string };
      return time <= until ? [`+${Math.round(time - spawned)} ms ${msg}`] : [];
    } catch {
      return line.trim() ? [line] : [];
    }
  });
}

/**
 * One size: a copy of the template multiplied, then core and the gateway started on it as built processes, each
 * endpoint read `requests` times in turn (one request of each, round after round, after one round not counted), then
 * core stopped and its retention pass timed on the same database; the copy is dropped after.
 */
export async function measureSize(
  template: BenchStore,
  made: Template,
  size: Size,
  requests: number,
  graphUrl: string,
): Promise<SizeMeasures> {
  const store = await template.copy();
  try {
    const building = performance.now();
    const db = await store.open();
    await multiply(db, size);
    const counts = await count(db);
    await db.close();
    const buildMs = performance.now() - building;

    const execArgv = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
    // A statement's deadline (10 s unless told), a wait for one of the pool's connections (5 s), and the gateway's for a
    // core that answers nothing, not even its pings (3 s; SQLite's statements hold core's one thread), would answer a
    // slow page with a 503: the bench wants its cost.
    const deadlines = { SVC_DATABASE_STATEMENT_TIMEOUT_MS: '600000', SVC_DATABASE_CONNECT_TIMEOUT_MS: '600000' };
    const env = { WHATSAPP_GRAPH_URL: graphUrl, ...deadlines };
    const core = await startCoreProcess(store, env, execArgv);
    const startMs = await answering(core);
    const startLog = linesBefore(core.app.output(), core.spawnedAt, core.spawnedAt + startMs);
    const started = memory(core.app.child.pid).rss;
    const gateway = await startGatewayProcess(core.url, { SVC_CORE_SILENCE_MS: '300000' });
    await answering(gateway);

    const chosen = endpoints(made.flaggedChat);
    const samples = new Map(chosen.map(({ name }) => [name, [] as number[]]));
    const bytes = new Map<string, number>();
    const failures = new Map(chosen.map(({ name }) => [name, [] as string[]]));
    for (let round = 0; round <= requests; round++) {
      for (const { name, path, console } of chosen) {
        const headers: Record<string, string> = console
          ? { cookie: `svc_session=${made.credentials.session}` }
          : { authorization: `Bearer ${made.credentials.token}` };
        const begun = performance.now();
        const response = await fetch(`${gateway.url}${path}`, { headers, redirect: 'manual' });
        const body = await response.arrayBuffer();
        const ms = performance.now() - begun;
        if (response.status !== 200) {
          const text = Buffer.from(body).toString('utf8');
          // The API's error code, or a console page's title.
          const said = /"code":"(\w+)"|<title>([^<]*)<\/title>/.exec(text);
          failures.get(name)!.push(`${response.status} ${said?.[1] ?? said?.[2] ?? text.slice(0, 60)}`);
        } else bytes.set(name, body.byteLength);
        if (round > 0) samples.get(name)!.push(ms);
      }
    }
    const peak = memory(core.app.child.pid).peak;
    await gateway.app.stop();
    await core.app.stop();

    const timings = new Map(
      [...samples].map(([name, times]) => {
        const sorted = times.sort((a, b) => a - b);
        const timing = { median: nearestRank(sorted, 0.5), p95: nearestRank(sorted, 0.95), bytes: bytes.get(name) ?? 0 };
        return [name, { ...timing, failures: failures.get(name)! }];
      }),
    );
    const retention = await timeRetention(store);
    return { size, counts, buildMs, startMs, rss: { started, peak }, endpoints: timings, retention, startLog };
  } finally {
    await store.drop();
  }
}
