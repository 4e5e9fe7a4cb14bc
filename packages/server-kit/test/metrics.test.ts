import { Counter, Registry } from 'prom-client';
import { expect, it } from 'vitest';
import { ConfigError, serveMetrics } from '../src/index.ts';

it('serves the registry and the process metrics at GET /metrics on its own port, and nothing else there', async () => {
  const registry = new Registry();
  new Counter({ name: 'svc_test_things_total', help: 'things', registers: [registry] }).inc(3);
  const metrics = await serveMetrics(registry, { port: 0, host: '127.0.0.1', variable: 'TEST_METRICS_PORT' });
  try {
    expect(metrics.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const scraped = await fetch(metrics.url);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await scraped.text();
    expect(text).toContain('svc_test_things_total 3');
    expect(text).toContain('process_cpu_seconds_total');
    expect((await fetch(metrics.url.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(metrics.url, { method: 'POST' })).status).toBe(404);
  } finally {
    await metrics.stop();
  }
});

it('names its variable when the port is taken', async () => {
  const first = await serveMetrics(new Registry(), { port: 0, host: '127.0.0.1', variable: 'TEST_METRICS_PORT' });
  const port = Number(new URL(first.url).port);
  try {
    const second = serveMetrics(new Registry(), { port, host: '127.0.0.1', variable: 'CORE_METRICS_PORT' });
    await expect(second).rejects.toThrow(ConfigError);
    await expect(second).rejects.toThrow(`CORE_METRICS_PORT: port ${port} is already in use`);
  } finally {
    await first.stop();
  }
});
