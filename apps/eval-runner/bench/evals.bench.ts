/**
 * `pnpm bench`: an eval run of 200 cases of 3 visitor turns started through the API, with core, the gateway and one
 * eval runner as their own processes. The agent is on the real OpenAI client against a fake OpenAI-compatible server
 * answering after 50 ms, the judge on the real Anthropic client against a fake Messages server answering after
 * 50 ms. Printed for EVAL_CONCURRENCY 8 and 32: the wall time from the POST that starts the run to the run's
 * finished_at, as a ratio of the ideal ceil(cases / concurrency) x (turns + 1) x 50 ms, and of a bare client's time
 * (a process of its own replaying the same schedule against the same fake models through Node's http, right before
 * each run: the floor this machine and the fake models set, which the ideal leaves out); the CPU time core and the
 * runner spent per case (from /proc), and this process's (the fake models, and its polls of the run); and how busy
 * the machine's CPUs were during the run, by any process: on a machine near full use, a case's next model call waits
 * for a CPU as well as for the model. Each concurrency runs BENCH_ROUNDS times (3) after a warm-up run, and the
 * medians are printed, with the warm-up run's ratio and CPU time per case and each round's beside them: a new runner
 * and core spend less per case over their first several runs, so the rounds show where the medians sit. At
 * concurrency 32, each round's run is made again right after it with 100 clients reading its event stream
 * (GET .../events) to its end, and the median of those runs' wall times over their plain ones' is printed. It runs
 * once with core on SQLite, once on a PostgreSQL database of its own (on the test server, SVC_TEST_POSTGRES_URL;
 * dropped at the end); BENCH_ONLY=SQLite or PostgreSQL runs only that one. BENCH_PROFILE=DIR writes CPU profiles of
 * core and the runner.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  anthropicMessage,
  chatCompletion,
  createPostgresDatabase,
  dropPostgresDatabases,
  freePort,
  machineShares,
  machineTicks,
  type ProcessGroup,
  processCpuMs,
  startApp,
  startFakeProvider,
  stopProcesses,
  tempDir,
  waitUntilAnswering,
} from '@svc/testkit';

const cases = Number(process.env.BENCH_CASES ?? 200);
const turns = 3;
const latencyMs = 50;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
/** Only the stores whose name holds this text (`SQLite`, `PostgreSQL`). */
const only = process.env.BENCH_ONLY ?? '';
const concurrencies = [8, 32];
/** The concurrency whose run is made again with `subscribers` reading its event stream. */
const followedConcurrency = 32;
const subscribers = 100;
const apps = fileURLToPath(new URL('../../', import.meta.url));
const execFileAsync = promisify(execFile);
/** Runs a script of this file in a node process of its own with `args`; answers what it printed. */
const runScript = async (script: string, ...args: string[]) =>
  (await execFileAsync(process.execPath, ['--input-type=module', '-e', script, ...args])).stdout;

/** The subscribers' process: reads the stream at argv[1] with the token at argv[2], argv[3] times at once. */
const subscriberScript = `
const [url, token, count] = process.argv.slice(1);
const read = async () => {
  const response = await fetch(url, { headers: { authorization: 'Bearer ' + token } });
  if (response.status !== 200) throw new Error('events: ' + response.status + ' ' + (await response.text()));
  return (await response.text()).split('\\n').filter((line) => line === 'event: result').length;
};
process.stdout.write(JSON.stringify(await Promise.all(Array.from({ length: Number(count) }, read))));
`;

/**
 * The bare client's process: a run's schedule without svc, for the floor the machine and the fake models set. It
 * replays argv[3] cases, argv[5] at once, each as argv[4] calls to the agent's server (argv[1]) then one to the judge's
 * (argv[2]), in turn, through Node's own http on keep-alive connections opened beforehand; prints the wall time in ms.
 */
const bareClientScript = `
import http from 'node:http';
const [agentUrl, judgeUrl, cases, turns, concurrency] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true });
const post = (url) => new Promise((resolve, reject) => {
  const request = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (response) => {
    response.resume();
    response.on('end', resolve);
    response.on('error', reject);
  });
  request.on('error', reject);
  request.end('{}');
});
// Its connections opened first, as a runner's are by the time it replays a run.
await Promise.all(Array.from({ length: Number(concurrency) }, () => Promise.all([post(agentUrl), post(judgeUrl)])));
let next = 0;
const started = performance.now();
await Promise.all(Array.from({ length: Number(concurrency) }, async () => {
  while (next < Number(cases)) {
    next++;
    for (let turn = 0; turn < Number(turns); turn++) await post(agentUrl);
    await post(judgeUrl);
  }
}));
process.stdout.write(String(Math.round(performance.now() - started)));
agent.destroy();
`;

