import { request } from '@svc/testkit';
import { afterAll, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { evalsWorkspace, flaggedLiveRun, reportAll, salesAgent } from './setup.ts';

const platforms: TestPlatform[] = [];
afterAll(() => Promise.all(platforms.map((platform) => platform.stop())));

/** A flag on a reply whose note the reply already meets, and a run on live of the version that gave the reply. */
async function runOfFlaggedVersion(platform: TestPlatform, slug: string) {
  const ws = await evalsWorkspace(platform, slug);
  await ws.deploy('preview', salesAgent('Plans start at 12 USD.', { slug }));
  await ws.api('/publish', { json: {} });
  const { replyId } = await ws.say('what is the price?');
  const flag = await ws.api('/flags', { json: { message_id: replyId, note: 'Say "12 USD".' } });
  expect(flag.body.warning).toMatchObject({ code: 'reply_already_passes' });
  return { ws, flagId: flag.body.id, runId: (await ws.start({ environment: 'live' })).id };
}

it('a restart finishes a live run whose core stopped before its finish, and fixes flags a finished live run of a newer version left open', async () => {
  const first = await startPlatform({ evalConcurrency: 0 });
  platforms.push(first);
  const { store } = first.core.services;

  // Core stopped between the run's last report and its finish: every replay reported, the run open.
  const stopped = await flaggedLiveRun(first, 'stopped-mid-finish');
  await reportAll(store);
  // An earlier version finished the run, then stopped before fixing its flags.
  const earlier = await flaggedLiveRun(first, 'earlier-version');
  await reportAll(store);
  expect(await store.evalRuns.finish(earlier.runId, new Date().toISOString(), [])).toBe('finished');
  // Runs of the version that gave the flagged reply, one left unfinished and one finished: neither fixes its flag.
  const sameStopped = await runOfFlaggedVersion(first, 'same-stopped');
  await reportAll(store);
  const sameFinished = await runOfFlaggedVersion(first, 'same-finished');
  await reportAll(store);
  expect(await store.evalRuns.finish(sameFinished.runId, new Date().toISOString(), [])).toBe('finished');

  expect((await stopped.ws.evals(`/runs/${stopped.runId}`)).body).toMatchObject({ finished: false, done: 1 });
  expect((await earlier.ws.evals(`/runs/${earlier.runId}`)).body).toMatchObject({ finished: true, passed: 1 });
  for (const { ws, flagId } of [stopped, earlier]) expect((await ws.api(`/flags/${flagId}`)).body.status).toBe('open');

  await first.halt();
  const second = await startPlatform({
    dataDir: first.dataDir,
    databaseUrl: first.databaseUrl,
    secretKey: first.secretKey,
    evalConcurrency: 0,
  });
  platforms.push(second);
  for (const { ws, flagId, runId } of [stopped, earlier]) {
    const api = async (path: string) => (await request(`${second.url}/api/developer/v1/${ws.slug}${path}`, { token: ws.token })).body;
    // Core serves at once and repairs in the background: the run finishes, and with it its flag, soon after.
    await expect.poll(async () => (await api(`/evals/runs/${runId}`)).status).toBe('finished');
    await expect.poll(async () => (await api(`/flags/${flagId}`)).status).toBe('fixed');
    const run = await api(`/evals/runs/${runId}`);
    expect(run).toMatchObject({ finished: true, status: 'finished', passed: 1, version: { number: 2 } });
    const flag = await api(`/flags/${flagId}`);
    expect(flag).toMatchObject({ status: 'fixed', fixed_by_version: run.version });
    expect(flag.history.at(-1)).toMatchObject({ actor: 'svc', from_status: 'open', to_status: 'fixed' });
  }
  await second.core.repaired;
  for (const { ws, flagId, runId } of [sameStopped, sameFinished]) {
    const api = async (path: string) => (await request(`${second.url}/api/developer/v1/${ws.slug}${path}`, { token: ws.token })).body;
    expect(await api(`/evals/runs/${runId}`)).toMatchObject({ status: 'finished', passed: 1, version: { number: 1 } });
    expect(await api(`/flags/${flagId}`)).toMatchObject({ status: 'open', fixed_by_version: null, history: [{ to_status: 'open' }] });
  }
});
