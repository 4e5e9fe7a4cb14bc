import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defaultConfig, startCore } from '@svc/core/bootstrap';
import { createLogger } from '@svc/server-kit';
import { chatCompletion, freePort, removeTempDirs, startApp, startFakeProvider, stopProcesses, tempDir } from '@svc/testkit';
import { pino } from 'pino';
import { afterAll, afterEach, expect, it } from 'vitest';
import { readEnv } from '../src/env.ts';
import { startRunner } from '../src/runner.ts';

const log = createLogger('eval-runner', { LOG_LEVEL: 'silent' });
const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
afterEach(stopProcesses);
afterAll(removeTempDirs);

/** A logger whose lines a test can wait for. */
function capture() {
  const lines: string[] = [];
  return { lines, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) };
}

/** Core alone over HTTP, as the runner reaches it. */
async function startCoreAlone() {
  const secretKey = randomBytes(32);
  const core = await startCore({ dataDir: tempDir(), port: 0, secretKey, log });
  return { core, secretKey };
}

const runMain = (env: Record<string, string>) => startApp(main, env);

it('connects to core, keeps polling, and stops promptly', async () => {
  const { core, secretKey } = await startCoreAlone();
  const runner = startRunner({ coreUrls: [core.url], pollMs: 60_000, secretKey, log });
  await runner.connected;
  const started = Date.now();
  await runner.stop();
  expect(Date.now() - started).toBeLessThan(1000);
  await core.stop();
});

it('waits for a core that starts later', async () => {
  const port = await freePort();
  const secretKey = randomBytes(32);
  const { lines, log: runnerLog } = capture();
  const runner = startRunner({ coreUrls: [`http://127.0.0.1:${port}`], pollMs: 50, secretKey, log: runnerLog });
  let connected = false;
  void runner.connected.then(() => (connected = true));
  const core = await startCore({ dataDir: tempDir(), port, secretKey, log });
  expect(connected).toBe(false); // nothing listened on the port until now
  await runner.connected;
  expect(lines.join('')).toContain('eval runner connected to core');
  await runner.stop();
  await core.stop();
});

it('is refused by a core whose key is not its own, and says which setting differs', async () => {
  const { core } = await startCoreAlone();
  const { lines, log: runnerLog } = capture();
  const runner = startRunner({ coreUrls: [core.url], pollMs: 50, secretKey: randomBytes(32), log: runnerLog });
  let connected = false;
  void runner.connected.then(() => (connected = true));
  await expect.poll(() => lines.join('')).toContain("core refused the runner: its SVC_SECRET_KEY is not core's");
  expect(connected).toBe(false);
  await runner.stop();
  await core.stop();
});

it('runs as its own process and exits 0 on SIGTERM', async () => {
  const { core, secretKey } = await startCoreAlone();
  const runner = runMain({ CORE_URL: core.url, SVC_SECRET_KEY: secretKey.toString('base64') });
  await runner.waitForOutput('connected to core');
  expect(await runner.stop()).toBe(0);
  await core.stop();
});

it('refuses to start without SVC_SECRET_KEY outside local mode (exit 78, naming it)', async () => {
  const runner = runMain({ CORE_URL: 'http://127.0.0.1:9' });
  expect(await runner.exited).toBe(78);
  expect(runner.output()).toContain('SVC_SECRET_KEY: required outside local mode');
});

const twoTurns = [{ turns: ['When?', 'And then?'] }];

/** A workspace with one agent and its cases (one of two turns unless told), and a run of them started. */
async function startEvalRun(core: Awaited<ReturnType<typeof startCore>>, cases: { turns: string[] }[] = twoTurns) {
  const { services } = core;
  const owner = await services.identity.findOrCreateUser('ada@example.com');
  const workspace = await services.workspaces.create(owner.id, { slug: 'acme' });
  await services.deployments.push(workspace, owner.id, {
    environment: 'preview',
    files: {
      'svc.yaml': 'workspace: acme\n',
      'agents/support/agent.yaml': 'name: Support\nmodel: openai:gpt-4.1-mini\n',
      'agents/support/instructions.md': 'Help.',
    },
  });
  for (const { turns } of cases) {
    await services.evalCases.create(workspace, owner.email, { agent: 'support', turns, expected: 'Says "tomorrow".' });
  }
  const run = await services.evalRuns.start(workspace, owner.email, {});
  return { workspace, run };
}