function start(entry: string, env: Record<string, string>): ProcessGroup {
  const execArgv = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  return startApp(entry, { LOG_LEVEL: 'warn', ...env }, { stdio: 'inherit-stderr', execArgv });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dataDirs: string[] = [];

/** The rows of one store: `database` is core's SVC_DATABASE_URL, none for SQLite in the data dir. */
async function measure(database: string | undefined): Promise<string[]> {
  const dataDir = tempDir('svc-bench-evals-');
  dataDirs.push(dataDir);
  const agentModel = await startFakeProvider(() => ({ ...chatCompletion('Your order ships tomorrow.'), delayMs: latencyMs }), {
    keep: false,
  });
  const judgeModel = await startFakeProvider(
    () => ({ ...anthropicMessage('{"verdict":"pass","reasoning":"The agent said when the order ships."}'), delayMs: latencyMs }),
    { keep: false },
  );
  const [port, corePort] = [await freePort(), await freePort()];
  const secretKey = randomBytes(32).toString('base64');
  const env = { PORT: String(port), CORE_PORT: String(corePort), SVC_DATA_DIR: dataDir, SVC_SECRET_KEY: secretKey };
  const store: Record<string, string> = database ? { SVC_DATABASE_URL: database } : {};
  const core = start(join(apps, 'core/dist/main.js'), {
    ...env,
    ...store,
    SVC_LOCAL_MODE: '1',
    SVC_JUDGE_MODELS: 'anthropic:claude-sonnet-4-6',
  });
  const coreUrl = `http://127.0.0.1:${corePort}`;
  await waitUntilAnswering(`${coreUrl}/healthz`);
  const gateway = start(join(apps, 'gateway/dist/main.js'), { ...env, SVC_LOCAL_MODE: '1' });
  await waitUntilAnswering(`http://127.0.0.1:${port}/healthz`);

  // The seeded demo workspace and its owner's token: an OpenAI agent deployed to `bench`, and the cases.
  const token = readFileSync(join(dataDir, 'dev-token'), 'utf8').trim();
  const api = async (path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}/api/developer/v1/demo${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  await api('/deployments', {
    environment: 'bench',
    files: {
      'svc.yaml': 'workspace: demo\n',
      'agents/bench/agent.yaml': 'name: Bench\nmodel: openai:gpt-4.1-mini\n',
      'agents/bench/instructions.md': 'Answer questions about orders.',
    },
  });
  for (let i = 0; i < cases; i++) {
    await api('/evals/cases', {
      agent: 'bench',
      turns: [`Hello, order ${i} here.`, 'Where is it?', 'When will it ship?'],
      expected: 'Says when the order ships.',
    });
  }

  /**
   * Reads the run's event stream `subscribers` times at once to its end, in a process of its own (reading them here
   * would slow the fake models that pace the run); answers how many results each stream got.
   */
  async function subscribe(runId: string): Promise<number[]> {
    const url = `http://127.0.0.1:${port}/api/developer/v1/demo/evals/runs/${runId}/events`;
    return JSON.parse(await runScript(subscriberScript, url, token, String(subscribers))) as number[];
  }

  /** The wall time of a run's schedule replayed by the bare client against the same fake models. */
  async function bareClientRun(concurrency: number): Promise<number> {
    const agentUrl = `${agentModel.url}/v1/chat/completions`;
    return Number(
      await runScript(bareClientScript, agentUrl, `${judgeModel.url}/v1/messages`, String(cases), String(turns), String(concurrency)),
    );
  }

  /** The wall time of a run read by `subscribers` streams, from the POST to finished_at. */
  async function followedRun(): Promise<number> {
    const started = Date.now();
    const run = await api('/evals/runs', { environment: 'bench', agent: 'bench' });
    const got = await subscribe(run.id as string);
    if (got.some((count) => count !== cases)) throw new Error(`a subscriber missed results: ${got.join(',')}`);
    const detail = await api(`/evals/runs/${run.id}`);
    return Date.parse(detail.finished_at as string) - started;
  }

  const rows: string[] = [];
  for (const concurrency of concurrencies) {
    const runner = start(join(apps, 'eval-runner/dist/main.js'), {
      CORE_URL: coreUrl,
      SVC_SECRET_KEY: secretKey,
      EVAL_CONCURRENCY: String(concurrency),
      OPENAI_BASE_URL: `${agentModel.url}/v1`,
      OPENAI_API_KEY: 'sk-bench',
      ANTHROPIC_BASE_URL: judgeModel.url,
      ANTHROPIC_API_KEY: 'sk-bench',
    });
    const ideal = Math.ceil(cases / concurrency) * (turns + 1) * latencyMs;
    const cpu: number[] = [];
    const coreCpu: number[] = [];
    const wallMs: number[] = [];
    /** The bare client's wall times, each right before its round's run. */
    const bareMs: number[] = [];
    const followed: number[] = [];
    const benchCpu: number[] = [];
    const busy: number[] = [];
    let warmUp = '';
    for (let round = 0; round <= rounds; round++) {
      // Right before the run, in the same state of the machine.
      const bare = await bareClientRun(concurrency);
      const coreBefore = processCpuMs(core.child.pid);
      const cpuBefore = coreBefore + processCpuMs(runner.child.pid);
      const [benchBefore, machineBefore] = [process.cpuUsage(), machineTicks()];
      const started = Date.now();
      const run = await api('/evals/runs', { environment: 'bench', agent: 'bench' });
      let detail = await api(`/evals/runs/${run.id}`);
      while (!detail.finished) {
        await sleep(500);
        detail = await api(`/evals/runs/${run.id}`);
      }
      if (detail.passed !== cases) throw new Error(`expected ${cases} passes, got ${JSON.stringify({ ...detail, results: undefined })}`);
      const coreAfter = processCpuMs(core.child.pid);
      const cpuPerCase = (coreAfter + processCpuMs(runner.child.pid) - cpuBefore) / cases;
      const coreCpuPerCase = (coreAfter - coreBefore) / cases;
      const { user, system } = process.cpuUsage(benchBefore);
      const machine = machineShares(machineBefore);
      const ms = Date.parse(detail.finished_at as string) - started;
      // The first round warms the runner up (its clients, the agent's bundle): printed apart, not counted.
      if (round === 0) {
        warmUp = `${(ms / ideal).toFixed(2)} x ${cpuPerCase.toFixed(1)} ms`;
        continue;
      }
      wallMs.push(ms);
      bareMs.push(bare);
      cpu.push(cpuPerCase);
      coreCpu.push(coreCpuPerCase);
      benchCpu.push((user + system) / 1000 / cases);
      busy.push(machine.busy);
      // Each followed run right after its plain one: a machine that slows down meanwhile slows both.
      if (concurrency === followedConcurrency) followed.push(await followedRun());
    }
    await runner.stop();
    if (followed.length > 0) {
      rows.push(
        `EVAL_CONCURRENCY ${concurrency} with ${subscribers} event stream subscribers: ${median(followed.map((ms, i) => ms / wallMs[i]!)).toFixed(2)} x the run without ` +
          `(${median(followed)} ms against ${median(wallMs)} ms)   [rounds: ${followed.join(', ')} ms]`,
      );
    }
    const ratios = wallMs.map((ms) => ms / ideal);
    const bareRatios = bareMs.map((ms) => ms / ideal);
    rows.push(
      `EVAL_CONCURRENCY ${String(concurrency).padStart(2)}: ${median(ratios).toFixed(2)} x ideal (${ideal} ms), ` +
        `${median(wallMs.map((ms, i) => ms / bareMs[i]!)).toFixed(2)} x the bare client's (${median(bareRatios).toFixed(2)} x ideal), ` +
        `${median(cpu).toFixed(1)} ms CPU per case (core ${median(coreCpu).toFixed(1)} + runner), ` +
        `bench ${median(benchCpu).toFixed(1)} ms per case, box ${Math.round(100 * median(busy))} % busy   ` +
        `[warm-up: ${warmUp}; rounds: ${ratios.map((r, i) => `${r.toFixed(2)} x ${cpu[i]!.toFixed(1)} ms (bare ${bareRatios[i]!.toFixed(2)} x)`).join(', ')}]`,
    );
  }
  await gateway.stop();
  await core.stop();
  await agentModel.close();
  await judgeModel.close();
  return rows;
}

async function main(): Promise<void> {
  const stores = [
    { name: 'SQLite', database: async () => undefined },
    { name: 'PostgreSQL', database: createPostgresDatabase },
  ].filter(({ name }) => name.includes(only));
  const rows: string[] = [];
  for (const { name, database } of stores) {
    for (const row of await measure(await database())) rows.push(`  core on ${`${name},`.padEnd(11)} ${row}\n`);
  }
  process.stdout.write(
    `\neval run: ${cases} cases x ${turns} turns, agent and judge each answering after ${latencyMs} ms (median of ${rounds})\n`,
  );
  for (const row of rows) process.stdout.write(row);
}

try {
  await main();
} finally {
  await stopProcesses();
  await dropPostgresDatabases();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
