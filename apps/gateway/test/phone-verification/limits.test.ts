import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock, number, outboxSettled, type VerificationWorld, verificationWorld } from './setup.ts';

let world: VerificationWorld;
afterEach(() => world.stop());

const create = (phone = number, headers: Record<string, string> = {}) =>
  world.api('/api/v1/acme/phone_verifications', { json: { phone_number: phone }, headers });

describe('send limits', () => {
  it('allows 5 sends per number per 10 minutes, then 429 with Retry-After until the oldest leaves the window', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now });
    // Each code delivered before the next send: a resend supersedes a code still queued, which is then never sent.
    for (let i = 0; i < 5; i++) {
      expect((await create()).status).toBe(201);
      await world.graph.waitForRequests(i + 1);
      clock.advance(30);
    }
    const limited = await create();
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { code: 'send_limit_exceeded' }, retry_after_seconds: 450 });
    expect(limited.headers.get('retry-after')).toBe('450');
    expect((await create('+56987654321')).status).toBe(201);
    await world.graph.waitForRequests(6);
    clock.advance(450);
    expect((await create()).status).toBe(201);
    await world.graph.waitForRequests(7);
  });

  it('caps sends per workspace per hour', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now, otp: { workspaceHourlyLimit: 3 } });
    for (const phone of ['+56911111111', '+56922222222', '+56933333333']) expect((await create(phone)).status).toBe(201);
    clock.advance(60);
    const capped = await create('+56944444444');
    expect(capped.status).toBe(429);
    expect(capped.body.error.code).toBe('send_limit_exceeded');
    expect(capped.headers.get('retry-after')).toBe('3540');
  });

  it('holds the hourly cap exactly when creates arrive at once', async () => {
    world = await verificationWorld({ otp: { workspaceHourlyLimit: 3 } });
    const { services } = world.platform.core;
    const user = (await services.identity.authenticate(`Bearer ${world.token}`))!.user;
    const workspace = await services.workspaces.resolve('acme', user.id);
    // Started in one tick, as calls that reach core in one frame are; each to its own number.
    const numbers = ['+56911111111', '+56922222222', '+56933333333', '+56944444444', '+56955555555', '+56966666666'];
    const outcomes = await Promise.allSettled(numbers.map((phone) => services.verifications.create(workspace.id, phone)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
      expect(outcome.reason).toMatchObject({ code: 'send_limit_exceeded', details: { retry_after_seconds: expect.any(Number) } });
    }
    await world.graph.waitForRequests(3);
    await outboxSettled(world.platform);
    expect(world.graph.requests).toHaveLength(3);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer to a retried create without sending again', async () => {
    world = await verificationWorld();
    const first = await create(number, { 'idempotency-key': 'create-1' });
    const retry = await create(number, { 'idempotency-key': 'create-1' });
    expect(retry).toMatchObject({ status: 201, body: first.body });
    await world.graph.waitForRequests(1);
    await outboxSettled(world.platform);
    expect(world.graph.requests).toHaveLength(1);
    const otherKey = await create(number, { 'idempotency-key': 'create-2' });
    expect(otherKey.status).toBe(429);
  });

  it('replays a wrong-code answer without spending another attempt', async () => {
    world = await verificationWorld();
    const id = (await create()).body.verification_id;
    const code = await world.deliveredCode(0);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const verify = (c: string, key?: string) =>
      world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code: c }, headers: key ? { 'idempotency-key': key } : {} });
    expect((await verify(wrongCode, 'v-1')).body.attempts_left).toBe(4);
    const replay = await verify(wrongCode, 'v-1');
    expect(replay).toMatchObject({ status: 422, body: { attempts_left: 4 } });
    expect((await verify(wrongCode)).body.attempts_left).toBe(3);
    const reused = await verify(code, 'v-1');
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    expect((await verify(code, 'v-2')).body).toEqual({ verified: true });
    expect(await verify(code, 'v-2')).toMatchObject({ status: 200, body: { verified: true } });
  });

  it('answers a 429 afresh: a retry with the same key after the wait succeeds', async () => {
    const clock = fakeClock();
    world = await verificationWorld({ clock: clock.now });
    await create();
    const early = await create(number, { 'idempotency-key': 'later' });
    expect(early.status).toBe(429);
    clock.advance(30);
    const retry = await create(number, { 'idempotency-key': 'later' });
    expect(retry.status).toBe(201);
    expect(await create(number, { 'idempotency-key': 'later' })).toMatchObject({ status: 201, body: retry.body });
  });

  it('answers 409 idempotency_key_in_progress with Retry-After while another request runs under the key, then its answer', async () => {
    world = await verificationWorld();
    const { services } = world.platform.core;
    const workspace = await services.store.workspaces.findBySlug('acme');
    // A create under the key that has not answered yet, as one on another core that is slow to.
    let finish!: () => void;
    const running = services.idempotency.run(
      { workspaceId: workspace!.id, operation: 'verifications.create', key: 'slow', request: number },
      async () => {
        const created = await services.verifications.create(workspace!.id, number, 'slow');
        await new Promise<void>((resolve) => (finish = resolve));
        return created;
      },
    );
    await expect.poll(() => typeof finish).toBe('function');
    const started = performance.now();
    const retry = await create(number, { 'idempotency-key': 'slow' });
    expect(retry.status).toBe(409);
    expect(retry.body.error.code).toBe('idempotency_key_in_progress');
    expect(Number(retry.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // It waited for the answer a while (2 s), not for the claim to end.
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_000);
    finish();
    const answer = await running;
    expect(await create(number, { 'idempotency-key': 'slow' })).toMatchObject({ status: 201, body: answer });
    await outboxSettled(world.platform);
    expect(world.graph.requests).toHaveLength(1);
  });

  it('answers a retry of a create that was made but not answered (its core went away) with the first 201, sending nothing more', async () => {
    world = await verificationWorld();
    const { services } = world.platform.core;
    const workspace = await services.store.workspaces.findBySlug('acme');
    const scope = { workspaceId: workspace!.id, operation: 'verifications.create', key: 'lost', request: number };
    let made: unknown;
    // The create is kept; its answer never is.
    await expect(
      services.idempotency.run(scope, async () => {
        made = await services.verifications.create(workspace!.id, number, 'lost');
        throw new Error('core went away before it answered');
      }),
    ).rejects.toThrow('went away');
    await world.graph.waitForRequests(1);
    expect(await create(number, { 'idempotency-key': 'lost' })).toMatchObject({ status: 201, body: made });
    // Another key is another create: the resend wait holds.
    expect((await create(number, { 'idempotency-key': 'other' })).body.error.code).toBe('resend_too_soon');
    await outboxSettled(world.platform);
    expect(world.graph.requests).toHaveLength(1);
  });

  it('answers two concurrent requests with one key once', async () => {
    world = await verificationWorld();
    const [a, b] = await Promise.all([create(number, { 'idempotency-key': 'race' }), create(number, { 'idempotency-key': 'race' })]);
    expect(a.status).toBe(201);
    expect(b).toMatchObject({ status: 201, body: a.body });
  });
});
