import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { errorCodes } from '@svc/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { concretePath, parameters, type ServedRoute, servedRoutes } from './routes.ts';

let platform: TestPlatform;
let token: string;
/** Ada's console session: the console's pages are sent it with her token, so that they read what they are sent. */
let session: string;
const routes = servedRoutes();

beforeAll(async () => {
  platform = await startPlatform({ localMode: true });
  token = await createUserWithToken(platform, 'ada@example.com');
  const { identity, sessions } = platform.core.services;
  session = (await sessions.create((await identity.findOrCreateUser('ada@example.com')).id)).token;
  await send('POST', '/cli/workspaces', { token, headers: { 'content-type': 'application/json' }, body: '{"slug":"acme"}' });
});
afterAll(() => platform.stop());

interface Sent {
  status: number;
  type: string;
  text: string;
}

async function send(
  method: string,
  path: string,
  init: { token?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Sent> {
  const headers = { ...init.headers, ...(init.token ? { authorization: `Bearer ${init.token}`, cookie: `svc_session=${session}` } : {}) };
  const body = method === 'GET' || method === 'HEAD' ? undefined : init.body;
  const response = await fetch(`${platform.url}${path}`, { method, headers, body, redirect: 'manual' });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** The error code of an API answer: the envelope's, or OAuth's for the device endpoints. */
function errorCode(answer: Sent): string {
  const body = JSON.parse(answer.text) as { error?: string | { code?: string } };
  return typeof body.error === 'string' ? body.error : (body.error?.code ?? '');
}

const stableCodes: readonly string[] = errorCodes;

/** What every answer must be: never a 5xx; an API error is JSON with a known code; a page error is a page or JSON. */
function expectClientError(route: ServedRoute, answer: Sent): void {
  expect(answer.status, `${route.method} ${route.path}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
  if (answer.status < 400) return;
  if (route.answers === 'page' && answer.type.startsWith('text/html')) return;
  expect(answer.type, `${route.method} ${route.path}`).toMatch(/^application\/json/);
  expect(stableCodes, `${route.method} ${route.path}`).toContain(errorCode(answer));
}

const validValue = (name: string) =>
  name === 'workspace' || name === 'slug' ? 'acme' : name === 'environment' ? 'live' : name === 'name' ? 'API_KEY' : 'x1';
const malformedEscapes = ['%zz', '%ff', '%', '%e2%82', '%ED%A0%80', 'a%2', '%%41', '%c0%af%zz'];
const withBody = (route: ServedRoute) => route.method === 'POST' || route.method === 'PUT';

describe('the route list', () => {
  it('holds the API, console, dev and webhook routes', () => {
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'GET /cli/workspaces/:workspace',
      'POST /api/v1/:slug/phone_verifications/:id/verify',
      'GET /auth/link/:token',
      'POST /tokens/:id/revoke',
      'GET /dev/outbox',
      'GET /dev/mailbox.json',
      'POST /webhooks/whatsapp/:workspace',
      'GET /openapi.json',
    ]) {
      expect(listed).toContain(expected);
    }
  });
});

describe('a malformed percent-escape in a path parameter', () => {
  const withParams = routes.filter((route) => parameters(route).length > 0);
  it.each(withParams.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers 400 invalid_request',
    async (_, route) => {
      for (const param of parameters(route)) {
        for (const bad of ['%zz', '%ff']) {
          const path = concretePath(route, (name) => (name === param ? bad : validValue(name)));
          const answer = await send(route.method, path, { token });
          expect(answer.status, path).toBe(400);
          if (route.answers === 'page' && answer.type.startsWith('text/html')) continue;
          expect(errorCode(answer), path).toBe('invalid_request');
        }
      }
    },
  );
});

describe('a Content-Encoding the body does not have', () => {
  const bodyRoutes = routes.filter(withBody);
  it.each(bodyRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers 400, or 415 for an encoding not taken',
    async (_, route) => {
      const path = concretePath(route, validValue);
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const answer = await send(route.method, path, {
          token,
          headers: { 'content-type': route.bodyType, 'content-encoding': encoding },
          body: '{"a":1}',
        });
        expect(answer.status, `${encoding}: ${answer.text.slice(0, 200)}`).toBe(400);
        if (route.answers === 'json') expect(errorCode(answer)).toBe('invalid_request');
      }
      for (const encoding of ['compress', 'gzip, br', 'x-unknown']) {
        const answer = await send(route.method, path, {
          token,
          headers: { 'content-type': route.bodyType, 'content-encoding': encoding },
          body: '{"a":1}',
        });
        expect(answer.status, encoding).toBe(415);
        if (route.answers === 'json') expect(errorCode(answer)).toBe(route.oauth ? 'invalid_request' : 'unsupported_content_encoding');
      }
    },
  );

  it('a body that is compressed as it says is read', async () => {
    const compress = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    for (const [encoding, zip] of Object.entries(compress)) {
      const body = zip(Buffer.from(JSON.stringify({ slug: `zipped-${encoding}` })));
      const answer = await send('POST', '/cli/workspaces', {
        token,
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body,
      });
      expect(answer.status, encoding).toBe(201);
      expect(JSON.parse(answer.text).slug).toBe(`zipped-${encoding}`);
    }
  });
});

describe('a form body with more than 1,000 fields', () => {
  const manyFields = Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&');
  const bodyRoutes = routes.filter(withBody);
  it.each(bodyRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s answers 413 too_many_parameters where it reads forms, never 5xx',
    async (_, route) => {
      const path = concretePath(route, validValue);
      const answer = await send(route.method, path, {
        token,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: manyFields,
      });
      expectClientError(route, answer);
      const readsForms = route.oauth || route.bodyType === 'application/x-www-form-urlencoded';
      if (!readsForms) return;
      expect(answer.status, answer.text.slice(0, 200)).toBe(413);
      if (answer.type.startsWith('application/json'))
        expect(errorCode(answer)).toBe(route.oauth ? 'invalid_request' : 'too_many_parameters');
    },
  );
});

describe('property: no request makes any route answer 5xx', () => {
  const segment = fc.oneof(
    fc.constantFrom('acme', 'x1', 'live', 'API_KEY'),
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
    fc.tuple(fc.webSegment(), fc.constantFrom(...malformedEscapes), fc.webSegment()).map((parts) => parts.join('')),
  );
  const body = fc.oneof(
    fc.json().map((text) => Buffer.from(text)),
    fc.string().map((text) => Buffer.from(text)),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    fc.json().map((text) => gzipSync(text)),
    fc
      .record({ slug: fc.string(), name: fc.string(), client_name: fc.string(), hostname: fc.string() })
      .map((o) => Buffer.from(JSON.stringify(o))),
  );
  const request = fc.record({
    route: fc.constantFrom(...routes),
    segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
    otherMethod: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), { freq: 4 }),
    body,
    contentType: fc.option(
      fc.constantFrom(
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/json; charset=latin1',
        'multipart/form-data',
      ),
    ),
    contentEncoding: fc.option(fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'GZIP', 'gzip, gzip', '')),
    signedIn: fc.boolean(),
  });

  it('holds for arbitrary path parameters, methods, bodies, content types and encodings on every route', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const names = parameters(r.route);
        const path = concretePath(r.route, (name) => r.segments[names.indexOf(name)] ?? 'x1');
        const headers: Record<string, string> = {};
        if (r.contentType !== null) headers['content-type'] = r.contentType;
        if (r.contentEncoding !== null) headers['content-encoding'] = r.contentEncoding;
        const answer = await send(r.otherMethod ?? r.route.method, path, { token: r.signedIn ? token : undefined, headers, body: r.body });
        expectClientError(r.route, answer);
      }),
      { numRuns: 400 },
    );
  });
});
