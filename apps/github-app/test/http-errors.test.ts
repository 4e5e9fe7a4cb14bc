import { removeTempDirs } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sign, type RunningApp, startApp } from './harness.ts';
import { startWorld, type World } from './world.ts';

let world: World;
let app: RunningApp;

beforeAll(async () => {
  world = await startWorld({ evalConcurrency: 0 });
  app = await startApp(world.platform);
});
afterAll(async () => {
  await app?.stop();
  await world?.platform.stop();
  removeTempDirs();
});

/** A request to the app, its answer's status, `Allow` and body. */
async function send(path: string, init: RequestInit = {}) {
  const response = await fetch(`${app.url}${path}`, init);
  return { status: response.status, allow: response.headers.get('allow'), body: (await response.json()) as { error?: { code: string } } };
}

const signed = (body: string, headers: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(body), ...headers },
  body,
});

it('answers every refusal in our error shape: unknown routes 404, wrong methods 405 with Allow', async () => {
  expect(await send('/nope')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
  expect(await send('/github/webhooks')).toMatchObject({ status: 405, allow: 'POST', body: { error: { code: 'method_not_allowed' } } });
  expect(await send('/healthz', { method: 'DELETE' })).toMatchObject({ status: 405, allow: 'GET, HEAD' });
  expect(await send('/healthz?probe=1')).toMatchObject({ status: 200, body: { status: 'ok' } });
});

it('refuses a signed delivery without the headers GitHub always sends, or whose body is not JSON, with 400', async () => {
  const body = JSON.stringify({ action: 'opened' });
  const noEvent = await send('/github/webhooks', signed(body, { 'x-github-delivery': 'd-1' }));
  expect(noEvent).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
  const noDelivery = await send('/github/webhooks', signed(body, { 'x-github-event': 'pull_request' }));
  expect(noDelivery).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
  const notJson = await send('/github/webhooks', signed('{"action":', { 'x-github-event': 'pull_request', 'x-github-delivery': 'd-2' }));
  expect(notJson).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
});
