/**
 * A live run's finish and its flag fixes are one transaction: core killed with SIGKILL inside it leaves neither, and
 * a restart writes both. Core, gateway and eval runner run as processes on PostgreSQL; a row lock the test holds on
 * the flag stops core's finish in the middle, where the kill lands.
 */
import { appEntry, startProcesses } from '@svc/test-platform';
import {
  createPostgresDatabase,
  dropPostgresDatabases,
  holdLock,
  lockWaits,
  queryPostgres,
  removeTempDirs,
  request,
  startApp,
  stopProcesses,
  tempDir,
  waitUntilAnswering,
} from '@svc/testkit';
import { afterAll, expect, it } from 'vitest';
import { salesAgent } from '../evals/setup.ts';

afterAll(async () => {
  await stopProcesses();
  await dropPostgresDatabases();
  removeTempDirs();
});

it('a core killed inside a live run’s finish leaves the run open and the flag open; restarted, it writes both', async () => {
  const databaseUrl = await createPostgresDatabase();
  const processes = await startProcesses({ store: { databaseUrl }, cores: 1, gateways: 1 });
  const [core] = processes.cores as [(typeof processes.cores)[0]];
  const gateway = processes.gateways[0]!.url;
  const runner = startApp(appEntry('eval-runner'), { CORE_URLS: core.url, SVC_SECRET_KEY: processes.secretKey, LOG_LEVEL: 'info' });
  await runner.waitForOutput('connected to core');
  const call = (path: string, json?: unknown) => request(`${gateway}${path}`, { token: processes.token, json });
  const api = (path: string, json?: unknown) => call(`/api/developer/v1/acme${path}`, json);

  expect((await call('/cli/workspaces', { slug: 'acme' })).status).toBe(201);
  expect((await api('/deployments', { environment: 'preview', files: salesAgent('Plans start at 10 USD.') })).status).toBe(201);
  expect((await api('/publish', {})).status).toBe(200);
  const chat = await call('/api/v1/acme/chats', { agent: 'sales' });
  const reply = await call(`/api/v1/acme/chats/${chat.body.chat_id}/messages`, { text: 'what is the price?' });
  const flag = await api('/flags', { message_id: reply.body.message_id, note: 'Say "12 USD".' });
  expect(flag.status).toBe(201);
  expect((await api('/deployments', { environment: 'preview', files: salesAgent('Plans start at 12 USD.') })).status).toBe(201);

  const lock = await holdLock(databaseUrl, 'select 1 from flags where id = $1 for update', [flag.body.id]);
  const published = await api('/publish', {});
  const runId = published.body.eval_run_id as string;
  expect(runId).toEqual(expect.any(String));
  // Every replay reported, and core's finish waiting for the flag's row: the run's update made, not committed.
  await expect.poll(() => lockWaits(databaseUrl, 'update "flags"'), { timeout: 30_000 }).toBe(1);
  await core.app.stop('SIGKILL');
  await lock.release();

  // Neither half: the run is open with its replays all reported, the flag open.
  const statusOf = async (table: string, id: string) =>
    (await queryPostgres<{ status: string }>(databaseUrl, `select status from ${table} where id = $1`, [id]))[0]!.status;
  expect(await statusOf('eval_runs', runId)).toBe('running');
  expect(await statusOf('flags', flag.body.id)).toBe('open');

  // The same core again, on the same port: at start it finishes the run with its flag fixed.
  const restarted = startApp(appEntry('core'), {
    SVC_SECRET_KEY: processes.secretKey,
    SVC_DATABASE_URL: databaseUrl,
    SVC_DATA_DIR: tempDir(),
    CORE_PORT: new URL(core.url).port,
    LOG_LEVEL: 'info',
  });
  await restarted.waitForOutput('finished eval runs and fixed flags', { timeoutMs: 30_000 });
  await waitUntilAnswering(`${core.url}/healthz`);
  const finished = (await api(`/evals/runs/${runId}`)).body;
  expect(finished).toMatchObject({ finished: true, passed: 1, version: { number: 2 } });
  expect((await api(`/flags/${flag.body.id}`)).body).toMatchObject({ status: 'fixed', fixed_by_version: finished.version });
});
