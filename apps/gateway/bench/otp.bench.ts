/**
 * `pnpm bench`: create and verify throughput and p99 latency through the gateway (cores and gateways as their own
 * processes in production mode, delivering every code to a fake WhatsApp Cloud API), each printed as a ratio of a
 * bare express JSON POST handler measured in the same run on the same machine. Three deployments are measured:
 * one core on SQLite, one core on PostgreSQL, and two cores on one PostgreSQL database behind one gateway whose
 * CORE_URLS lists both (the machine's server at 127.0.0.1:5432, SVC_TEST_POSTGRES_URL; a database of its own is
 * made for each and dropped at the end). Each deployment's creates are measured on one workspace, and spread over 20
 * workspaces, where no workspace's creates wait on another's.
 *
 * The apps run as deployed: their built `dist/main.js` under plain node (the bench builds them first).
 *
 * The measures run in interleaved rounds and the medians are printed. A round runs the baseline, then one measure on
 * every deployment back to back (in reverse order every other round), then the baseline again before the next
 * measure, and so on; each measure's ratio is over the mean of the baselines run just before and after its group, so
 * a machine that slows down or speeds up during the run moves the baseline with the measures. Two cores are compared
 * with one core round by round, each pair run back to back.
 * Each measure starts after a second of the same load, not counted, so that no process starts it cold after idling
 * through the others. Each row also shows the CPU time the serving processes spent per request (from /proc), which
 * says where a request's cost lies even when the machine's speed drifts, the CPU time this process spent per request
 * (autocannon, and the fake Graph API), and how busy the machine's CPUs were: a measure whose processes share a busy
 * machine is bounded by the CPU time of all of them, one on an idle part of it by how they wait. A measure ends once
 * every code its creates queued has reached the fake Graph API: its row's CPU time holds the sending of its codes,
 * and the next measure does not run beside the sends of the one before. How long that took after the last answer is
 * printed too: codes sent that late were sent after the measure's seconds, so its req/s did not pay for them.
 */
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
// Processes only: the platform's test hooks need vitest, which the bench does not run under.
import { type SharedStore, startProcesses } from '@svc/test-platform/processes';
import {
  createPostgresDatabase,
  dropPostgresDatabases,
  type FakeProvider,
  graphAccepted,
  freePort,
  machineShares,
  machineTicks,
  processCpuMs,
  removeTempDirs,
  startApp,
  startFakeProvider,
  stopProcesses,
  tempDir,
  waitUntilAnswering,
} from '@svc/testkit';
import autocannon from 'autocannon';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/** Only the deployments whose name holds this text (`SQLite`, `2 cores`), the baseline always. */
const only = process.env.BENCH_ONLY ?? '';
/** A folder for the V8 CPU profiles of every core and gateway, written as they stop (`.cpuprofile`, for DevTools). */
const profileDir = process.env.BENCH_PROFILE;
/** The workspaces the spread create rows take turns over. */
const spreadOver = 20;
/** How long a measure waits, once its requests are done, for the codes its creates queued to be sent. */
const sendTimeoutMs = 120_000;

interface Measure {
  name: string;
  options: autocannon.Options;
  expected: number;
  /** The processes that serve it, whose CPU time per request is reported. */
  servers: ChildProcess[];
}

interface Round {
  rps: number;
  p99: number;
  errors: number;
  cpu: number[];
  /** CPU time this process (autocannon and the fake Graph API) spent per request, in microseconds. */
  benchCpu: number;
  /** The share of the machine's CPU time that was busy, by any process, while the measure ran. */
  busy: number;
  /** The share of it a hypervisor gave other machines: the measure ran on a slower machine for that long. */
  stolen: number;
  /** How long after the measure's last answer its last code reached the fake Graph API. */
  lastCodeMs: number;
}

