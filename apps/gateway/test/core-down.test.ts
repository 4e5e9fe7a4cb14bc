import { request, startPlatform } from '@svc/testkit';
import { expect, it } from 'vitest';

it('answers 503 core_unavailable, on /healthz and on the API, when core is down', async () => {
  const platform = await startPlatform();
  await platform.core.stop();
  const health = await request(`${platform.url}/healthz`);
  expect(health.status).toBe(503);
  expect(health.body.error.code).toBe('core_unavailable');
  const list = await request(`${platform.url}/cli/workspaces`, { token: 'svc_whatever' });
  expect(list.status).toBe(503);
  await platform.stop().catch(() => {});
});
