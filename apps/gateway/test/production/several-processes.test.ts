/**
 * Production mode as processes: two cores and two gateways, each its own `src/main.ts`, on one PostgreSQL database,
 * with rate limits in Redis, codes going to a fake WhatsApp Cloud API and agents to a fake OpenAI. Each core reaches
 * the fake Graph API under a path of its own (`/core-a`, `/core-b`), so the fake knows which core sent what.
 */
import { randomUUID } from 'node:crypto';
import { appEntry, type Processes, startProcesses } from '@svc/test-platform';
import {
  chatCompletion,
  createPostgresDatabase,
  dropPostgresDatabases,
  type FakeProvider,
  graphAccepted,
  type ProcessGroup,
  queryPostgres,
  type RecordedRequest,
  removeTempDirs,
  request,
  type RequestOptions,
  startApp,
  startFakeProvider,
  stopProcesses,
  testRedisUrl,
} from '@svc/testkit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atOnce } from '../at-once.ts';

/** This file's keys in Redis, removed afterwards. */
const redisKeyPrefix = `svc-test-${randomUUID()}:`;
/** How long a core holds the codes it claimed: a killed core's are sent by the other this long after it claimed them. */
const outboxClaimMs = 6000;
const coreNames = ['a', 'b'] as const;

let databaseUrl: string;
let graph: FakeProvider;
let model: FakeProvider | undefined;
/** Settles when the fake Graph API may answer the calls it holds. */
let graphHeld: Promise<void> = Promise.resolve();
let processes: Processes;
let gateways: string[];

const api = (gateway: string, path: string, init: RequestOptions = {}) => request(`${gateway}${path}`, { token: processes.token, ...init });
/** The number a call to the fake Graph API sends a code to, with its +. */
const numberOf = (call: RecordedRequest) => `+${(JSON.parse(call.body) as { to: string }).to}`;
const sentBy = (core: 'a' | 'b') => (call: RecordedRequest) => call.path.startsWith(`/core-${core}/`);

beforeAll(async () => {
  databaseUrl = await createPostgresDatabase();
  graph = await startFakeProvider(() => ({ ...graphAccepted(), until: graphHeld }));
  processes = await startProcesses({
    store: { databaseUrl },
    cores: 2,
    gateways: 2,
    coreEnv: (index) => ({
      SVC_REDIS_URL: testRedisUrl,
      SVC_REDIS_KEY_PREFIX: redisKeyPrefix,
      SVC_OUTBOX_CLAIM_MS: String(outboxClaimMs),
      SVC_EVAL_LEASE_MS: '1500',
      WHATSAPP_GRAPH_URL: `${graph.url}/core-${coreNames[index]}`,
    }),
  });
  gateways = processes.gateways.map((gateway) => gateway.url);

  const [gateway] = gateways as [string];
  expect((await api(gateway, '/cli/workspaces', { json: { slug: 'acme' } })).status).toBe(201);
  const sender = await api(gateway, '/api/developer/v1/acme/sender', {
    method: 'PUT',
    json: { kind: 'whatsapp_cloud', phone_number_id: '1234567890', access_token: 'EAAG-token', template: 'otp_code', language: 'en_US' },
  });
  expect(sender.status).toBe(200);
});

