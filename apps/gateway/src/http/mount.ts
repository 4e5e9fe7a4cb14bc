import { DomainError, idempotencyKey, invalidRequest, oauthErrorName } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import type { ErrorRequestHandler, Express, Request, Response } from 'express';
import type { CoreClient } from '../core-client.ts';
import type { Endpoint, StreamSettings } from './endpoint.ts';
import { errorHeaders, sendError, toDomainError } from './errors.ts';
import { fixedHeaders } from './fixed-headers.ts';
import { bodyParser } from './json-body.ts';
import { missingToken, refusalOf } from './token-first.ts';

/** The client IP as core's rate limits see it (the gateway trusts a proxy on loopback only). */
export const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** The `Idempotency-Key` header where the endpoint honours one; a key it cannot keep is refused, never dropped. */
function idempotencyKeyOf(ep: Endpoint, req: Request): string | undefined {
  const key = ep.idempotent ? req.get('idempotency-key') : undefined;
  if (key === undefined) return undefined;
  const parsed = idempotencyKey.safeParse(key);
  if (!parsed.success) throw new DomainError('invalid_request', 'Idempotency-Key: send 1 to 255 characters', { field: 'Idempotency-Key' });
  return parsed.data;
}

/** The request's body, path and query parameters and Idempotency-Key, as the endpoint takes them; else their refusal. */
function inputOf(ep: Endpoint, req: Request) {
  if (ep.auth && !req.headers.authorization) throw missingToken();
  const rawBody = req.body === undefined && ep.bodyOptional ? {} : req.body;
  const body = ep.body ? ep.body.safeParse(rawBody) : undefined;
  if (body && !body.success) throw invalidRequest(body.error, 'body', ep.body);
  const params = ep.params ? ep.params.safeParse(req.params) : undefined;
  if (params && !params.success) throw invalidRequest(params.error, 'path', ep.params);
  const query = ep.query ? ep.query.safeParse(req.query) : undefined;
  if (query && !query.success) throw invalidRequest(query.error, 'query', ep.query);
  return { body: body?.data, params: params?.data ?? {}, query: query?.data ?? {}, idempotencyKey: idempotencyKeyOf(ep, req) };
}

async function run(ep: Endpoint, core: CoreClient, streams: StreamSettings, req: Request, res: Response): Promise<void> {
  let input: ReturnType<typeof inputOf>;
  try {
    input = inputOf(ep, req);
  } catch (refusal) {
    throw await refusalOf(ep, core, req, refusal);
  }
  const result = await ep.handle({ ...input, req, core, caller: { context: { authorization: req.headers.authorization } }, res, streams });
  if (ep.streams) return;
  if (ep.status === 204) res.status(204).end();
  else if (ep.response.contentType) res.status(ep.status).type(ep.response.contentType).send(result);
  else res.status(ep.status).json(result);
}

/** The error as the endpoint answers errors: in OAuth's shape for an OAuth endpoint, else the envelope. */
export function answerError(ep: Endpoint, thrown: unknown, req: Request, res: Response, log: Logger): void {
  const error = toDomainError(thrown, log);
  if (!ep.oauth) {
    sendError(res, error, req.headers.authorization);
    return;
  }
  res.set(errorHeaders(error, req.headers.authorization));
  res.status(error.status).json({ error: oauthErrorName(error.code), error_description: error.message, ...error.details });
}

export function mountEndpoints(app: Express, core: CoreClient, endpoints: Endpoint[], log: Logger, streams: StreamSettings): void {
  for (const ep of endpoints) {
    // Only the endpoints that declare headers take a step to set them: each step of express's router costs.
    const headers = Object.entries(ep.responseHeaders ?? {});
    const responseHeaders = headers.length === 0 ? [] : [fixedHeaders(headers)];
    const handle = async (req: Request, res: Response) => {
      try {
        await run(ep, core, streams, req, res);
      } catch (thrown) {
        if (res.headersSent) throw thrown; // express ends a response that failed half-way
        answerError(ep, thrown, req, res, log);
      }
    };
    // A body that cannot be read is answered in the endpoint's own error shape too.
    const unreadableBody: ErrorRequestHandler = async (error, req, res, next) => {
      if (res.headersSent) next(error);
      else answerError(ep, await refusalOf(ep, core, req, error), req, res, log);
    };
    // An endpoint without a body ignores one: a GET's body means nothing.
    const readBody = ep.body ? [bodyParser(ep.acceptsForm)] : [];
    app[ep.method](ep.path, ...responseHeaders, ...readBody, handle, unreadableBody);
  }
  app.use(undecodablePaths(endpoints, core, log));
}

/** Matches the paths express routes to the endpoint, whatever their parameters hold. */
const pathPattern = (path: string) => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`, 'i');

/**
 * A path parameter express cannot decode (`%zz`) makes no route match, so none of the endpoint's own steps sees the
 * request: it is refused here, as the endpoint whose path it is refuses what it cannot take.
 */
function undecodablePaths(endpoints: Endpoint[], core: CoreClient, log: Logger): ErrorRequestHandler {
  const patterns = endpoints.map((ep) => ({ ep, pattern: pathPattern(ep.path) }));
  return async (error, req, res, next) => {
    const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
    const matched =
      error instanceof URIError && !res.headersSent && patterns.find((p) => p.ep.method === method && p.pattern.test(req.path));
    if (!matched) next(error);
    else answerError(matched.ep, await refusalOf(matched.ep, core, req, error), req, res, log);
  };
}