/** The number the next create sends a code to, counted across every measure. */
let next = 0;
/** Creates answered 201, each of which queued one code. */
let created = 0;
/** Waits until the fake Graph API has the code of every create answered. */
async function codesSent(graph: FakeProvider): Promise<void> {
  const deadline = Date.now() + sendTimeoutMs;
  while (graph.received < created) {
    if (Date.now() > deadline) throw new Error(`${created - graph.received} codes still unsent ${sendTimeoutMs} ms after their measure`);
    await sleep(20);
  }
}

/**
 * Seconds of load before each measure, not counted. A deployment idles through the other deployments' measures, and
 * V8 shrinks an idle process's heap: without this, the first measure after the idle paid about a quarter more of the
 * gateway's CPU per request than the same measure run right after another.
 */
const warmUpSeconds = 1;

async function run(measure: Measure, duration: number, graph: FakeProvider): Promise<Round> {
  await autocannon({ ...measure.options, connections, duration: warmUpSeconds });
  await codesSent(graph);
  const before = measure.servers.map((server) => processCpuMs(server.pid));
  const [benchBefore, machineBefore] = [process.cpuUsage(), machineTicks()];
  const result = await autocannon({ ...measure.options, connections, duration });
  const answered = Date.now();
  await codesSent(graph);
  const lastCodeMs = Date.now() - answered;
  const requests = Math.max(1, result.requests.total);
  const cpu = measure.servers.map((server, i) => (1000 * (processCpuMs(server.pid) - before[i]!)) / requests);
  const bench = process.cpuUsage(benchBefore);
  const { busy, stolen } = machineShares(machineBefore);
  const byStatus: Record<string, { count?: number }> = result.statusCodeStats ?? {};
  const unexpected = Object.entries(byStatus)
    .filter(([status]) => Number(status) !== measure.expected)
    .reduce((sum, [, stats]) => sum + (stats.count ?? 0), 0);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: unexpected + result.errors + result.timeouts,
    cpu,
    benchCpu: (bench.user + bench.system) / requests,
    busy,
    stolen,
    lastCodeMs,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Deployment {
  name: string;
  store: () => Promise<SharedStore>;
  cores: number;
}

const deployments: Deployment[] = [
  { name: 'SQLite, 1 core', store: async () => ({ dataDir: tempDir('svc-bench-') }), cores: 1 },
  { name: 'PostgreSQL, 1 core', store: async () => ({ databaseUrl: await createPostgresDatabase() }), cores: 1 },
  { name: 'PostgreSQL, 2 cores', store: async () => ({ databaseUrl: await createPostgresDatabase() }), cores: 2 },
];

/** One deployment's create and verify measures, on a workspace `bench` whose sender is the fake Graph API. */
async function deploymentMeasures({ name, store, cores }: Deployment, graphUrl: string): Promise<Measure[]> {
  const processes = await startProcesses({
    store: await store(),
    cores,
    gateways: 1,
    coreEnv: () => ({ SVC_OTP_WORKSPACE_HOURLY_LIMIT: '100000000', WHATSAPP_GRAPH_URL: graphUrl }),
    stdio: 'inherit-stderr',
    built: true,
    execArgv: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  const url = processes.gateways[0]!.url;
  const servers = [...processes.gateways, ...processes.cores].map(({ app }) => app.child);
  const headers = { authorization: `Bearer ${processes.token}`, 'content-type': 'application/json' };
  const setUp = async (path: string, method: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, { method, headers, body: JSON.stringify(body) });
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  };
  // Workspace `bench` takes the single-workspace rows; the spread rows take turns over it and 19 more.
  const slugs = ['bench', ...Array.from({ length: spreadOver - 1 }, (_, i) => `bench-${i + 1}`)];
  for (const slug of slugs) {
    await setUp('/cli/workspaces', 'POST', { slug });
    await setUp(`/api/developer/v1/${slug}/sender`, 'PUT', {
      kind: 'whatsapp_cloud',
      phone_number_id: '1234567890',
      access_token: 'bench',
      template: 'otp_code',
    });
  }
  let turn = 0;
  // The verifications the creates made, each with its workspace: the verify measure takes them in turn.
  const made: { slug: string; id: string }[] = [];
  const creates = (workspaces: string[]): autocannon.Options => ({
    url,
    method: 'POST',
    headers,
    requests: [
      {
        // A connection sends its next request once the last one is answered: its context holds the workspace.
        setupRequest: (req, context: { slug?: string }) => {
          const n = next++;
          context.slug = workspaces[n % workspaces.length]!;
          return {
            ...req,
            path: `/api/v1/${context.slug}/phone_verifications`,
            body: JSON.stringify({ phone_number: `+569${String(10_000_000 + n)}` }),
          };
        },
        onResponse: (status, body, context: { slug?: string }) => {
          if (status !== 201) return;
          const { verification_id: id } = JSON.parse(body) as { verification_id: string };
          made.push({ slug: context.slug!, id });
          created++;
        },
      },
    ],
  });
  return [
    { name: `create verification (${name})`, options: creates(['bench']), expected: 201, servers },
    { name: `create, ${spreadOver} workspaces (${name})`, options: creates(slugs), expected: 201, servers },
    {
      // Each verification gets four wrong codes in a row: one fewer than the five that block it.
      name: `verify, wrong code: 422 (${name})`,
      options: {
        url,
        method: 'POST',
        headers,
        requests: [
          {
            setupRequest: (req) => {
              const { slug, id } = made[Math.floor(turn++ / 4) % made.length]!;
              return { ...req, path: `/api/v1/${slug}/phone_verifications/${id}/verify`, body: '{"code":"0000000"}' };
            },
          },
        ],
      },
      expected: 422,
      servers,
    },
  ];
}

async function main(): Promise<void> {
  const graph = await startFakeProvider(graphAccepted, { keep: false });
  const baselinePort = await freePort();
  const baselineServer = startApp(fileURLToPath(new URL('./baseline-server.ts', import.meta.url)), { BASELINE_PORT: String(baselinePort) });
  await waitUntilAnswering(`http://127.0.0.1:${baselinePort}/echo`, { method: 'POST' });
  const measures: Measure[] = [
    {
      name: 'baseline: express JSON POST',
      options: {
        url: `http://127.0.0.1:${baselinePort}/echo`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ phone_number: '+56912345678' }),
      },
      expected: 201,
      servers: [baselineServer.child],
    },
  ];
  const chosen = deployments.filter(({ name }) => name.includes(only));
  const byDeployment: Measure[][] = [];
  for (const deployment of chosen) byDeployment.push(await deploymentMeasures(deployment, graph.url));
  measures.push(...byDeployment.flat());

  // Each round runs the baseline, then one measure on every deployment back to back (create on each), then the
  // baseline again and the next measure on each, and so on; one more baseline ends the run. A measure's ratio is over
  // the mean of the baselines just before and just after its group, run seconds from it: the machine's speed moves
  // during a round, and the rows compared across deployments ran moments apart.
  const kinds = byDeployment[0]!.length;
  /** Where a deployment's measure of a kind (create, spread create, verify) is in `measures`, after the baseline. */
  const measureIndex = (deployment: number, kind: number) => 1 + deployment * kinds + kind;
  const groups = Array.from({ length: kinds }, (_, kind) => byDeployment.map((_, d) => measureIndex(d, kind)));
  for (const i of [0, ...groups.flat()]) await run(measures[i]!, 2, graph); // warm-up
  const results = measures.map((): Round[] => []);
  /** For each measure's round, the baseline run just before its group (its index in `results[0]`). */
  const before = measures.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const group of groups) {
      results[0]!.push(await run(measures[0]!, seconds, graph));
      // Every other round takes the deployments in reverse: whatever one measure leaves running (its database's
      // background writes after thousands of inserts, say) falls on the next, and a fixed order would always charge it
      // to the same deployment.
      for (const i of round % 2 === 0 ? group : group.toReversed()) {
        results[i]!.push(await run(measures[i]!, seconds, graph));
        before[i]!.push(results[0]!.length - 1);
      }
    }
  }
  results[0]!.push(await run(measures[0]!, seconds, graph));
  const baselines = results[0]!;
  const ratiosOf = (i: number) =>
    i === 0
      ? baselines.map(() => 1)
      : results[i]!.map((r, k) => r.rps / ((baselines[before[i]![k]!]!.rps + baselines[before[i]![k]! + 1]!.rps) / 2));

  const width = Math.max(...measures.map((measure) => measure.name.length));
  const rows = measures.map((measure, i) => {
    const measured = results[i]!;
    const ratios = ratiosOf(i);
    const cpu = measure.servers.map((_, s) => Math.round(median(measured.map((r) => r.cpu[s]!))));
    return [
      measure.name.padEnd(width),
      Math.round(median(measured.map((r) => r.rps)))
        .toLocaleString('en')
        .padStart(8),
      String(median(measured.map((r) => r.p99))).padStart(7),
      median(ratios).toFixed(2).padStart(6),
      String(measured.reduce((sum, r) => sum + r.errors, 0)).padStart(7),
      String(median(measured.map((r) => r.lastCodeMs))).padStart(10),
      `${cpu.reduce((a, b) => a + b, 0)}${cpu.length > 1 ? ` (${cpu.join(' + ')})` : ''}`.padEnd(20),
      String(Math.round(median(measured.map((r) => r.benchCpu)))).padStart(12),
      `${Math.round(100 * median(measured.map((r) => r.busy)))} %`.padStart(8),
      (i === 0 ? '' : ratios.map((ratio) => ratio.toFixed(2)).join(' ')).padEnd(rounds * 5),
      measured.map((r) => `${Math.round(100 * r.stolen)} %`).join(' '),
    ];
  });
  // Two cores against one, round by round: each round's pair ran one right after the other.
  const oneCore = chosen.findIndex(({ name }) => name === 'PostgreSQL, 1 core');
  const twoCores = chosen.findIndex(({ name }) => name === 'PostgreSQL, 2 cores');
  const coreRows =
    oneCore < 0 || twoCores < 0
      ? []
      : byDeployment[twoCores]!.map((measure, kind) => {
          const [one, two] = [oneCore, twoCores].map((d) => results[measureIndex(d, kind)]!);
          const ratios = two!.map((r, k) => r.rps / one![k]!.rps);
          return `${measure.name.replace(' (PostgreSQL, 2 cores)', '')}: ${median(ratios).toFixed(2)}   [rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}]`;
        });
  process.stdout.write(
    `\nphone verification through the gateway: ${connections} connections, ${rounds} interleaved rounds of ${seconds} s, medians\n` +
      `${'measure'.padEnd(width)}  ${'req/s'.padStart(8)}  ${'p99 ms'.padStart(7)}  ${'ratio'.padStart(6)}  ${'errors'.padStart(7)}  ${'codes +ms'.padStart(10)}  ${'server CPU µs/req'.padEnd(20)}  ${'bench µs/req'.padStart(12)}  ${'box busy'.padStart(8)}  ${'ratio by round'.padEnd(rounds * 5)}  stolen by round\n` +
      `${rows.map((r) => r.join('  ')).join('\n')}\n` +
      `(ratio: req/s over the mean of the baselines run just before and after its group of measures, the median of the rounds'; server CPU: gateway + cores; bench: this process's CPU (autocannon, and the fake Graph API the codes go to); box busy: the share of the machine's ${availableParallelism()} CPUs in use by any process; stolen: the share of them a hypervisor gave other machines meanwhile (a round with much stolen ran on a slower machine than the baseline's); codes +ms: how long after the last answer the last code was sent; verifications created: ${created} answered, more under way when each measure stopped; codes sent to the fake Graph API: ${graph.received})\n` +
      (coreRows.length
        ? `\ntwo cores over one core (PostgreSQL), req/s, each round's pair run back to back, median\n${coreRows.map((row) => `  ${row}\n`).join('')}`
        : ''),
  );
  await graph.close();
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopProcesses();
    await dropPostgresDatabases();
    removeTempDirs();
  });
