import { expect } from 'vitest';
import type { OperationCases, World } from '../world.ts';

/** Test numbers of `acme`: a fixed code, no delivery. */
const testNumbers = ['+56912345670', '+56912345671', '+56912345672', '+56912345673'];
const testCode = '123456';
let numbersSet = false;

async function pending({ api, token }: World, phone_number: string): Promise<string> {
  const created = await api.call('createPhoneVerification', { token, params: { slug: 'acme' }, json: { phone_number } });
  expect(created.status).toBe(201);
  return created.body.verification_id;
}

async function withTestNumbers(world: World): Promise<void> {
  if (numbersSet) return;
  const test_numbers = testNumbers.map((phone_number) => ({ phone_number, code: testCode }));
  await world.api.call('putTestNumbers', { token: world.token, params: { workspace: 'acme' }, json: { test_numbers } });
  numbersSet = true;
}

/**
 * Calls `call` with the key `key` held by a request of `acme` that is still running (`operation`, `request`: as
 * core's router names them), then lets that request end.
 */
async function whileKeyHeld(world: World, operation: string, key: string, request: string, call: () => Promise<unknown>) {
  const { services } = world.platform.core;
  const workspace = await services.store.workspaces.findBySlug('acme');
  let finish!: () => void;
  const running = services.idempotency.run({ workspaceId: workspace!.id, operation, key, request }, async () => {
    await new Promise<void>((resolve) => (finish = resolve));
    return { verified: true };
  });
  await expect.poll(() => typeof finish).toBe('function');
  await call();
  finish();
  await running;
}

export const verificationCases: OperationCases = {
  createPhoneVerification: {
    sample: ({ token }) => ({
      token,
      params: { slug: 'acme' },
      json: { phone_number: '+56912345678' },
      headers: { 'idempotency-key': 'k1' },
    }),
    async answers(world) {
      const { api, token, clock } = world;
      const create = (phone_number: string, init: { slug?: string; key?: string } = {}) =>
        api.call('createPhoneVerification', {
          token,
          params: { slug: init.slug ?? 'acme' },
          json: { phone_number },
          headers: init.key ? { 'idempotency-key': init.key } : {},
        });
      const number = '+56987654321';
      expect((await create(number, { key: 'first' })).status).toBe(201);
      const tooSoon = await create(number);
      expect(tooSoon.body).toMatchObject({ error: { code: 'resend_too_soon' }, retry_after_seconds: expect.any(Number) });
      expect((await create('+56987654322', { key: 'first' })).body.error.code).toBe('idempotency_key_reused');
      await whileKeyHeld(world, 'verifications.create', 'held', '+56987654323', async () => {
        const held = await create('+56987654323', { key: 'held' });
        expect(held.body.error.code).toBe('idempotency_key_in_progress');
        expect(held.headers.get('retry-after')).toMatch(/^\d+$/);
      });
      for (let sent = 1; sent < 5; sent++) {
        clock.advance(31);
        expect((await create(number)).status).toBe(201);
      }
      clock.advance(31);
      expect((await create(number)).body).toMatchObject({
        error: { code: 'send_limit_exceeded' },
        retry_after_seconds: expect.any(Number),
      });
      expect((await create('12345')).body.error).toMatchObject({ code: 'invalid_phone_number', field: 'phone_number' });
      expect((await create(number, { slug: 'nowhere' })).body.error.code).toBe('workspace_not_found');
      expect((await create(number, { slug: 'bare' })).body.error.code).toBe('sender_not_configured');
    },
  },
  verifyPhoneVerification: {
    sample: ({ token }) => ({
      token,
      params: { slug: 'acme', id: 'pv_unknown' },
      json: { code: '123456' },
      headers: { 'idempotency-key': 'k2' },
    }),
    async answers(world) {
      const { api, token, clock } = world;
      await withTestNumbers(world);
      const verify = (id: string, code: string, key?: string) =>
        api.call('verifyPhoneVerification', {
          token,
          params: { slug: 'acme', id },
          json: { code },
          headers: key ? { 'idempotency-key': key } : {},
        });
      const right = await pending(world, testNumbers[0]!);
      expect((await verify(right, testCode)).body).toEqual({ verified: true });
      expect((await verify(right, testCode)).body).toMatchObject({ error: { code: 'already_verified' }, verified: true });

      const blocked = await pending(world, testNumbers[1]!);
      // A key it cannot keep is refused before anything is counted.
      const longKey = await verify(blocked, '000000', 'k'.repeat(256));
      expect(longKey.body.error).toMatchObject({ code: 'invalid_request', field: 'Idempotency-Key' });
      expect((await api.call('getPhoneVerification', { token, params: { slug: 'acme', id: blocked } })).body.attempts_left).toBe(5);
      expect((await verify(blocked, '000000', 'wrong-1')).body).toMatchObject({ error: { code: 'incorrect_code' }, attempts_left: 4 });
      expect((await verify(blocked, '000001', 'wrong-1')).body.error.code).toBe('idempotency_key_reused');
      await whileKeyHeld(world, `verifications.verify:${blocked}`, 'held', '000002', async () => {
        expect((await verify(blocked, '000002', 'held')).body.error.code).toBe('idempotency_key_in_progress');
      });
      for (let left = 3; left >= 0; left--) expect((await verify(blocked, '000000')).body.attempts_left).toBe(left);
      expect((await verify(blocked, testCode)).body).toMatchObject({ error: { code: 'verification_blocked' }, attempts_left: 0 });

      const expired = await pending(world, testNumbers[2]!);
      clock.advance(601);
      expect((await verify(expired, testCode)).body).toMatchObject({ error: { code: 'verification_expired' }, verified: false });
      expect((await verify('pv_unknown', testCode)).body.error.code).toBe('verification_not_found');
      expect((await verify(expired, '12')).body.error).toMatchObject({ code: 'invalid_code', field: 'code' });
      const otherSlug = await api.call('verifyPhoneVerification', {
        token,
        params: { slug: 'nowhere', id: expired },
        json: { code: testCode },
      });
      expect(otherSlug.body.error.code).toBe('workspace_not_found');
    },
  },
  getPhoneVerification: {
    sample: ({ token }) => ({ token, params: { slug: 'acme', id: 'pv_unknown' } }),
    async answers(world) {
      const { api, token } = world;
      await withTestNumbers(world);
      const id = await pending(world, testNumbers[3]!);
      expect((await api.call('getPhoneVerification', { token, params: { slug: 'acme', id } })).body.status).toBe('pending');
      const unknown = await api.call('getPhoneVerification', { token, params: { slug: 'acme', id: 'pv_unknown' } });
      expect(unknown.body.error.code).toBe('verification_not_found');
      const elsewhere = await api.call('getPhoneVerification', { token, params: { slug: 'nowhere', id } });
      expect(elsewhere.body.error.code).toBe('workspace_not_found');
    },
  },
};
