import { internalTokenHeader } from '@svc/server-kit';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { expect, it } from 'vitest';
import type { AppRouter } from '../src/index.ts';
import { runningCore } from './running-core.ts';

const core = runningCore();
const call = (path: string, init: RequestInit = {}) =>
  fetch(`${core.url}${path}`, { ...init, headers: { [internalTokenHeader]: core.internalToken } });

it("speaks tRPC's httpLink protocol: queries, mutations, and formatted errors", async () => {
  const client = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${core.url}/trpc`, headers: { [internalTokenHeader]: core.internalToken } })],
  });
  expect(await client.health.ping.query()).toEqual({ ok: true });
  const error = await client.workspaces.create.mutate({ slug: 'acme' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TRPCClientError);
  expect((error as TRPCClientError<AppRouter>).data?.svc).toMatchObject({ code: 'unauthorized' });
});

it('answers malformed calls with a JSON error, never a crash', async () => {
  const unknown = await call(`/trpc/nope.nothing`);
  expect(unknown.status).toBe(404);
  expect(((await unknown.json()) as { error: { data: { code: string } } }).error.data.code).toBe('NOT_FOUND');
  const badJson = await call(`/trpc/workspaces.create`, { method: 'POST', body: '{nope' });
  expect(badJson.status).toBe(400);
  const badQuery = await call(`/trpc/health.ping?input=%7B`);
  expect(badQuery.status).toBe(400);
  const wrongMethod = await call(`/trpc/workspaces.create`);
  expect(wrongMethod.status).toBeGreaterThanOrEqual(400);
  expect(wrongMethod.status).toBeLessThan(500);
  const badPath = await call(`/trpc/%E0`);
  expect(badPath.status).toBeGreaterThanOrEqual(400);
  expect(badPath.status).toBeLessThan(500);
  expect((await fetch(`${core.url}/healthz`)).status).toBe(200);
});
