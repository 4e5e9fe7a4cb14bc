/**
 * `pnpm bench`: create and verify throughput and p99 latency through the gateway (core and gateway as
 * their own processes, on SQLite, delivering every code to a fake WhatsApp Cloud API), each printed as a
 * ratio of a bare express JSON POST handler measured in the same run on the same machine.
 *
 * The three measures run in interleaved rounds (baseline, create, verify, baseline, ...) and the medians are
 * printed, so a machine that slows down or speeds up during the run moves the baseline with the measures.
 * Each row also shows the CPU time the serving processes spent per request (from /proc), which says where a
 * request's cost lies even when the machine's speed drifts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, graphAccepted, startFakeProvider, tempDir } from '@svc/testkit';
import autocannon from 'autocannon';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const tsx = import.meta.resolve('tsx');
const apps = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];

function start(entry: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', tsx, entry, ...args], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

async function healthy(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url, { method: url.endsWith('/echo') ? 'POST' : 'GET' })).status < 500) return;
    } catch {
      // starting
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not start`);
}

/** CPU time (user + system) a process has used, in microseconds; 0 where /proc is missing. */
function cpuMicros(pid: number | undefined): number {
  const stat = `/proc/${pid}/stat`;
  if (!pid || !existsSync(stat)) return 0;
  const fields = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100; // clock ticks are 1/100 s on Linux
}

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
}

async function run(measure: Measure, duration: number): Promise<Round> {
  const before = measure.servers.map((server) => cpuMicros(server.pid));
  const result = await autocannon({ ...measure.options, connections, duration });
  const cpu = measure.servers.map((server, i) => (cpuMicros(server.pid) - before[i]!) / Math.max(1, result.requests.total));
  const byStatus: Record<string, { count?: number }> = result.statusCodeStats ?? {};
  const unexpected = Object.entries(byStatus)
    .filter(([status]) => Number(status) !== measure.expected)
    .reduce((sum, [, stats]) => sum + (stats.count ?? 0), 0);
  return { rps: result.requests.average, p99: result.latency.p99, errors: unexpected + result.errors + result.timeouts, cpu };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dataDir = tempDir('svc-bench-');

async function main(): Promise<void> {
  const graph = await startFakeProvider(graphAccepted, { keep: false });
  const [port, corePort, baselinePort] = [await freePort(), await freePort(), await freePort()];
  const env = {
    PORT: String(port),
    CORE_PORT: String(corePort),
    SVC_DATA_DIR: dataDir,
    SVC_LOCAL_MODE: '1',
    SVC_SECRET_KEY: randomBytes(32).toString('base64'),
    SVC_OTP_WORKSPACE_HOURLY_LIMIT: '100000000',
    WHATSAPP_GRAPH_URL: graph.url,
  };
  const core = start(join(apps, 'core/src/main.ts'), [], env);
  await healthy(`http://127.0.0.1:${corePort}/healthz`);
  const gateway = start(join(apps, 'gateway/src/main.ts'), [], env);
  const baselineServer = start(fileURLToPath(new URL('./baseline-server.ts', import.meta.url)), [String(baselinePort)], {});
  await healthy(`http://127.0.0.1:${port}/healthz`);
  await healthy(`http://127.0.0.1:${baselinePort}/echo`);

  const token = readFileSync(join(dataDir, 'dev-token'), 'utf8').trim();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const url = `http://127.0.0.1:${port}`;
  await fetch(`${url}/api/developer/v1/demo/sender`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ kind: 'whatsapp_cloud', phone_number_id: '1234567890', access_token: 'bench', template: 'otp_code' }),
  });

  let next = 0;
  let turn = 0;
  const ids: string[] = [];
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
      servers: [baselineServer],
    },
    {
      name: 'create verification',
      options: {
        url: `${url}/api/v1/demo/phone_verifications`,
        method: 'POST',
        headers,
        requests: [
          {
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ phone_number: `+569${String(10_000_000 + next++)}` }) }),
            onResponse: (status, body) => {
              if (status === 201) ids.push((JSON.parse(body) as { verification_id: string }).verification_id);
            },
          },
        ],
      },
      expected: 201,
      servers: [gateway, core],
    },
    {
      // Each verification gets four wrong codes in a row: one fewer than the five that block it.
      name: 'verify (wrong code: 422)',
      options: {
        url,
        method: 'POST',
        headers,
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              path: `/api/v1/demo/phone_verifications/${ids[Math.floor(turn++ / 4) % ids.length]}/verify`,
              body: '{"code":"0000000"}',
            }),
          },
        ],
      },
      expected: 422,
      servers: [gateway, core],
    },
  ];

  for (const measure of measures) await run(measure, 2); // warm-up
  const results = measures.map((): Round[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, measure] of measures.entries()) results[i]!.push(await run(measure, seconds));
  }

  const baseline = results[0]!;
  const rows = measures.map((measure, i) => {
    const measured = results[i]!;
    const ratio = median(measured.map((r, k) => r.rps / baseline[k]!.rps));
    const cpu = measure.servers.map((_, s) => Math.round(median(measured.map((r) => r.cpu[s]!))));
    return [
      measure.name.padEnd(28),
      Math.round(median(measured.map((r) => r.rps)))
        .toLocaleString('en')
        .padStart(8),
      String(median(measured.map((r) => r.p99))).padStart(7),
      ratio.toFixed(2).padStart(6),
      String(measured.reduce((sum, r) => sum + r.errors, 0)).padStart(7),
      `  ${cpu.reduce((a, b) => a + b, 0)}${cpu.length > 1 ? ` (${cpu.join(' + ')})` : ''}`,
    ];
  });
  process.stdout.write(
    `\nphone verification through the gateway: ${connections} connections, ${rounds} interleaved rounds of ${seconds} s, medians\n` +
      `${'measure'.padEnd(28)}  ${'req/s'.padStart(8)}  ${'p99 ms'.padStart(7)}  ${'ratio'.padStart(6)}  ${'errors'.padStart(7)}  server CPU µs/req (gateway + core)\n` +
      `${rows.map((r) => r.join('  ')).join('\n')}\n` +
      `(ratio: req/s over the baseline's in the same round; verifications created: ${ids.length}, codes sent to the fake Graph API: ${graph.received})\n`,
  );
  await graph.close();
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
    await Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGTERM'))));
    rmSync(dataDir, { recursive: true, force: true });
  });
