import { createLogger } from '@svc/server-kit';
import { startCore } from '@svc/test-platform';
import { request } from '@svc/testkit';
import { expect, it } from 'vitest';
import { createUserWithToken, startPlatform } from './platform.ts';

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

it('serves again as soon as core is back, without a gateway restart', async () => {
  const platform = await startPlatform();
  const token = await createUserWithToken(platform, 'ada@example.com');
  expect((await request(`${platform.url}/cli/whoami`, { token })).status).toBe(200);
  await platform.core.stop();
  expect((await request(`${platform.url}/cli/whoami`, { token })).status).toBe(503);
  const core = await startCore({
    dataDir: platform.dataDir,
    database: platform.databaseUrl ? { url: platform.databaseUrl } : undefined,
    port: Number(new URL(platform.core.url).port),
    secretKey: platform.secretKey,
    log: createLogger('core', { LOG_LEVEL: 'silent' }),
  });
  const whoami = await request(`${platform.url}/cli/whoami`, { token });
  expect(whoami.status).toBe(200);
  expect(whoami.body.user.email).toBe('ada@example.com');
  await core.stop();
  await platform.stop().catch(() => {});
});
