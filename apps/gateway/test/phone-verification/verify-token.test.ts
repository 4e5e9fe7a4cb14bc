import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from '@svc/testkit';
import { afterEach, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../platform.ts';
import { type VerificationWorld, verificationWorld } from './setup.ts';

const verifyToken = 'let-me-in-please-0xC0FFEE';
const sender = {
  kind: 'whatsapp_cloud',
  phone_number_id: '1234567890',
  access_token: 't',
  template: 'otp_code',
  webhook_verify_token: verifyToken,
};

let world: VerificationWorld | undefined;
let restarted: TestPlatform | undefined;
afterEach(async () => {
  await restarted?.stop();
  await world?.stop();
  world = restarted = undefined;
});

/** What the database files hold, as text. */
function onDisk(dataDir: string): string {
  return ['svc.db', 'svc.db-wal']
    .map((file) => {
      try {
        return readFileSync(join(dataDir, file)).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('');
}

const challenge = (platform: TestPlatform, token: string) =>
  request(`${platform.url}/webhooks/whatsapp/acme?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`);

it('keeps the webhook verify token as a secret: never returned, only said to be set, and sealed on disk', async () => {
  world = await verificationWorld();
  const put = await world.api('/api/developer/v1/acme/sender', { method: 'PUT', json: sender });
  const get = await world.api('/api/developer/v1/acme/sender');
  for (const answer of [put, get]) {
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).not.toContain(verifyToken);
    expect(answer.body.secrets_set).toEqual(['access_token', 'webhook_verify_token']);
    expect(answer.body.config).toEqual({ phone_number_id: '1234567890', template: 'otp_code', language: 'en_US' });
  }
  expect(await challenge(world.platform, verifyToken)).toMatchObject({ status: 200, body: '1158201444' });
  expect((await challenge(world.platform, 'let-me-in-please-0xC0FFEF')).status).toBe(403);
  await world.platform.halt();
  expect(onDisk(world.platform.dataDir)).not.toContain(verifyToken);
});

it('seals a verify token an earlier version kept in the clear, at the next start, and still answers Meta with it', async () => {
  world = await verificationWorld();
  const { store } = world.platform.core.services;
  const workspace = await store.workspaces.findBySlug('acme');
  const before = await store.senders.get(workspace!.id);
  // As an earlier version stored it: the verify token in the clear config.
  await store.senders.put({ ...before!, config: { ...before!.config, webhook_verify_token: verifyToken } });
  expect((await world.api('/api/developer/v1/acme/sender')).body.config.webhook_verify_token).toBe(verifyToken);
  await world.platform.halt();

  restarted = await startPlatform({
    dataDir: world.platform.dataDir,
    databaseUrl: world.platform.databaseUrl,
    secretKey: world.platform.secretKey,
  });
  const after = await restarted.core.services.store.senders.get(workspace!.id);
  expect(after?.config).not.toHaveProperty('webhook_verify_token');
  expect(after?.updatedAt).toBe(before?.updatedAt);
  const view = await request(`${restarted.url}/api/developer/v1/acme/sender`, { token: world.token });
  expect(JSON.stringify(view.body)).not.toContain(verifyToken);
  expect(view.body.secrets_set).toEqual(['access_token', 'app_secret', 'webhook_verify_token']);
  expect(await challenge(restarted, verifyToken)).toMatchObject({ status: 200, body: '1158201444' });
});
