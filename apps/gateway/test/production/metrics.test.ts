/**
 * Production mode as processes, each its own `src/main.ts` with its `<APP>_METRICS_PORT` set: core and gateway on
 * SQLite, codes going to a fake WhatsApp Cloud API, and an eval runner. Each serves its metrics on a port of its own,
 * scraped as Prometheus does; the public port serves none. A request's id reaches core's log.
 */
import {
  freePort,
  type FakeProvider,
  graphAccepted,
  removeTempDirs,
  request,
  scrapeMetrics,
  startApp,
  startFakeProvider,
  stopProcesses,
  tempDir,
  waitUntilAnswering,
} from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appEntry, type Processes, startProcesses } from '@svc/test-platform';
import { salesAgent } from '../evals/setup.ts';

let graph: FakeProvider;
let processes: Processes;
const metricsPorts = { core: 0, gateway: 0, evalRunner: 0 };
const metricsUrl = (app: keyof typeof metricsPorts) => `http://127.0.0.1:${metricsPorts[app]}/metrics`;

beforeAll(async () => {
  graph = await startFakeProvider(graphAccepted);
  for (const app of ['core', 'gateway', 'evalRunner'] as const) metricsPorts[app] = await freePort();
  processes = await startProcesses({
    store: { dataDir: tempDir() },
    cores: 1,
    gateways: 1,
    coreEnv: () => ({ CORE_METRICS_PORT: String(metricsPorts.core), WHATSAPP_GRAPH_URL: graph.url, LOG_LEVEL: 'info' }),
    gatewayEnv: { GATEWAY_METRICS_PORT: String(metricsPorts.gateway) },
  });
  const runner = startApp(appEntry('eval-runner'), {
    CORE_URLS: processes.cores[0]!.url,
    SVC_SECRET_KEY: processes.secretKey,
    EVAL_RUNNER_METRICS_PORT: String(metricsPorts.evalRunner),
    LOG_LEVEL: 'info',
  });
  await runner.waitForOutput('metrics served');
  await Promise.all([waitUntilAnswering(metricsUrl('core')), waitUntilAnswering(metricsUrl('gateway'))]);
});
afterAll(async () => {
  await stopProcesses();
  await graph.close();
  removeTempDirs();
});

const gateway = () => processes.gateways[0]!.url;
const call = (path: string, init: { json?: unknown; method?: string; headers?: Record<string, string> } = {}) =>
  request(`${gateway()}${path}`, { token: processes.token, ...init });

it('each serves its metrics on its own port of 127.0.0.1, counting what the requests made it do; the public port serves none', async () => {
  expect((await call('/cli/workspaces', { json: { slug: 'acme' } })).status).toBe(201);
  const sender = {
    kind: 'whatsapp_cloud',
    phone_number_id: '1234567890',
    access_token: 'EAAG-token',
    app_secret: 'secret',
    template: 'otp_code',
    language: 'en_US',
  };
  expect((await call('/api/developer/v1/acme/sender', { method: 'PUT', json: sender })).status).toBe(200);
  expect((await call('/api/v1/acme/phone_verifications', { json: { phone_number: '+56912345678' } })).status).toBe(201);
  expect((await call('/api/v1/acme/phone_verifications', { json: { phone_number: '12' } })).status).toBe(400);

  const route = '/api/v1/:slug/phone_verifications';
  const answers = async (status: string) =>
    (await scrapeMetrics(metricsUrl('gateway'))).value('svc_http_request_duration_seconds_count', { method: 'POST', route, status });
  await expect.poll(() => answers('201')).toBe(1);
  await expect.poll(() => answers('400')).toBe(1);
  expect((await request(`${gateway()}/metrics`)).status).toBe(404);

  // The code is delivered: core's outbox is empty again, and its call was timed.
  await graph.waitForRequests(1);
  await expect.poll(async () => (await scrapeMetrics(metricsUrl('core'))).value('svc_outbox_pending', { outbox: 'messages' })).toBe(0);
  const core = await scrapeMetrics(metricsUrl('core'));
  expect(core.value('svc_core_call_duration_seconds_count', { procedure: 'verifications.create', outcome: 'ok' })).toBe(1);
  expect(core.text).not.toContain('EAAG-token');
  expect(core.text).not.toContain('+56912345678');
});

it("carries a request's id from the gateway onto core's log lines, and the runner's ids onto its own", async () => {
  expect(
    (await call('/api/developer/v1/acme/deployments', { json: { environment: 'preview', files: salesAgent('Plans start at 12 USD.') } }))
      .status,
  ).toBe(201);
  expect(
    (
      await call('/api/developer/v1/acme/evals/cases', {
        json: { agent: 'sales', turns: ['what is the price?'], expected: 'Says "12 USD".' },
      })
    ).status,
  ).toBe(201);
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const started = await call('/api/developer/v1/acme/evals/runs', {
    json: {},
    headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, 'x-request-id': 'abc-123' },
  });
  expect(started.status).toBe(202);
  expect(started.headers.get('x-request-id')).toBe(traceId);

  const coreLines = () =>
    processes.cores[0]!.app.output('stdout')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; request_id?: string; run?: string });
  await expect
    .poll(() => coreLines().find((line) => line.msg === 'eval run started'))
    .toMatchObject({ request_id: traceId, run: started.body.id });
  await expect
    .poll(() => coreLines().find((line) => line.msg === 'eval run finished'))
    .toMatchObject({ request_id: expect.stringMatching(/^[\da-f]{32}$/) });

  // The runner's replay called the agent's model; core recorded its report.
  const runner = await scrapeMetrics(metricsUrl('evalRunner'));
  expect(runner.value('svc_model_call_duration_seconds_count', { provider: 'scripted', purpose: 'agent', outcome: 'ok' })).toBe(1);
  const core = await scrapeMetrics(metricsUrl('core'));
  expect(core.value('svc_eval_executions_finished_total', { verdict: 'pass' })).toBe(1);
});
