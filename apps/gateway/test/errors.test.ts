import { request } from '@svc/testkit';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let platform: TestPlatform;
let token: string;

beforeAll(async () => {
  platform = await startPlatform();
  token = await createUserWithToken(platform, 'ada@example.com');
});
afterAll(() => platform.stop());

const post = (body: string, headers: Record<string, string>) =>
  request(`${platform.url}/cli/workspaces`, { method: 'POST', token, body, headers });

describe('the error envelope', () => {
  it('401 unauthorized with the Bearer challenge, naming invalid_token when a bearer token was refused', async () => {
    const challenge = 'Bearer realm="svc"';
    const refused = 'Bearer realm="svc", error="invalid_token"';
    for (const [authorization, expected] of [
      [undefined, challenge],
      ['Basic dXNlcjpwYXNz', challenge],
      ['Bearer svc_unknown', refused],
      ['Bearer nonsense', refused],
    ] as const) {
      const res = await request(`${platform.url}/cli/workspaces`, {
        headers: authorization ? { authorization } : {},
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate'), authorization).toBe(expected);
      expect(res.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    }
  });

  it('400 invalid_json for a malformed body', async () => {
    const res = await post('{"slug":', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_json');
  });

  it('400 invalid_request for a body that is not an object, or lacks a field', async () => {
    const missing = await post('{}', { 'content-type': 'application/json' });
    expect(missing.body.error).toMatchObject({ code: 'invalid_request', field: 'slug' });
    const array = await post('[]', { 'content-type': 'application/json' });
    expect(array.status).toBe(400);
    expect(array.body.error.code).toBe('invalid_request');
    const wrongType = await post('{"slug":"abc","name":42}', { 'content-type': 'application/json' });
    expect(wrongType.body.error).toMatchObject({ code: 'invalid_request', field: 'name' });
  });

  it('415 for a body that is not application/json', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await post('slug=abc', { 'content-type': type });
      expect(res.status).toBe(415);
      expect(res.body.error.code).toBe('unsupported_media_type');
    }
  });

  it('413 for a body over 1 MiB, and accepts one just under', async () => {
    const big = JSON.stringify({ slug: 'big-one', name: 'x'.repeat(1024 * 1024) });
    const res = await post(big, { 'content-type': 'application/json' });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
    const under = JSON.stringify({ slug: 'big-two', pad: 'x'.repeat(1024 * 1024 - 100) });
    expect((await post(under, { 'content-type': 'application/json' })).status).toBe(201);
  });

  it('404 JSON for an unknown route', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['DELETE', '/cli/whoami/x'],
      ['GET', '/api/v1/demo/unknown_things'],
    ] as const) {
      const res = await request(`${platform.url}${path}`, { method, token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('405 with Allow for a method a known path does not take, and OPTIONS names them', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/cli/workspaces', 'GET, POST, HEAD, OPTIONS'],
      ['POST', '/cli/workspaces/acme', 'GET, HEAD, OPTIONS'],
      ['PATCH', '/api/developer/v1/acme/sender', 'GET, PUT, HEAD, OPTIONS'],
      ['GET', '/api/v1/acme/phone_verifications', 'POST, OPTIONS'],
    ] as const) {
      const res = await request(`${platform.url}${path}`, { method, token });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body.error.code).toBe('method_not_allowed');
    }
    const options = await request(`${platform.url}/cli/workspaces`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  });
});

describe('health', () => {
  it('is 200 while core answers', async () => {
    const res = await request(`${platform.url}/healthz`);
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});
