import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock, number, outboxSettled, type VerificationWorld, verificationWorld } from './setup.ts';

let world: VerificationWorld;
afterEach(() => world.stop());

const create = (phone = number, headers: Record<string, string> = {}) =>
  world.api('/api/v1/acme/phone_verifications', { json: { phone_number: phone }, headers });
const verify = (id: string, code: string, headers: Record<string, string> = {}) =>
  world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code }, headers });
const show = (id: string) => world.api(`/api/v1/acme/phone_verifications/${id}`);
const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

describe('pending → verified', () => {
  it('queues a code, delivers it through WhatsApp, and verifies it once', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now });
    const created = await create();
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ verification_id: expect.stringMatching(/^pv_/), expires_at: '2026-06-01T12:10:00.000Z' });

    const code = await world.deliveredCode(0);
    expect(code).toMatch(/^\d{6}$/);
    const id = created.body.verification_id;
    expect(await verify(id, code)).toMatchObject({ status: 200, body: { verified: true } });

    const again = await verify(id, code);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ verified: true, error: { code: 'already_verified' } });
    const view = await show(id);
    expect(view.body).toMatchObject({ status: 'verified', phone_number: number, test_number: false });
    expect(JSON.stringify(view.body)).not.toContain(code);
  });
});

describe('pending → pending on a wrong code → blocked', () => {
  it('counts down 4, 3, 2, 1, 0, then answers 423 even to the right code', async () => {
    world = await verificationWorld();
    const id = (await create()).body.verification_id;
    const code = await world.deliveredCode(0);
    const messages: string[] = [];
    for (const left of [4, 3, 2, 1, 0]) {
      const res = await verify(id, wrong(code));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ verified: false, attempts_left: left, error: { code: 'incorrect_code' } });
      messages.push(res.body.error.message);
    }
    expect(messages).toEqual([
      'wrong code; 4 attempts left',
      'wrong code; 3 attempts left',
      'wrong code; 2 attempts left',
      'wrong code; 1 attempt left',
      'wrong code; the verification is now blocked',
    ]);
    const blocked = await verify(id, code);
    expect(blocked.status).toBe(423);
    expect(blocked.body).toMatchObject({ verified: false, attempts_left: 0, error: { code: 'verification_blocked' } });
    expect((await show(id)).body).toMatchObject({ status: 'blocked', attempts_left: 0 });
  });
});

describe('resend', () => {
  it('sends one code when creates for one number arrive at once: the others wait for the resend', async () => {
    world = await verificationWorld();
    const { services } = world.platform.core;
    const workspace = await services.workspaces.resolve('acme', (await services.identity.authenticate(`Bearer ${world.token}`))!.user.id);
    // Started in one tick, as calls that reach core in one frame are.
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => services.verifications.create(workspace.id, number)));
    const created = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(created).toHaveLength(1);
    for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
      expect(outcome.reason).toMatchObject({ code: 'resend_too_soon', details: { verification_id: created[0]!.value.verification_id } });
    }
    await world.graph.waitForRequests(1);
    await outboxSettled(world.platform);
    expect(world.graph.requests).toHaveLength(1);
  });

  it('answers 429 with the same id during the wait, then sends a fresh code on the same id', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now });
    const first = await create();
    const firstCode = await world.deliveredCode(0);
    clock.advance(10);
    const early = await create();
    expect(early.status).toBe(429);
    expect(early.body).toMatchObject({
      verification_id: first.body.verification_id,
      expires_at: first.body.expires_at,
      retry_after_seconds: 20,
      error: { code: 'resend_too_soon' },
    });
    expect(early.headers.get('retry-after')).toBe('20');

    clock.advance(20);
    const resent = await create();
    expect(resent.status).toBe(201);
    expect(resent.body.verification_id).toBe(first.body.verification_id);
    expect(resent.body.expires_at).toBe('2026-06-01T12:10:30.000Z');
    const secondCode = await world.deliveredCode(1);
    const id = first.body.verification_id;
    if (secondCode !== firstCode) expect((await verify(id, firstCode)).status).toBe(422);
    expect((await verify(id, secondCode)).body).toEqual({ verified: true });
  });

  it('counts failed attempts across resends', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now });
    const id = (await create()).body.verification_id;
    for (let i = 0; i < 3; i++) await verify(id, '999999999');
    clock.advance(30);
    await create();
    const code = await world.deliveredCode(1);
    expect((await verify(id, wrong(code))).body.attempts_left).toBe(1);
    expect((await verify(id, wrong(code))).body.attempts_left).toBe(0);
    expect((await verify(id, code)).status).toBe(423);
  });

  it('starts a new verification once the pending one is verified, blocked or expired', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now });
    const verified = (await create()).body.verification_id;
    expect((await verify(verified, await world.deliveredCode(0))).status).toBe(200);
    clock.advance(31); // past the resend wait, which a new verification of the number still respects
    const blocked = (await create()).body.verification_id;
    expect(blocked).not.toBe(verified);
    const wrong = (await world.deliveredCode(1)) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await verify(blocked, wrong);
    expect((await show(blocked)).body.status).toBe('blocked');
    clock.advance(31);
    const expiring = (await create()).body.verification_id;
    expect([verified, blocked]).not.toContain(expiring);
    clock.advance(601); // past the code's lifetime
    const fresh = await create();
    expect(fresh.status).toBe(201);
    expect([verified, blocked, expiring]).not.toContain(fresh.body.verification_id);
  });
});

describe('expiry', () => {
  it('answers 410 after the lifetime, and shows the verification as expired', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now, otp: { ttlSeconds: 120 } });
    const created = await create();
    expect(created.body.expires_at).toBe('2026-06-01T12:02:00.000Z');
    const code = await world.deliveredCode(0);
    clock.advance(120);
    const late = await verify(created.body.verification_id, code);
    expect(late.status).toBe(410);
    expect(late.body).toMatchObject({ verified: false, error: { code: 'verification_expired' } });
    expect((await show(created.body.verification_id)).body.status).toBe('expired');
    const fresh = await create();
    expect(fresh.status).toBe(201);
    expect(fresh.body.verification_id).not.toBe(created.body.verification_id);
  });
});

describe('unknown ids', () => {
  it("answers 404 verification_not_found for an unknown id and for another workspace's id", async () => {
    world = await verificationWorld();
    const id = (await create()).body.verification_id;
    await world.api('/cli/workspaces', { json: { slug: 'other' } });
    await world.api('/api/developer/v1/other/sender', { method: 'PUT', json: { kind: 'dev' } });
    for (const res of [
      await verify('pv_nope', '123456'),
      await world.api(`/api/v1/other/phone_verifications/${id}/verify`, { json: { code: '123456' } }),
      await world.api(`/api/v1/other/phone_verifications/${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('verification_not_found');
    }
  });

  it('answers 404 workspace_not_found for a workspace the caller is not in', async () => {
    world = await verificationWorld();
    const res = await world.api('/api/v1/nobodys/phone_verifications', { json: { phone_number: number } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('workspace_not_found');
  });
});

describe('delivery status', () => {
  it('is queued at first and sent once the provider accepted the message', async () => {
    world = await verificationWorld();
    world.graph.queue({ status: 503, body: { error: { message: 'try later' } } });
    const id = (await create()).body.verification_id;
    expect((await show(id)).body.delivery).toMatchObject({ status: 'queued', error: null });
    await world.graph.waitForRequests(2);
    await expect.poll(async () => (await show(id)).body.delivery.status).toBe('sent');
  });
});
