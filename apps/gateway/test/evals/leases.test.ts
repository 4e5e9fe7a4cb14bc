import { join } from 'node:path';
import Database from 'better-sqlite3';
import { appEntry } from '@svc/test-platform';
import {
  chatCompletion,
  type FakeProvider,
  type ProcessGroup,
  queryPostgres,
  startApp,
  startFakeProvider,
  stopProcesses,
} from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { agentFiles, deployedWorkspace } from './setup.ts';

describe('a runner killed mid-run', () => {
  let platform: TestPlatform;
  let openai: FakeProvider;
  // The model answers three cases' second turns, then holds the others until the first runner is killed: it dies
  // with cases under way, and the run cannot finish before.
  let secondTurns = 0;
  let killed!: () => void;
  const gone = new Promise<void>((resolve) => (killed = resolve));
  beforeAll(async () => {
    openai = await startFakeProvider(({ body }) => {
      const answer = chatCompletion('Here is the answer.');
      return body.includes('and then?') && ++secondTurns > 3 ? { ...answer, until: gone } : answer;
    });
    // No runner in core's process: the runners here are processes of their own. Leases last 1.5 s.
    platform = await startPlatform({ evalConcurrency: 0, evals: { leaseMs: 1500 } });
  });
  afterAll(async () => {
    await stopProcesses();
    await platform.stop();
    await openai.close();
  });

  const runner = (): ProcessGroup =>
    startApp(appEntry('eval-runner'), {
      CORE_URL: platform.core.url,
      SVC_SECRET_KEY: platform.secretKey.toString('base64'),
      EVAL_CONCURRENCY: '4',
      OPENAI_BASE_URL: `${openai.url}/v1`,
      OPENAI_API_KEY: 'sk-agent',
      LOG_LEVEL: 'info',
    });

  it('loses nothing: its leases expire, another runner finishes the run, and no case is counted twice', async () => {
    const world = await deployedWorkspace(platform, 'acme', agentFiles('support', 'model: openai:gpt-4.1-mini\n'));
    const cases = 16;
    for (let i = 0; i < cases; i++) await world.addCase([`question ${i}`, 'and then?'], 'Says "the answer".', 'support');
    const started = await world.start();

    const first = runner();
    // Some cases reported, others in flight (their model calls answered or pending): then the runner dies.
    await expect.poll(() => first.output().match(/case finished/g)?.length ?? 0).toBe(3);
    const inFlight = openai.received;
    await first.stop('SIGKILL');
    killed();
    const atKill = (await world.api(`/evals/runs/${started.id}`)).body;
    expect(atKill.done).toBe(3);
    expect(inFlight).toBeGreaterThan(atKill.done * 2); // it had turns of unreported cases under way

    const second = runner();
    const run = (await world.finished(started.id)).body;
    expect(run).toMatchObject({ cases, done: cases, passed: cases, failed: 0, errors: 0 });
    expect(new Set(run.results.map((r: { case_id: string }) => r.case_id)).size).toBe(cases);
    // One replay chat per case: what the killed runner had under way was replayed again, never recorded twice.
    expect(await replayChats(platform)).toBe(cases);
    expect(second.output()).toContain('case finished');
    expect(await second.stop()).toBe(0);
  });
});

describe('leases across runs', () => {
  let platform: TestPlatform;
  let openai: FakeProvider;
  beforeAll(async () => {
    openai = await startFakeProvider(() => ({ ...chatCompletion('Here is the answer.'), delayMs: 20 }));
    platform = await startPlatform({ evalConcurrency: 2, models: { openai: { baseURL: `${openai.url}/v1` } } });
  });
  afterAll(async () => {
    await platform.stop();
    await openai.close();
  });

  it('go round robin: a small run started after a large one is not stuck behind it', async () => {
    const world = await deployedWorkspace(platform, 'acme', {
      ...agentFiles('support', 'model: openai:gpt-4.1-mini\n'),
      ...agentFiles('sales', 'model: openai:gpt-4.1-mini\n'),
    });
    for (let i = 0; i < 40; i++) await world.addCase([`support ${i}`], 'Says "the answer".', 'support');
    for (let i = 0; i < 4; i++) await world.addCase([`sales ${i}`], 'Says "the answer".', 'sales');
    const large = await world.start({ agent: 'support' });
    const small = await world.start({ agent: 'sales' });
    const smallDone = (await world.finished(small.id)).body;
    const largeDone = (await world.finished(large.id)).body;
    expect(smallDone.passed).toBe(4);
    expect(largeDone.passed).toBe(40);
    // Before the small run finished, the runner had replayed only some of the large run's cases, not all 40: the 8 it
    // leases ahead, taken before the small run started, and about as many as the small run's from the leases after,
    // which take turns between the runs.
    const executions = await platform.core.services.store.evalRuns.executions(large.id);
    const before = executions.filter((e) => e.finishedAt! <= smallDone.finished_at).length;
    expect(before).toBeLessThanOrEqual(20);
  });
});

/** The replay chats in core's database, whichever store it runs on. */
async function replayChats(platform: TestPlatform): Promise<number> {
  const query = 'select count(*) as n from chats where replay';
  if (!platform.databaseUrl) {
    const db = new Database(join(platform.dataDir, 'svc.db'), { readonly: true });
    const { n } = db.prepare(query).get() as { n: number };
    db.close();
    return n;
  }
  const [row] = await queryPostgres<{ n: string }>(platform.databaseUrl, query);
  return Number(row!.n);
}
