import type { AppRouter } from '@svc/core-client';
import { internalTokenHeader } from '@svc/server-kit';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { evalsWorkspace, salesAgent } from './setup.ts';

// A runner's lease request waits for work; one whose runner has gone must take none.

describe('a lease request whose runner hung up', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform({ evalConcurrency: 0 });
  });
  afterAll(() => platform.stop());

  const runnerClient = () =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${platform.core.url}/trpc`, headers: { [internalTokenHeader]: platform.internalToken } })],
    });

  it('takes nothing once its runner is gone: the next runner leases every execution at once', async () => {
    const ws = await evalsWorkspace(platform, 'hung-up');
    await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug: 'hung-up' }));
    await ws.addCase(['what is the price?'], 'Says "12 USD".');
    await ws.addCase(['hello'], 'Says "hello".');

    const gone = new AbortController();
    const waiting = runnerClient().evalWork.lease.mutate({ runner: 'gone', max: 8, wait_ms: 20_000 }, { signal: gone.signal });
    // A round trip through core while the lease request waits there; then its runner goes.
    expect((await ws.evals('/runs')).body.runs).toEqual([]);
    gone.abort();
    await expect(waiting).rejects.toThrow();

    const started = await ws.evals('/runs', { json: {} });
    expect(started.status).toBe(202);
    const lease = await runnerClient().evalWork.lease.mutate({ runner: 'next', max: 8, wait_ms: 0 });
    expect(lease.executions.map((e) => e.run_id)).toEqual([started.body.id, started.body.id]);
  });
});
