import { type RequestOptions, request } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { type Conformance, conformance, type DocumentedOperation, errorCodeOf } from './conformance.ts';

let platform: TestPlatform;
let api: Conformance;
let token: string;
let revoked: string;

beforeAll(async () => {
  platform = await startPlatform();
  api = await conformance(platform.url);
  token = await createUserWithToken(platform, 'ada@example.com');
  revoked = await createUserWithToken(platform, 'rev@example.com');
  const { body: caller } = await request(`${platform.url}/cli/whoami`, { token: revoked });
  expect((await request(`${platform.url}/cli/tokens/${caller.token.id}`, { method: 'DELETE', token: revoked })).status).toBe(204);
});
afterAll(() => platform.stop());

/** A request an operation refuses for what it holds, whoever sends it. */
interface BadRequest {
  what: string;
  url: string;
  init: RequestOptions;
}

/**
 * The requests the operation refuses, from what the document says it takes: a body off its schema, or not JSON, or
 * not of a type it reads; path parameters too long or that do not decode; query parameters and an Idempotency-Key
 * it does not take.
 */
function badRequests(op: DocumentedOperation): BadRequest[] {
  const path = (value: string) => `${platform.url}${op.template.replace(/\{\w+\}/g, value)}`;
  const search =
    op.query.length === 0 ? '' : `?${new URLSearchParams(Object.fromEntries(op.query.map((name) => [name, '-1!']))).toString()}`;
  const headers: Record<string, string> = op.headers.includes('Idempotency-Key') ? { 'idempotency-key': 'k'.repeat(256) } : {};
  const method = op.method.toUpperCase();
  const refused = `${path('x'.repeat(101))}${search}`;
  const withBody = (body: string, type: string) => ({ method, body, headers: { ...headers, 'content-type': type } });
  const requests: BadRequest[] = [];
  if (op.bodyTypes.length > 0) {
    requests.push({ what: 'a body its schema refuses', url: refused, init: withBody('[]', 'application/json') });
    requests.push({ what: 'a body that is not JSON', url: refused, init: withBody('{"a":', 'application/json') });
    requests.push({ what: 'a body of a type it does not read', url: refused, init: withBody('a', 'text/plain') });
  }
  if (refused !== path('x') || Object.keys(headers).length > 0) {
    requests.push({ what: 'parameters it refuses', url: refused, init: { method, headers } });
  }
  if (op.template.includes('{')) requests.push({ what: 'a path that does not decode', url: `${path('%zz')}${search}`, init: { method } });
  return requests;
}

const needingToken = () => api.operations.filter((op) => op.bearer);

/** Each bad request of each operation that needs a token, sent with `token`: `[operationId and what, answer]`. */
async function answersTo(token: string | undefined, answer: (sent: Awaited<ReturnType<Conformance['request']>>) => string) {
  const answers: [string, string][] = [];
  for (const op of needingToken()) {
    for (const bad of badRequests(op)) {
      // The document describes each answer (status, error envelope, WWW-Authenticate), or the request fails.
      const sent = await api.request(bad.url, { ...bad.init, token });
      answers.push([`${op.operationId}, ${bad.what}`, answer(sent)]);
    }
  }
  return answers;
}

const asRefusal = (sent: { status: number; body: unknown; headers: Headers }) =>
  `${sent.status} ${errorCodeOf(sent.body)} ${sent.headers.get('www-authenticate') ?? '(no challenge)'}`;

describe('an operation that needs a token checks it before anything else the request holds', () => {
  it('the document asks for a bearer token on the operations of the API, and on none of the public ones', () => {
    const ids = needingToken().map((op) => op.operationId);
    expect(ids.length).toBeGreaterThan(40);
    expect(ids).toContain('createPhoneVerification');
    for (const open of ['health', 'startDeviceAuthorization', 'pollDeviceToken']) expect(ids).not.toContain(open);
  });

  it('with a valid token, every one of these requests is refused for what it holds', async () => {
    const answers = await answersTo(token, (sent) =>
      sent.status >= 400 && sent.status < 500 && sent.status !== 401 ? 'refused' : asRefusal(sent),
    );
    expect(answers.length).toBeGreaterThan(100);
    expect(answers).toEqual(answers.map(([request]) => [request, 'refused']));
  });

  const challenge = 'Bearer realm="svc"';
  it.each([
    ['no token', undefined, `401 unauthorized ${challenge}`],
    ['an unknown token', 'svc_not_a_token', `401 unauthorized ${challenge}, error="invalid_token"`],
    ['a revoked token', () => revoked, `401 unauthorized ${challenge}, error="invalid_token"`],
  ] as const)('with %s, every one of them answers 401 with the Bearer challenge', async (_, sentToken, expected) => {
    const answers = await answersTo(typeof sentToken === 'function' ? sentToken() : sentToken, asRefusal);
    expect(answers).toEqual(answers.map(([request]) => [request, expected]));
  });
});
