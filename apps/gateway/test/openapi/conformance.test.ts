import { oauthErrorName, type ErrorCode } from '@svc/domain';
import type { JsonResponse } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCases } from './cases/agents.ts';
import { deviceAuthCases } from './cases/device-auth.ts';
import { evalCases } from './cases/evals.ts';
import { flagCases } from './cases/flags.ts';
import { githubCases } from './cases/github.ts';
import { memberCases } from './cases/members.ts';
import { senderCases } from './cases/senders.ts';
import { verificationCases } from './cases/verifications.ts';
import { workspaceCases } from './cases/workspaces.ts';
import { type Call, type DocumentedOperation, errorCodeOf } from './conformance.ts';
import { type OperationCase, type OperationCases, startWorld, type World } from './world.ts';

/** Every operation's case; a new endpoint adds its own here (the last test fails until it does). */
const cases: OperationCases = {
  ...workspaceCases,
  ...deviceAuthCases,
  ...verificationCases,
  ...senderCases,
  ...agentCases,
  ...flagCases,
  ...evalCases,
  ...githubCases,
  ...memberCases,
};

/** Documented answers no request of this suite can bring about, by code (any operation) or `operationId code`. */
const allowance: Record<string, string> = {
  conflict: 'a unique index refusing a write that raced another: two writes on one key in the same instant',
};

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.stop());

function expectError(answer: JsonResponse, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(errorCodeOf(answer.body)).toBe(code);
}

/** The answers every operation shares, derived from a request it accepts. */
async function commonAnswers(op: DocumentedOperation, sample: Call): Promise<void> {
  const { api } = world;
  const oauth = op.statuses['503']?.includes('temporarily_unavailable') ?? false;
  const name = (code: ErrorCode) => (oauth ? oauthErrorName(code) : code);
  const call = (change: Call) => api.call(op.operationId, { ...sample, ...change });

  const down = await call({ baseUrl: world.downUrl });
  expectError(down, 503, name('core_unavailable'));
  expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);

  if (sample.token) {
    const none = await call({ token: undefined });
    expectError(none, 401, 'unauthorized');
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
    const bad = await call({ token: 'svc_not_a_token' });
    expectError(bad, 401, 'unauthorized');
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="svc", error="invalid_token"');
  }

  if (op.bodyTypes.length > 0) {
    const raw = (body: string, headers: Record<string, string>) =>
      call({ json: undefined, form: undefined, body, headers: { ...sample.headers, ...headers } });
    const json = { 'content-type': 'application/json' };
    expectError(await raw('{"a":', json), 400, name('invalid_json'));
    expectError(await raw('[]', json), 400, name('invalid_request'));
    expectError(await raw(JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }), json), 413, name('payload_too_large'));
    expectError(await raw('a', { 'content-type': 'text/plain' }), 415, name('unsupported_media_type'));
    expectError(await raw('{}', { ...json, 'content-encoding': 'x-unknown' }), 415, name('unsupported_content_encoding'));
  }

  const [param] = [...op.template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (param) {
    const answer = await call({ params: { ...sample.params, [param]: 'x'.repeat(101) } });
    expectError(answer, 400, 'invalid_request');
    expect(answer.body.error.field).toBe(param);
  }

  for (const name of op.query) {
    const answer = await call({ query: { ...sample.query, [name]: '-1!' } });
    expectError(answer, 400, 'invalid_request');
    expect(answer.body.error.field).toBe(name);
  }

  if (op.headers.includes('Idempotency-Key')) {
    const answer = await call({ headers: { ...sample.headers, 'idempotency-key': 'k'.repeat(256) } });
    expectError(answer, 400, 'invalid_request');
    expect(answer.body.error.field).toBe('Idempotency-Key');
  }
}

describe.each(Object.entries(cases))('%s', (operationId, operationCase: OperationCase) => {
  const op = () => {
    const found = world.api.operations.find((candidate) => candidate.operationId === operationId);
    if (!found) throw new Error(`${operationId} is not an operation of the served document`);
    return found;
  };

  it('answers what every operation answers, as documented', async () => {
    await commonAnswers(op(), await operationCase.sample(world));
  });

  if (operationCase.answers) {
    it('answers its success and its own errors, as documented', async () => {
      await operationCase.answers!(world);
    });
  }
});

describe('the document is exercised', () => {
  it('every operation, every documented status and every documented error code was answered at least once', () => {
    const missing: string[] = [];
    for (const { operationId, statuses } of world.api.operations) {
      for (const [status, codes] of Object.entries(statuses)) {
        if (!world.api.checked.has(`${operationId} ${status}`) && !codes.every((code) => allowed(operationId, code))) {
          missing.push(`${operationId} ${status}`);
        }
        for (const code of codes) {
          if (!world.api.checked.has(`${operationId} ${status} ${code}`) && !allowed(operationId, code)) {
            missing.push(`${operationId} ${status} ${code}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

const allowed = (operationId: string, code: string) => code in allowance || `${operationId} ${code}` in allowance;