afterAll(async () => {
  await stopProcesses();
  await graph?.close();
  await model?.close();
  await dropPostgresDatabases();
  removeTempDirs();
  const redis = new Redis(testRedisUrl);
  const keys = await redis.keys(`${redisKeyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

/** The verification's delivery status, asked of either gateway. */
async function deliveryOf(id: string, gateway = gateways[0]!): Promise<string> {
  const shown = await api(gateway, `/api/v1/acme/phone_verifications/${id}`);
  expect(shown.status).toBe(200);
  return shown.body.delivery.status as string;
}

describe('two cores and two gateways on one PostgreSQL database', () => {
  it('sends one code for 200 creates for one number at once through both gateways; the others answer 429 resend_too_soon', async () => {
    const number = '+56911111111';
    const answers = await atOnce(gateways, 200, (i) =>
      api(gateways[i % 2]!, '/api/v1/acme/phone_verifications', { json: { phone_number: number } }),
    );
    const created = answers.filter((answer) => answer.status === 201);
    expect(created).toHaveLength(1);
    const id = created[0]!.body.verification_id as string;
    const others = answers.filter((answer) => answer.status !== 201);
    expect(new Set(others.map((answer) => answer.status))).toEqual(new Set([429]));
    for (const answer of others) expect(answer.body).toMatchObject({ verification_id: id, error: { code: 'resend_too_soon' } });

    // Once its one message is sent, nothing more can be sent for it.
    await expect.poll(() => deliveryOf(id)).toBe('sent');
    const calls = graph.requests.filter((call) => numberOf(call) === number);
    expect(calls.map((call) => call.outcome)).toEqual(['answered']);
  });

  it('finishes an eval run with two runners, one killed mid-run, counting every case once', async () => {
    const [gateway] = gateways as [string];
    const deployed = await api(gateway, '/api/developer/v1/acme/deployments', {
      json: {
        environment: 'preview',
        files: {
          'svc.yaml': 'workspace: acme\n',
          'agents/support/agent.yaml': 'name: Support\nmodel: openai:gpt-4.1-mini\n',
          'agents/support/instructions.md': 'Help.',
        },
      },
    });
    expect(deployed.status).toBe(201);
    const cases = 16;
    for (let i = 0; i < cases; i++) {
      const added = await api(gateway, '/api/developer/v1/acme/evals/cases', {
        json: { agent: 'support', turns: [`question ${i}`, 'and then?'], expected: 'Says "the answer".' },
      });
      expect(added.status).toBe(201);
    }
    // The model answers the runner to be killed until it has finished two cases, then holds every second turn it
    // sends: it dies with cases under way. The survivor's calls wait until then, so the run cannot finish before.
    let secondTurns = 0;
    let killedGone!: () => void;
    const gone = new Promise<void>((resolve) => (killedGone = resolve));
    const agentModel = await startFakeProvider(({ path, body }) => {
      const answer = chatCompletion('Here is the answer.');
      if (!path.startsWith('/killed/')) return { ...answer, until: gone };
      return body.includes('and then?') && ++secondTurns > 2 ? { ...answer, until: new Promise(() => {}) } : answer;
    });
    model = agentModel;
    const runner = (name: string): ProcessGroup =>
      startApp(appEntry('eval-runner'), {
        CORE_URLS: processes.cores.map((core) => core.url).join(','),
        SVC_SECRET_KEY: processes.secretKey,
        EVAL_CONCURRENCY: '4',
        OPENAI_BASE_URL: `${agentModel.url}/${name}/v1`,
        OPENAI_API_KEY: 'sk-agent',
        LOG_LEVEL: 'info',
      });
    const [killed, survivor] = [runner('killed'), runner('survivor')];
    await Promise.all([killed.waitForOutput('connected to core'), survivor.waitForOutput('connected to core')]);
    const started = await api(gateway, '/api/developer/v1/acme/evals/runs', { json: {} });
    expect(started.status).toBe(202);
    const run = (path = '') => api(gateway, `/api/developer/v1/acme/evals/runs/${started.body.id}${path}`);

    // Some cases reported by the runner to be killed, with more of them leased and under way: then it dies.
    await expect.poll(() => killed.output().match(/case finished/g)?.length ?? 0).toBe(2);
    await killed.stop('SIGKILL');
    expect((await run()).body.done).toBe(2);
    killedGone();

    await expect.poll(async () => (await run()).body.finished, { timeout: 30_000 }).toBe(true);
    const finished = (await run()).body;
    expect(finished).toMatchObject({ cases, done: cases, passed: cases, failed: 0, errors: 0 });
    expect(new Set(finished.results.map((result: { case_id: string }) => result.case_id)).size).toBe(cases);
    // One replay chat per case: what the killed runner had under way was replayed again, never recorded twice.
    const [replays] = await queryPostgres<{ n: string }>(databaseUrl, 'select count(*) as n from chats where replay');
    expect(Number(replays!.n)).toBe(cases);
    expect(survivor.output()).toContain('case finished');
    expect(await survivor.stop()).toBe(0);
  });

  it('sends a code from the other core within seconds when the core sending it freezes, and at most twice', async () => {
    let release!: () => void;
    graphHeld = new Promise((resolve) => (release = resolve));
    const number = '+56933333333';
    const created = await api(gateways[0]!, '/api/v1/acme/phone_verifications', { json: { phone_number: number } });
    expect(created.status).toBe(201);
    const calls = () => graph.requests.filter((call) => numberOf(call) === number);
    await expect.poll(() => calls().length).toBe(1);
    // The core sending it freezes with its send written and unanswered: the code may have gone.
    const frozen = processes.cores[sentBy('a')(calls()[0]!) ? 0 : 1]!;
    const pid = frozen.app.child.pid!;
    const frozenAt = Date.now();
    process.kill(pid, 'SIGSTOP');
    try {
      // Its claim is no longer renewed: the other core sends the code once the claim ends, a claim's length later.
      await expect.poll(() => calls().length, { timeout: 30_000, interval: 100 }).toBe(2);
      const waited = Date.now() - frozenAt;
      expect(waited).toBeGreaterThanOrEqual(outboxClaimMs - 1000);
      expect(waited).toBeLessThan(outboxClaimMs + 10_000);
      release();
      await expect.poll(() => deliveryOf(created.body.verification_id, gateways[1]), { timeout: 30_000 }).toBe('sent');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    // Back, the frozen core finds its claim taken and sends nothing more: two sends, the first unanswered when it froze.
    await expect.poll(() => calls().every((call) => call.outcome !== undefined), { timeout: 30_000 }).toBe(true);
    expect(calls()).toHaveLength(2);
  });

  it('delivers 300 codes queued while one core is killed mid-send exactly once, by the other core', async () => {
    let release!: () => void;
    graphHeld = new Promise((resolve) => (release = resolve));
    // More than both cores send at once (128 each), so that some wait in the outbox.
    const numbers = Array.from({ length: 300 }, (_, i) => `+569${String(20_000_000 + i)}`);
    const created = await Promise.all(
      numbers.map((number, i) => api(gateways[i % 2]!, '/api/v1/acme/phone_verifications', { json: { phone_number: number } })),
    );
    expect(created.map((answer) => answer.status)).toEqual(numbers.map(() => 201));
    const ids = created.map((answer) => answer.body.verification_id as string);

    // Both cores have sends under way, held by the provider; the rest wait in the outbox.
    const ours = () => graph.requests.filter((call) => numbers.includes(numberOf(call)));
    await expect.poll(() => ours().some(sentBy('a')) && ours().some(sentBy('b'))).toBe(true);
    expect(ours().length).toBeLessThan(numbers.length);
    await processes.cores[0]!.app.stop('SIGKILL');
    // The provider sees the killed core's calls go away unanswered before it answers any.
    const heldByA = ours().filter(sentBy('a'));
    await expect.poll(() => heldByA.every((call) => call.outcome === 'dropped')).toBe(true);
    release();

    await expect
      .poll(async () => (await Promise.all(ids.map((id) => deliveryOf(id, gateways[1])))).every((s) => s === 'sent'), {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(true);
    const answered = ours().filter((call) => call.outcome === 'answered');
    expect(answered.map(numberOf).sort()).toEqual([...numbers].sort()); // each number once
    expect(answered.every(sentBy('b'))).toBe(true);
    expect(
      ours()
        .filter(sentBy('a'))
        .every((call) => call.outcome === 'dropped'),
    ).toBe(true);
    expect(heldByA.length).toBeGreaterThan(0);
  });
});
