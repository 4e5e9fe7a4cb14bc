import { type ErrorCode, errorDetails, errorEnvelope, errorStatus, fieldErrorCodesOf, idempotencyKey, oauthErrorName } from '@svc/domain';
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import type { Endpoint } from './http/endpoint.ts';

/** What any request with a body can be refused for before its fields are read. */
const bodyErrors: ErrorCode[] = [
  'invalid_json',
  'invalid_request',
  'unsupported_media_type',
  'unsupported_content_encoding',
  'payload_too_large',
];

/**
 * Every error code the endpoint answers: its own, and those its auth, body, parameters and writes bring, with the
 * codes of its fields (a test number's `invalid_phone_number`).
 */
function errorCodesOf(ep: Endpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>(ep.errors);
  if (ep.auth) codes.add('unauthorized');
  if (ep.body) for (const code of bodyErrors) codes.add(code);
  if (ep.acceptsForm) codes.add('too_many_parameters');
  if (ep.params || ep.query || ep.idempotent) codes.add('invalid_request');
  for (const schema of [ep.body, ep.params, ep.query]) if (schema) for (const code of fieldErrorCodesOf(schema)) codes.add(code);
  // A unique index of the store refusing a write that raced another.
  if (ep.method !== 'get') codes.add('conflict');
  codes.add('core_unavailable');
  return [...codes];
}

const retryAfter = {
  description: 'Seconds to wait before retrying',
  required: true,
  schema: { type: 'integer' as const, minimum: 1 },
};

/** Headers every error of a status is sent with. */
const headersByStatus: Record<number, ZodOpenApiResponseObject['headers']> = {
  401: {
    'WWW-Authenticate': {
      description: 'The Bearer challenge; `error="invalid_token"` when the token sent was refused',
      required: true,
      schema: { type: 'string', pattern: '^Bearer realm="svc"(, error="invalid_token")?$' },
    },
  },
  429: { 'Retry-After': retryAfter },
  503: { 'Retry-After': retryAfter },
};

const pascal = (code: string) => code.replace(/(^|_)(\w)/g, (_, _sep: string, letter: string) => letter.toUpperCase());

/** The envelope for codes that carry nothing else, and for each code with top-level details its own shape. */
function envelopeBodies(codes: ErrorCode[]): z.ZodType[] {
  const plain = codes.filter((code) => !errorDetails[code]);
  const bodies: z.ZodType[] = plain.length > 0 ? [z.strictObject(errorEnvelope(z.enum(plain)).shape)] : [];
  for (const code of codes) {
    const details = errorDetails[code];
    if (details)
      bodies.push(z.strictObject({ ...errorEnvelope(z.literal(code)).shape, ...details.shape }).meta({ id: `${pascal(code)}Error` }));
  }
  return bodies;
}

/** OAuth's shape (RFC 6749 §5.2), with the same top-level details. */
function oauthBodies(codes: ErrorCode[]): z.ZodType[] {
  const body = (name: z.ZodType) => ({ error: name, error_description: z.string().meta({ description: 'A human sentence' }) });
  const plain = [...new Set(codes.filter((code) => !errorDetails[code]).map(oauthErrorName))];
  const bodies: z.ZodType[] = plain.length > 0 ? [z.strictObject(body(z.enum(plain)))] : [];
  for (const code of codes) {
    const details = errorDetails[code];
    if (details)
      bodies.push(z.strictObject({ ...body(z.literal(oauthErrorName(code))), ...details.shape }).meta({ id: `${pascal(code)}OAuthError` }));
  }
  return bodies;
}

function documentedHeaders(ep: Endpoint) {
  return Object.fromEntries(
    Object.entries(ep.responseHeaders ?? {}).map(([name, value]) => [
      name,
      { required: true, schema: { type: 'string' as const, const: value } },
    ]),
  );
}

function errorResponses(ep: Endpoint): ZodOpenApiOperationObject['responses'] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(ep)) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => {
      const bodies = ep.oauth ? oauthBodies(codes) : envelopeBodies(codes);
      const names = ep.oauth ? [...new Set(codes.map(oauthErrorName))] : codes;
      const headers = { ...documentedHeaders(ep), ...headersByStatus[status] };
      const response: ZodOpenApiResponseObject = {
        description: `${ep.oauth ? 'error' : 'error.code'}: ${names.join(', ')}`,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        content: { 'application/json': { schema: bodies.length === 1 ? bodies[0]! : z.union(bodies) } },
        'x-error-codes': names,
      };
      return [String(status), response];
    }),
  );
}

function operation(ep: Endpoint): ZodOpenApiOperationObject {
  const bodyTypes = ep.acceptsForm ? ['application/json', 'application/x-www-form-urlencoded'] : ['application/json'];
  return {
    operationId: ep.operationId,
    summary: ep.summary,
    tags: ep.tags,
    security: ep.auth ? [{ bearer: [] }] : [],
    requestParams: {
      ...(ep.params ? { path: ep.params } : {}),
      ...(ep.query ? { query: ep.query } : {}),
      ...(ep.idempotent ? { header: z.object({ 'Idempotency-Key': idempotencyKey.optional() }) } : {}),
    },
    ...(ep.body
      ? {
          requestBody: {
            required: !ep.bodyOptional,
            content: Object.fromEntries(bodyTypes.map((type) => [type, { schema: ep.body }])),
          },
        }
      : {}),
    responses: {
      [String(ep.status)]: {
        description: ep.response.description,
        ...(ep.responseHeaders ? { headers: documentedHeaders(ep) } : {}),
        ...(ep.response.schema
          ? { content: { [ep.response.contentType?.split(';')[0] ?? 'application/json']: { schema: ep.response.schema } } }
          : {}),
      },
      ...errorResponses(ep),
    },
  };
}

/** The OpenAPI 3.1 document of every public endpoint, generated from the same declarations the app mounts. */
export function openApiDocument(endpoints: Endpoint[], publicUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const ep of endpoints) {
    const path = ep.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [ep.method]: operation(ep) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'svc',
      version: '1.0.0',
      description:
        'Phone verification, CLI device authorization, workspaces and agents. A method a path does not take answers ' +
        '405 `method_not_allowed` with `Allow`; an unknown path 404 `not_found`.',
    },
    servers: [{ url: publicUrl }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A developer token (svc_...)' } },
    },
    paths,
  });
}
