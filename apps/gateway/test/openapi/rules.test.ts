import type { JsonResponse } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from '../platform.ts';
import { type Call, type Conformance, conformance, type DocumentedOperation, errorCodeOf, type Schema } from './conformance.ts';
import { type Fill, requiredOnly, valueOf, violationsOf } from './schema-values.ts';

/**
 * The document's rules against the server, as a conformance runner generating requests from the document checks
 * them: each request the document allows is taken, and each that breaks one of its rules is refused with an error
 * code the document lists for that answer. Every answer is also checked as the other conformance tests check it.
 */

let platform: TestPlatform;
let api: Conformance;
let token: string;
beforeAll(async () => {
  platform = await startPlatform();
  api = await conformance(platform.url);
  token = await createUserWithToken(platform, 'ada@example.com');
  expect((await api.call('createWorkspace', { token, json: { slug: 'rules' } })).status).toBe(201);
});
afterAll(() => platform.stop());

/** A workspace of the caller's: allowed requests get past it to core's own checks. Other ids are unknown (404). */
const known: Record<string, string> = { workspace: 'rules', slug: 'rules' };

const minLength = (schema: Schema) => (typeof schema.minLength === 'number' ? schema.minLength : 0);
const fit = (text: string, schema: Schema) => text.padEnd(minLength(schema), 'x');

/** The requests the document allows, by what fills them; a string the schema does not take is filled plainly. */
const fills: Record<string, Fill> = {
  'the required fields': requiredOnly,
  'every field': { optionals: true },
  'every field at its longest and largest': {
    optionals: true,
    text: (schema) => (typeof schema.maxLength === 'number' && schema.maxLength <= 10_000 ? 'x'.repeat(schema.maxLength) : undefined),
    number: (schema) => (typeof schema.maximum === 'number' ? schema.maximum : undefined),
  },
  'control characters': { optionals: true, text: (schema) => fit('a\u0001b\u007f', schema) },
  'bidi controls': { optionals: true, text: (schema) => fit('a\u202eb', schema) },
  'spaces alone': { optionals: true, text: (schema) => ' '.repeat(Math.max(minLength(schema), 1)) },
  'an emoji': { optionals: true, text: (schema) => fit('\u{1f600}', schema) },
};

/** The operations that take a JSON body or parameters. */
const operations = () => api.operations.filter((op) => op.jsonBody || op.parameters.length > 0);

function allowed(op: DocumentedOperation, fill: Fill): Call {
  const params = Object.fromEntries(
    op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, known[p.name] ?? String(valueOf(p.schema, api, fill))]),
  );
  const body = op.jsonBody && (op.jsonBody.required || fill.optionals) ? { json: valueOf(op.jsonBody.schema, api, fill) } : {};
  return { token: op.statuses['401'] ? token : undefined, params, ...body };
}

/** A value as a URL carries it: a number only where the schema is not a string's (the URL would make it one). */
function asParameter(value: unknown, schema: Schema): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && api.resolve(schema).type !== 'string') return String(value);
  return undefined;
}

/** Each request that breaks one rule of the document: an allowed request with one value changed. */
function forbidden(op: DocumentedOperation): { rule: string; call: Call }[] {
  const base = allowed(op, requiredOnly);
  const bodies = op.jsonBody
    ? violationsOf(op.jsonBody.schema, api).map(({ rule, value }) => ({ rule: `body ${rule}`, call: { ...base, json: value } }))
    : [];
  const parameters = op.parameters.flatMap((p) =>
    violationsOf(p.schema, api, p.name).flatMap(({ rule, value }) => {
      const text = asParameter(value, p.schema);
      // An empty path segment is another path.
      if (text === undefined || (p.in === 'path' && text === '')) return [];
      const change = p.in === 'path' ? { params: { ...base.params, [p.name]: text } } : { query: { [p.name]: text } };
      return [{ rule: `${p.in} ${rule}`, call: { ...base, ...change } }];
    }),
  );
  return [...bodies, ...parameters];
}

/** Sends the request; an answer the document does not describe is a problem of its own. */
async function send(op: DocumentedOperation, call: Call, problems: string[], what: string): Promise<JsonResponse | undefined> {
  try {
    return await api.call(op.operationId, call);
  } catch (error) {
    problems.push(`${what}: ${(error as Error).message}`);
    return undefined;
  }
}

/** A refusal of the request's shape: invalid_request or invalid_json, a 413, or a 400 or 422 that names a field. */
function refusedForShape({ status, body }: JsonResponse): boolean {
  const code = errorCodeOf(body);
  if (status === 413 || code === 'invalid_request' || code === 'invalid_json') return true;
  return (status === 400 || status === 422) && typeof body?.error?.field === 'string';
}

const shown = (call: Call) => JSON.stringify({ params: call.params, query: call.query, json: call.json }).slice(0, 300);

it('states a maxLength for every path parameter', () => {
  const unbounded = api.operations.flatMap((op) =>
    op.parameters
      .filter((p) => p.in === 'path' && typeof api.resolve(p.schema).maxLength !== 'number')
      .map((p) => `${op.operationId} ${p.name}`),
  );
  expect(unbounded).toEqual([]);
});

it('takes every request the document allows: none is refused for its shape', async () => {
  const problems: string[] = [];
  for (const op of operations()) {
    for (const [name, fill] of Object.entries(fills)) {
      const call = allowed(op, fill);
      const what = `${op.operationId} with ${name}`;
      const answer = await send(op, call, problems, what);
      if (answer && refusedForShape(answer)) problems.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)} for ${shown(call)}`);
    }
  }
  expect(problems).toEqual([]);
});

it('refuses every request that breaks one of its rules, with an error code it lists for that answer', async () => {
  const problems: string[] = [];
  let sent = 0;
  for (const op of operations()) {
    for (const { rule, call } of forbidden(op)) {
      const what = `${op.operationId}, ${rule}`;
      const answer = await send(op, call, problems, what);
      sent += 1;
      if (!answer) continue;
      const code = errorCodeOf(answer.body);
      if (answer.status < 400 || answer.status >= 500) problems.push(`${what}: answered ${answer.status} to ${shown(call)}`);
      else if (!code || !op.statuses[String(answer.status)]?.includes(code)) problems.push(`${what}: ${code} is not documented`);
    }
  }
  expect(problems).toEqual([]);
  // The rules are many; a generator that finds none checks nothing.
  expect(sent).toBeGreaterThan(200);
});
