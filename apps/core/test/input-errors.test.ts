import { internalTokenHeader } from '@svc/server-kit';
import { beforeAll, expect, it } from 'vitest';
import { runningCore } from './running-core.ts';

const core = runningCore();
let authorization = '';

beforeAll(async () => {
  const user = await core.services.identity.findOrCreateUser('ada@example.com');
  await core.services.workspaces.create(user.id, { slug: 'acme' });
  authorization = `Bearer ${(await core.services.identity.issueToken(user.id, 'laptop')).token}`;
});

/** A mutation over core's HTTP binding, as any client of core other than the gateway calls it. */
async function mutate(path: string, input: unknown) {
  const res = await fetch(`${core.url}/trpc/${path}`, {
    method: 'POST',
    headers: { [internalTokenHeader]: core.internalToken, authorization, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { error?: { data?: { svc?: { code: string; field?: string } } } };
  return { status: res.status, error: body.error?.data?.svc };
}

it('answers a bad phone number with invalid_phone_number and a bad code with invalid_code, as the gateway does', async () => {
  for (const phone_number of ['12345', '+1', 42, undefined]) {
    expect(await mutate('verifications.create', { workspace: 'acme', phone_number })).toEqual({
      status: 400,
      error: expect.objectContaining({ code: 'invalid_phone_number', field: 'phone_number' }),
    });
  }
  expect(await mutate('verifications.verify', { workspace: 'acme', id: 'pv_x', code: '12' })).toEqual({
    status: 400,
    error: expect.objectContaining({ code: 'invalid_code', field: 'code' }),
  });
});

it('answers other fields with invalid_request naming them, and a phone number inside a list with its own code', async () => {
  expect(await mutate('verifications.create', { workspace: 'acme', phone_number: '+56912345678', idempotency_key: '' })).toEqual({
    status: 400,
    error: expect.objectContaining({ code: 'invalid_request', field: 'idempotency_key' }),
  });
  const testNumbers = { workspace: 'acme', test_numbers: [{ phone_number: 'nope', code: '123456' }] };
  expect(await mutate('verifications.setTestNumbers', testNumbers)).toEqual({
    status: 400,
    error: expect.objectContaining({ code: 'invalid_phone_number', field: 'test_numbers.0.phone_number' }),
  });
});
