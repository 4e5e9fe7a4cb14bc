/**
 * `pnpm bench`: create and verify throughput and p99 latency through the gateway (core and gateway as
 * their own processes, on SQLite, delivering through a fake WhatsApp Cloud API), each printed as a
 * ratio of a bare express JSON POST handler measured in the same run on the same machine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, graphAccepted, startFakeProvider, tempDir } from '@svc/testkit';
import autocannon from 'autocannon';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const tsx = import.meta.resolve('tsx');
const apps = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];

function start(entry: string, args: string[], env: Record<string, string>): void {
  const child = spawn(process.execPath, ['--import', tsx, entry, ...args], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
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

interface Measure {
  name: string;
  rps: number;
  p99: number;
  errors: number;
}

async function measure(name: string, options: autocannon.Options, expected: number): Promise<Measure> {
  await autocannon({ ...options, connections, duration: 2 }); // warm-up
  const result = await autocannon({ ...options, connections, duration });
  const unexpected = Object.entries(result.statusCodeStats)
    .filter(([status]) => Number(status) !== expected)
    .reduce((sum, [, stats]) => sum + stats.count, 0);
  return { name, rps: result.requests.average, p99: result.latency.p99, errors: unexpected + result.errors + result.timeouts };
}

async function main(): Promise<void> {
  const dataDir = tempDir('svc-bench-');
  const graph = await startFakeProvider(graphAccepted);
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
  start(join(apps, 'core/src/main.ts'), [], env);
  await healthy(`http://127.0.0.1:${corePort}/healthz`);
  start(join(apps, 'gateway/src/main.ts'), [], env);
  start(fileURLToPath(new URL('./baseline-server.ts', import.meta.url)), [String(baselinePort)], {});
  await healthy(`http://127.0.0.1:${port}/healthz`);
  await healthy(`http://127.0.0.1:${baselinePort}/echo`);

  const token = readFileSync(join(dataDir, 'dev-token'), 'utf8').trim();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const gateway = `http://127.0.0.1:${port}`;
  await fetch(`${gateway}/api/developer/v1/demo/sender`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ kind: 'whatsapp_cloud', phone_number_id: '1234567890', access_token: 'bench', template: 'otp_code' }),
  });

  let next = 0;
  const ids: string[] = [];
  const results: Measure[] = [];
  results.push(
    await measure(
      'baseline: express JSON POST',
      { url: `http://127.0.0.1:${baselinePort}/echo`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone_number: '+56912345678' }) },
      201,
    ),
  );
  results.push(
    await measure(
      'create verification',
      {
        url: `${gateway}/api/v1/demo/phone_verifications`,
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
      201,
    ),
  );
  let turn = 0;
  results.push(
    await measure(
      'verify (wrong code: 422)',
      {
        url: gateway,
        method: 'POST',
        headers,
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              path: `/api/v1/demo/phone_verifications/${ids[turn++ % ids.length]}/verify`,
              body: '{"code":"0000000"}',
            }),
          },
        ],
      },
      422,
    ),
  );

  const [baseline] = results;
  const rows = results.map((r) => [
    r.name.padEnd(28),
    Math.round(r.rps).toLocaleString('en').padStart(8),
    String(r.p99).padStart(7),
    (r.rps / baseline!.rps).toFixed(2).padStart(7),
    String(r.errors).padStart(7),
  ]);
  process.stdout.write(
    `\nphone verification through the gateway: ${connections} connections, ${duration} s each, one machine\n` +
      `${'measure'.padEnd(28)}  ${'req/s'.padStart(8)}  ${'p99 ms'.padStart(7)}  ${'ratio'.padStart(7)}  ${'errors'.padStart(7)}\n` +
      `${rows.map((r) => r.join('  ')).join('\n')}\n` +
      `(ratio: req/s over the baseline's; verifications created: ${ids.length}, codes sent to the fake Graph API: ${graph.requests.length})\n`,
  );
  await graph.close();
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGTERM');
  });
