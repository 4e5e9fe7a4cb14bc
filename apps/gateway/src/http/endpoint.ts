import type { ErrorCode } from '@svc/domain';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { CallOptions, CoreClient } from '../core-client.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What the gateway's settings tell endpoints that answer with a stream. */
export interface StreamSettings {
  /** How often an event stream sends a comment to keep its connection open through proxies (SVC_EVENTS_HEARTBEAT_MS). */
  heartbeatMs: number;
  /** Aborted when the gateway stops: streams end, so that it does not wait for them. */
  closing: AbortSignal;
}

export interface HandlerInput<Body, Params, Query = Record<string, unknown>> {
  body: Body;
  params: Params;
  query: Query;
  req: Request;
  core: CoreClient;
  /** Forwards the caller's credential: pass as the last argument of every core call. */
  caller: CallOptions;
  /** The `Idempotency-Key` header, where the endpoint honours one. */
  idempotencyKey: string | undefined;
  /** The answer, for an endpoint that `streams` it. */
  res: Response;
  streams: StreamSettings;
}

/**
 * One public HTTP endpoint: the gateway mounts it and the OpenAPI document describes it,
 * both from this one declaration.
 */
export interface Endpoint<B extends z.ZodType = z.ZodType, P extends z.ZodObject = z.ZodObject, Q extends z.ZodObject = z.ZodObject> {
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
  /** The query string's parameters, e.g. a list's `limit` and `cursor`. */
  query?: Q;
  /** The body may be left out (it then parses as `{}`). */
  bodyOptional?: boolean;
  /** Also accept an `application/x-www-form-urlencoded` body (OAuth clients send one). */
  acceptsForm?: boolean;
  /** Answer every error in OAuth's shape, `{"error":"<name>","error_description":"..."}`, as an OAuth client expects. */
  oauth?: boolean;
  /** A retry with the same `Idempotency-Key` header gets the first final answer. */
  idempotent?: boolean;
  /** Headers of every answer, errors included. */
  responseHeaders?: Record<string, string>;
  /** The handler writes its answer itself (an event stream), after it has refused what it refuses. */
  streams?: boolean;
  status: number;
  /** The success's body; JSON unless `contentType` names another type (the handler then returns the text). */
  response: { description: string; schema?: z.ZodType; contentType?: string };
  /** The error codes a client can get from this endpoint besides the envelope's own. */
  errors: ErrorCode[];
  handle(input: HandlerInput<z.infer<B>, z.infer<P>, z.infer<Q>>): Promise<unknown>;
}

/** Declares an endpoint with its body and params types inferred from the schemas. */
export function endpoint<
  B extends z.ZodType = z.ZodUndefined,
  P extends z.ZodObject = z.ZodObject<Record<never, never>>,
  Q extends z.ZodObject = z.ZodObject<Record<never, never>>,
>(definition: Endpoint<B, P, Q>): Endpoint {
  return definition as unknown as Endpoint;
}
