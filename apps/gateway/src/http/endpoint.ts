import type { ErrorCode } from '@svc/domain';
import type { Request } from 'express';
import type { z } from 'zod';
import type { CallOptions, CoreClient } from '../core-client.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface HandlerInput<Body, Params> {
  body: Body;
  params: Params;
  req: Request;
  core: CoreClient;
  /** Forwards the caller's credential: pass as the last argument of every core call. */
  caller: CallOptions;
}

/**
 * One public HTTP endpoint: the gateway mounts it and the OpenAPI document describes it,
 * both from this one declaration.
 */
export interface Endpoint<B extends z.ZodType = z.ZodType, P extends z.ZodObject = z.ZodObject> {
  method: Method;
  /** Express-style path, e.g. `/cli/tokens/:id`. */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  /** Whether the endpoint needs `Authorization: Bearer <token>`. */
  auth: boolean;
  body?: B;
  params?: P;
  /** Error codes of their own for some body fields, instead of `invalid_request`. */
  fieldCodes?: Partial<Record<string, ErrorCode>>;
  /** The body may be left out (it then parses as `{}`). */
  bodyOptional?: boolean;
  /** Also accept an `application/x-www-form-urlencoded` body (OAuth clients send one). */
  acceptsForm?: boolean;
  /** Answer these error codes in OAuth's shape, `{"error":"<code>","error_description":"..."}` with 400. */
  oauthErrors?: readonly string[];
  responseHeaders?: Record<string, string>;
  status: number;
  response: { description: string; schema?: z.ZodType };
  /** The error codes a client can get from this endpoint besides the envelope's own. */
  errors: ErrorCode[];
  handle(input: HandlerInput<z.infer<B>, z.infer<P>>): Promise<unknown>;
}

/** Declares an endpoint with its body and params types inferred from the schemas. */
export function endpoint<B extends z.ZodType = z.ZodUndefined, P extends z.ZodObject = z.ZodObject<Record<never, never>>>(
  definition: Endpoint<B, P>,
): Endpoint {
  return definition as unknown as Endpoint;
}
