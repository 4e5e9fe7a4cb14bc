import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { number, type VerificationWorld, verificationWorld } from './setup.ts';

let world: VerificationWorld;
let id: string;
beforeAll(async () => {
  world = await verificationWorld();
  id = (await world.api('/api/v1/acme/phone_verifications', { json: { phone_number: number } })).body.verification_id;
});
afterAll(() => world.stop());

describe('bad input', () => {
  it.each(['56912345678', '+56 9 1234 5678', '+1', '+999123456789', 'tel:+56912345678', '', '+5691234567x'])(
    'rejects the phone number %j with 400 invalid_phone_number',
    async (phone) => {
      const res = await world.api('/api/v1/acme/phone_verifications', { json: { phone_number: phone } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_phone_number', field: 'phone_number' });
    },
  );

  it.each(['123', '12345678901', 'abcdef', '12 34 56', '', '１２３４５６'])('rejects the code %j with 400 invalid_code', async (code) => {
    const res = await world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_code');
  });

  it('does not spend an attempt on a malformed code', async () => {
    await world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code: 'nope' } });
    expect((await world.api(`/api/v1/acme/phone_verifications/${id}`)).body.attempts_left).toBe(5);
  });

  it('answers a missing body with invalid_request, and numbers instead of strings with the field code', async () => {
    const empty = await world.api('/api/v1/acme/phone_verifications', { method: 'POST' });
    expect(empty.body.error.code).toBe('invalid_request');
    const numeric = await world.api(`/api/v1/acme/phone_verifications/${id}/verify`, { json: { code: 123456 } });
    expect(numeric.body.error.code).toBe('invalid_code');
  });
});

describe('property: no body makes the API answer 5xx', () => {
  const paths = () => [
    '/api/v1/acme/phone_verifications',
    `/api/v1/acme/phone_verifications/${id}/verify`,
    '/api/developer/v1/acme/sender',
    '/api/developer/v1/acme/test_numbers',
    '/cli/workspaces',
  ];
  const body = fc.oneof(
    fc.json(),
    fc.string(),
    fc.record({ phone_number: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), code: fc.oneof(fc.string(), fc.double()) }),
    fc.record({ kind: fc.constantFrom('whatsapp_cloud', 'twilio_whatsapp', 'dev', 'x'), phone_number_id: fc.string() }),
  );

  it('holds for arbitrary JSON and text bodies, content types and methods', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        body,
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded'),
        fc.constantFrom('POST', 'PUT'),
        async (pathIndex, payload, contentType, method) => {
          const res = await world.api(paths()[pathIndex]!, {
            method,
            body: typeof payload === 'string' ? payload : JSON.stringify(payload),
            headers: { 'content-type': contentType },
          });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(res.body.error.code).toMatch(/^[a-z_]+$/);
        },
      ),
      { numRuns: 150 },
    );
  });
});
