import { type JsonResponse, request } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayWithoutCore, startPlatform, type TestPlatform } from '../platform.ts';

let platform: TestPlatform;
let down: Awaited<ReturnType<typeof startGatewayWithoutCore>>;
beforeAll(async () => {
  platform = await startPlatform();
  down = await startGatewayWithoutCore();
});
afterAll(async () => {
  await down.stop();
  await platform.stop();
});

const endpoints = ['/cli/device_authorizations', '/cli/device_authorizations/token'];
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const json = { 'content-type': 'application/json' };

/** An error as RFC 6749 §5.2 shapes it, never cached. */
function expectOAuthError(res: JsonResponse, status: number, error: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.body).toEqual({ error, error_description: expect.any(String) });
}

describe.each(endpoints)('%s answers every error in OAuth shape', (path) => {
  const send = (body: string, headers: Record<string, string>) => request(`${platform.url}${path}`, { method: 'POST', body, headers });

  it('a body that is not JSON: invalid_request', async () => {
    expectOAuthError(await send('{"device_code":', json), 400, 'invalid_request');
  });

  it('a body over 1 MiB: 413 invalid_request', async () => {
    expectOAuthError(await send(`device_code=${'x'.repeat(1024 * 1024)}`, form), 413, 'invalid_request');
  });

  it('a body of another type: 415 invalid_request', async () => {
    expectOAuthError(await send('device_code=x', { 'content-type': 'text/plain' }), 415, 'invalid_request');
  });

  it('a form body with a malformed percent-escape, or a field twice: invalid_request', async () => {
    for (const body of ['device_code=%zz&client_id=%', 'client_id=a&client_id=b&device_code=x&device_code=y']) {
      expectOAuthError(await send(body, form), 400, 'invalid_request');
    }
  });

  it('a field that breaks the schema: invalid_request', async () => {
    expectOAuthError(await send(JSON.stringify({ device_code: 42, email: 'not-an-address' }), json), 400, 'invalid_request');
  });

  it('core out of reach: 503 temporarily_unavailable with Retry-After', async () => {
    const res = await request(`${down.url}${path}`, { method: 'POST', body: 'device_code=abc', headers: form });
    expectOAuthError(res, 503, 'temporarily_unavailable');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a wrong method: 405 method_not_allowed with Allow', async () => {
    const res = await request(`${platform.url}${path}`, { method: 'GET' });
    expectOAuthError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

it('the start takes the RFC 8628 form body: client_id and scope besides our own fields', async () => {
  const res = await request(`${platform.url}/cli/device_authorizations`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: 'my-tool', scope: 'read write', hostname: 'ci-box' }).toString(),
    headers: form,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const { deviceAuth } = platform.core.services;
  const view = await deviceAuth.view(res.body.user_code, '127.0.0.1');
  expect(view).toMatchObject({ clientName: 'my-tool', hostname: 'ci-box' });
});
