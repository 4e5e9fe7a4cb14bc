import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from '@svc/testkit';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { number, outboxSettled, type VerificationWorld, verificationWorld } from './setup.ts';

let world: VerificationWorld | undefined;
let platform: TestPlatform | undefined;
afterEach(async () => {
  await world?.stop();
  await platform?.stop();
  world = undefined;
  platform = undefined;
});

describe('senders', () => {
  it('never returns a secret, and keeps none in the clear on disk', async () => {
    world = await verificationWorld();
    const view = await world.api('/api/developer/v1/acme/sender');
    expect(view.status).toBe(200);
    expect(view.body).toEqual({
      kind: 'whatsapp_cloud',
      config: { phone_number_id: '1234567890', template: 'otp_code', language: 'en_US' },
      secrets_set: ['access_token', 'app_secret'],
      webhook_url: `${world.platform.url}/webhooks/whatsapp/acme`,
      updated_at: expect.any(String),
    });
    const code = await (async () => {
      await world!.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } });
      return world!.deliveredCode(0);
    })();
    await world.platform.halt();
    const disk = ['svc.db', 'svc.db-wal']
      .map((f) => {
        try {
          return readFileSync(join(world!.platform.dataDir, f)).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    expect(disk).not.toContain('EAAG-secret-access-token');
    expect(disk).not.toContain('meta-app-secret');
    // Anywhere, in any column or encoding of it: only a longer run of digits may hold these six by chance.
    expect(disk).not.toMatch(new RegExp(`(?<![0-9])${code}(?![0-9])`));
  });

  it('rejects an incomplete sender config naming the field', async () => {
    world = await verificationWorld();
    const res = await world.api('/api/developer/v1/acme/sender', {
      method: 'PUT',
      json: { kind: 'whatsapp_cloud', phone_number_id: '1234567890' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'access_token' });
    const unknownKind = await world.api('/api/developer/v1/acme/sender', { method: 'PUT', json: { kind: 'carrier_pigeon' } });
    expect(unknownKind.body.error).toMatchObject({ code: 'invalid_request', field: 'kind' });
  });

  it('answers 409 sender_not_configured for a workspace without one, outside local mode', async () => {
    platform = await startPlatform();
    const token = await createUserWithToken(platform, 'ada@example.com');
    await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'bare' } });
    const res = await request(`${platform.url}/api/v1/bare/phone_verifications`, { token, json: { phone_number: number } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('sender_not_configured');
    expect((await request(`${platform.url}/api/developer/v1/bare/sender`, { token })).status).toBe(409);
  });
});

describe('test numbers', () => {
  it('take a fixed code, send nothing, and verify like any other', async () => {
    world = await verificationWorld();
    const put = await world.api('/api/developer/v1/acme/test_numbers', {
      method: 'PUT',
      json: { test_numbers: [{ phone_number: '+56900000001', code: '424242' }] },
    });
    expect(put.body).toEqual({ test_numbers: [{ phone_number: '+56900000001' }] });
    const created = await world.api('/api/v1/acme/phone_verifications', { json: { phone_number: '+56900000001' } });
    expect(created.status).toBe(201);
    const id = created.body.verification_id;
    expect((await world.api(`/api/v1/acme/phone_verifications/${id}`)).body).toMatchObject({
      test_number: true,
      delivery: { status: 'not_sent' },
    });
    expect((await world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code: '000000' } })).body.attempts_left).toBe(4);
    expect((await world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code: '424242' } })).body).toEqual({
      verified: true,
    });
    await outboxSettled(world.platform); // a test number queues nothing, so nothing is left to send
    expect(world.graph.requests).toHaveLength(0);
  });

  it('apply from the next create on, when added and when removed', async () => {
    world = await verificationWorld();
    const setTestNumbers = (test_numbers: { phone_number: string; code: string }[]) =>
      world!.api('/api/developer/v1/acme/test_numbers', { method: 'PUT', json: { test_numbers } });
    const createFor = async (phone_number: string) =>
      (await world!.api('/api/v1/acme/phone_verifications', { json: { phone_number } })).body.verification_id as string;
    const isTest = async (id: string) => (await world!.api(`/api/v1/acme/phone_verifications/${id}`)).body.test_number;

    expect(await isTest(await createFor('+56900000001'))).toBe(false);
    await setTestNumbers([
      { phone_number: '+56900000002', code: '424242' },
      { phone_number: '+56900000003', code: '434343' },
    ]);
    expect(await isTest(await createFor('+56900000002'))).toBe(true);
    await setTestNumbers([]);
    expect(await isTest(await createFor('+56900000003'))).toBe(false);
  });
});

describe('dev sender (local mode)', () => {
  it('keeps messages in the dev outbox, as JSON and as a page', async () => {
    platform = await startPlatform({ localMode: true });
    const token = await createUserWithToken(platform, 'ada@example.com');
    await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'local' } });
    const created = await request(`${platform.url}/api/v1/local/phone_verifications`, { token, json: { phone_number: number } });
    expect(created.status).toBe(201);
    await expect.poll(async () => (await request(`${platform!.url}/dev/outbox.json`)).body.messages.length).toBe(1);
    const [message] = (await request(`${platform.url}/dev/outbox.json`)).body.messages;
    expect(message).toMatchObject({ to: number, verification_id: created.body.verification_id });
    const code = /\b(\d{6})\b/.exec(message.body)![1]!;
    const verified = await request(`${platform.url}/api/v1/local/phone_verifications/${created.body.verification_id}/verify`, {
      token,
      json: { code },
    });
    expect(verified.body).toEqual({ verified: true });
    const page = await request(`${platform.url}/dev/outbox`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain(`<code class="otp">${code}</code>${message.body.slice(code.length)}`); // the message opens with its code
  });

  it('does not exist outside local mode', async () => {
    platform = await startPlatform();
    expect((await request(`${platform.url}/dev/outbox.json`)).status).toBe(404);
  });
});

describe('roles', () => {
  it('lets a supervisor read but not change the sender or the test numbers', async () => {
    world = await verificationWorld();
    const { store, identity } = world.platform.core.services;
    const sam = await identity.findOrCreateUser('sam@example.com');
    const workspace = await store.workspaces.findBySlug('acme');
    await store.workspaces.addMember(workspace!.id, sam.id, 'supervisor', new Date().toISOString());
    const token = (await identity.issueToken(sam.id, 'sam')).token;
    const as = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${world!.platform.url}${path}`, { token, ...init });
    expect((await as('/api/developer/v1/acme/sender')).status).toBe(200);
    const put = await as('/api/developer/v1/acme/sender', { method: 'PUT', json: { kind: 'dev' } });
    expect(put.status).toBe(403);
    expect(put.body.error.code).toBe('forbidden');
    const numbers = await as('/api/developer/v1/acme/test_numbers', { method: 'PUT', json: { test_numbers: [] } });
    expect(numbers.status).toBe(403);
  });
});
