import { type ErrorCode, errorEnvelope, errorStatus } from '@svc/domain';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import type { Endpoint } from './http/endpoint.ts';

/** Error codes any endpoint can answer, by the envelope rules. */
const commonErrors: ErrorCode[] = ['invalid_json', 'unsupported_media_type', 'unsupported_content_encoding', 'payload_too_large'];

function errorResponses(ep: Endpoint): ZodOpenApiOperationObject['responses'] {
  const codes = new Set<ErrorCode>([...ep.errors, ...(ep.auth ? (['unauthorized'] as const) : [])]);
  if (ep.body) for (const code of [...commonErrors, 'invalid_request' as const]) codes.add(code);
  if (ep.params || ep.query) codes.add('invalid_request');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: `error.code: ${list.join(', ')}`,
        content: { 'application/json': { schema: errorEnvelope } },
      },
    ]),
  );
}

function operation(ep: Endpoint): ZodOpenApiOperationObject {
  return {
    operationId: ep.operationId,
    summary: ep.summary,
    tags: ep.tags,
    security: ep.auth ? [{ bearer: [] }] : [],
    ...(ep.params || ep.query ? { requestParams: { ...(ep.params && { path: ep.params }), ...(ep.query && { query: ep.query }) } } : {}),
    ...(ep.body ? { requestBody: { required: true, content: { 'application/json': { schema: ep.body } } } } : {}),
    responses: {
      [String(ep.status)]: {
        description: ep.response.description,
        ...(ep.response.schema ? { content: { 'application/json': { schema: ep.response.schema } } } : {}),
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
      description: 'Phone verification, CLI device authorization, flags and evals for hosted conversational agents.',
    },
    servers: [{ url: publicUrl }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A developer token (svc_...)' } },
    },
    paths,
  });
}
