import { request, scrapeMetrics } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';

let platform: TestPlatform;
let token: string;
beforeAll(async () => {
  platform = await startPlatform({ localMode: true, metrics: true });
  token = await createUserWithToken(platform, 'ada@example.com');
  expect((await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme' } })).status).toBe(201);
});
afterAll(() => platform.stop());

const verifications = '/api/v1/acme/phone_verifications';
const create = (phone_number: string) => request(`${platform.url}${verifications}`, { token, json: { phone_number } });
const answers = (labels: Record<string, string>) => async () =>
  (await scrapeMetrics(platform.metricsUrls!.gateway)).value('svc_http_request_duration_seconds_count', labels);

describe("the gateway's metrics", () => {
  it('count its answers by route pattern, method and status, with no id or slug of the path in them', async () => {
    const created = await create('+56912345678');
    expect(created.status).toBe(201);
    expect((await create('+56912345679')).status).toBe(201);
    expect((await create('not a phone number')).status).toBe(400);
    const shown = await request(`${platform.url}${verifications}/${created.body.verification_id}`, { token });
    expect(shown.status).toBe(200);

    const route = '/api/v1/:slug/phone_verifications';
    await expect.poll(answers({ method: 'POST', route, status: '201' })).toBe(2);
    await expect.poll(answers({ method: 'POST', route, status: '400' })).toBe(1);
    await expect.poll(answers({ method: 'GET', route: `${route}/:id`, status: '200' })).toBe(1);
    const scraped = await scrapeMetrics(platform.metricsUrls!.gateway);
    // Routers mounted below a path name their routes in full.
    expect(scraped.text).not.toContain(created.body.verification_id);
    expect(scraped.text).not.toContain('/api/v1/acme');
    // The process's own metrics come with them.
    expect(scraped.value('process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('are not on the public port: there /metrics is a route like any unknown one, answered 404 and counted as unmatched', async () => {
    const publicMetrics = await request(`${platform.url}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(publicMetrics.body).toMatchObject({ error: { code: 'not_found' } });
    expect((await request(`${platform.url}/metrics`, { method: 'POST', body: '' })).status).toBe(404);
    await expect.poll(answers({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    await expect.poll(answers({ method: 'POST', route: 'unmatched', status: '404' })).toBe(1);
    expect(new URL(platform.metricsUrls!.gateway).port).not.toBe(new URL(platform.url).port);
  });

  it("name a route of a router mounted below a path in full: the dev outbox's, the webhooks'", async () => {
    expect((await request(`${platform.url}/dev/outbox.json`)).status).toBe(200);
    await expect.poll(answers({ method: 'GET', route: '/dev/outbox.json', status: '200' })).toBe(1);
    // An error a route passes on is answered outside its router.
    const webhook = await request(`${platform.url}/webhooks/whatsapp/acme?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`);
    expect(webhook.status).toBe(403);
    await expect.poll(answers({ method: 'GET', route: '/webhooks/whatsapp/:workspace', status: '403' })).toBe(1);
  });
});

describe("core's metrics", () => {
  it('time each call by procedure and outcome: ok, or the error code the caller was answered', async () => {
    await create('+56912345670');
    const missing = await request(`${platform.url}${verifications}/pv_missing`, { token });
    expect(missing.status).toBe(404);
    const calls = async (labels: Record<string, string>) =>
      (await scrapeMetrics(platform.metricsUrls!.core)).value('svc_core_call_duration_seconds_count', labels);
    await expect.poll(() => calls({ procedure: 'verifications.create', outcome: 'ok' })).toBeGreaterThanOrEqual(3);
    await expect.poll(() => calls({ procedure: 'verifications.get', outcome: missing.body.error.code })).toBe(1);
  });

  it("tell the PostgreSQL pool's connections on PostgreSQL, and nothing of a pool on SQLite", async () => {
    const scraped = await scrapeMetrics(platform.metricsUrls!.core);
    if (platform.databaseUrl) {
      expect(scraped.value('svc_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(scraped.value('svc_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
      expect(scraped.value('svc_db_pool_waiting')).toBe(0);
    } else {
      expect(scraped.series('svc_db_pool_connections')).toEqual([]);
      expect(scraped.series('svc_db_pool_waiting')).toEqual([]);
    }
  });
});