it('finishes the cases it is replaying when stopped, and reports them before it stops', async () => {
  const model = await startFakeProvider(() => ({ ...chatCompletion('Your order ships tomorrow.'), delayMs: 300 }));
  const { core, secretKey } = await startCoreAlone();
  const { services } = core;
  const { workspace, run } = await startEvalRun(core);

  const runner = startRunner({
    coreUrls: [core.url],
    pollMs: 50,
    secretKey,
    log,
    providers: { openai: { baseURL: `${model.url}/v1` } },
  });
  await model.waitForRequests(1); // the first turn is under way
  await runner.stop();
  expect(model.requests).toHaveLength(2);
  expect(await services.evalRuns.get(workspace.id, run.id)).toMatchObject({ finished: true, done: 1, passed: 1 });
  await core.stop();
  await model.close();
});

it('finishes a run on the second of its cores when nothing answers at the first', async () => {
  const model = await startFakeProvider(() => chatCompletion('Your order ships tomorrow.'));
  const { core, secretKey } = await startCoreAlone();
  const { workspace, run } = await startEvalRun(core);
  const dead = `http://127.0.0.1:${await freePort()}`;
  const { lines, log: runnerLog } = capture();
  const runner = startRunner({
    coreUrls: [dead, core.url],
    pollMs: 50,
    secretKey,
    log: runnerLog,
    providers: { openai: { baseURL: `${model.url}/v1` } },
  });
  await expect.poll(() => core.services.evalRuns.get(workspace.id, run.id)).toMatchObject({ finished: true, done: 1, passed: 1 });
  expect(lines.join('')).toContain(`"core":"${core.url}"`);
  await runner.stop();
  await core.stop();
  await model.close();
});

it('reads its cores from CORE_URLS as its own process, and works for a live one after a dead one', async () => {
  const { core, secretKey } = await startCoreAlone();
  const dead = `http://127.0.0.1:${await freePort()}`;
  const runner = runMain({ CORE_URLS: `${dead}, ${core.url}`, SVC_SECRET_KEY: secretKey.toString('base64') });
  await runner.waitForOutput('connected to core');
  expect(await runner.stop()).toBe(0);
  await core.stop();
});

it("reads SVC_MODEL_TIMEOUT_MS as core does, 60 s unless told: a replay's or a judge's model call fails after it", () => {
  const base = { CORE_URL: 'http://127.0.0.1:8081', SVC_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };
  expect(readEnv(base).providers.timeoutMs).toBe(60_000);
  expect(readEnv({ ...base, SVC_MODEL_TIMEOUT_MS: '90000' }).providers.timeoutMs).toBe(90_000);
  expect(() => readEnv({ ...base, SVC_MODEL_TIMEOUT_MS: '0' })).toThrow('SVC_MODEL_TIMEOUT_MS');
});

it('warns of a lost lease only when it was lost: cases reported while their renewal was under way are not', async () => {
  const model = await startFakeProvider(() => ({ ...chatCompletion('Your order ships tomorrow.'), delayMs: 100 }));
  // Leases of 2.4 s are renewed every 0.8 s over a run of about 1.5 s, and reports land every few milliseconds:
  // reports cross renewals under way. Only a runner stalled for 2.4 s would really lose a lease (a machine running
  // several suites at once once stalled one for about 1 s).
  const secretKey = randomBytes(32);
  const core = await startCore({
    dataDir: tempDir(),
    port: 0,
    secretKey,
    log,
    config: { ...defaultConfig, evals: { judges: [], leaseMs: 2400 } },
  });
  const { services } = core;
  const { workspace, run } = await startEvalRun(
    core,
    Array.from({ length: 120 }, (_, i) => ({ turns: [`When? ${i}`] })),
  );
  const { lines, log: runnerLog } = capture();
  const runner = startRunner({
    coreUrls: [core.url],
    pollMs: 50,
    secretKey,
    log: runnerLog,
    concurrency: 8,
    providers: { openai: { baseURL: `${model.url}/v1` } },
  });
  await expect.poll(async () => (await services.evalRuns.get(workspace.id, run.id))?.finished).toBe(true);
  await runner.stop();
  expect(await services.evalRuns.get(workspace.id, run.id)).toMatchObject({ done: 120, passed: 120 });
  expect(lines.filter((line) => line.includes('case finished'))).toHaveLength(120);
  expect(lines.filter((line) => line.includes('lease lost'))).toEqual([]);
  await core.stop();
  await model.close();
});
