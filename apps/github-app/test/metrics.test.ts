import { type MetricsServer, serveMetrics } from '@svc/server-kit';
import { removeTempDirs, scrapeMetrics } from '@svc/testkit';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { fixture, github, githubOnlyThroughNock, type RunningApp, startApp } from './harness.ts';
import { startWorld, type World } from './world.ts';

let world: World;
let app: RunningApp;
let metrics: MetricsServer;

beforeAll(async () => {
  githubOnlyThroughNock();
  world = await startWorld({ evalConcurrency: 0 });
  app = await startApp(world.platform);
  metrics = await serveMetrics(app.app.registry, { port: 0, host: '127.0.0.1', variable: 'GITHUB_APP_METRICS_PORT' });
});
afterEach(() => void nock.cleanAll());
afterAll(async () => {
  await metrics?.stop();
  await app?.stop();
  await world?.platform.stop();
  nock.enableNetConnect();
  removeTempDirs();
});

/** GitHub's rate limit headers, as its API sends them on every answer. */
const limit = (remaining: number, resource = 'core') => ({ 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-resource': resource });

it("counts the app's calls to GitHub by method and status, and keeps the rate limit GitHub's last answer left", async () => {
  const scope = github()
    .get('/repos/acme/shop/labels/service-flags')
    .reply(404, { message: 'Not Found' }, limit(4990))
    .post('/repos/acme/shop/labels')
    .reply(201, { name: 'service-flags' }, limit(4989))
    .get('/repos/acme/blog/labels/service-flags')
    .reply(200, { name: 'service-flags' }, limit(4988));
  expect((await app.deliver('installation', fixture('installation.created'))).status).toBe(200);
  expect(scope.pendingMocks()).toEqual([]);

  const scraped = await scrapeMetrics(metrics.url);
  const requests = (method: string, status: string) => scraped.value('svc_github_api_requests_total', { method, status });
  expect(requests('GET', '404')).toBe(1);
  expect(requests('GET', '200')).toBe(1);
  expect(requests('POST', '201')).toBe(2); // the label, and the installation's token Probot asked for first
  expect(scraped.value('svc_github_rate_limit_remaining', { resource: 'core' })).toBe(4988);
  expect(scraped.text).not.toContain('acme/shop');
});

it('times the webhooks it answered by route and status, a refused signature among them', async () => {
  const answered = async (method: string, route: string, status: string) =>
    (await scrapeMetrics(metrics.url)).value('svc_http_request_duration_seconds_count', { method, route, status }) ?? 0;
  const delivered = await answered('POST', '/github/webhooks', '200');
  expect((await app.deliver('installation', fixture('installation.deleted'), { signature: 'sha256=forged' })).status).toBe(401);
  expect((await app.deliver('installation', fixture('installation.deleted'))).status).toBe(200);
  expect((await fetch(`${app.url}/github/webhooks/other`)).status).toBe(404);
  // Counted as each answer is written, which the client may read first.
  await expect.poll(() => answered('POST', '/github/webhooks', '401')).toBe(1);
  await expect.poll(() => answered('POST', '/github/webhooks', '200')).toBe(delivered + 1);
  await expect.poll(() => answered('GET', 'unmatched', '404')).toBe(1);
});
