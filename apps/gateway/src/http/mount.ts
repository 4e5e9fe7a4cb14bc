import { DomainError, invalidRequest } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import type { CoreClient } from '../core-client.ts';
import type { Endpoint } from './endpoint.ts';
import { sendError, toDomainError } from './errors.ts';
import { bodyParser } from './json-body.ts';

/** The client IP as core's rate limits see it (the gateway trusts a proxy on loopback only). */
export const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

async function run(ep: Endpoint, core: CoreClient, req: Request, res: Response): Promise<void> {
  const authorization = req.headers.authorization;
  if (ep.auth && !authorization) throw new DomainError('unauthorized', 'send Authorization: Bearer <token>');
  const rawBody = req.body === undefined && ep.bodyOptional ? {} : req.body;
  const body = ep.body ? ep.body.safeParse(rawBody) : undefined;
  if (body && !body.success) throw invalidRequest(body.error, 'body', ep.body);
  const params = ep.params ? ep.params.safeParse(req.params) : undefined;
  if (params && !params.success) throw invalidRequest(params.error, 'path', ep.params);
  const query = ep.query ? ep.query.safeParse(req.query) : undefined;
  if (query && !query.success) throw invalidRequest(query.error, 'query', ep.query);
  const caller = { context: { authorization } };
  const result = await ep.handle({ body: body?.data, params: params?.data ?? {}, query: query?.data ?? {}, req, core, caller });
  if (ep.status === 204) res.status(204).end();
  else res.status(ep.status).json(result);
}

/** The error as the endpoint answers errors: OAuth's shape for its OAuth codes, else the envelope. */
function answerError(ep: Endpoint, thrown: unknown, res: Response, log: Logger): void {
  const error = toDomainError(thrown, log);
  if (ep.oauthErrors?.includes(error.code)) res.status(400).json({ error: error.code, error_description: error.message, ...error.details });
  else sendError(res, error);
}

export function mountEndpoints(app: Express, core: CoreClient, endpoints: Endpoint[], log: Logger): void {
  for (const ep of endpoints) {
    const responseHeaders: RequestHandler = (_req, res, next) => {
      for (const [name, value] of Object.entries(ep.responseHeaders ?? {})) res.setHeader(name, value);
      next();
    };
    const handle = async (req: Request, res: Response) => {
      try {
        await run(ep, core, req, res);
      } catch (thrown) {
        if (res.headersSent) throw thrown; // express ends a response that failed half-way
        answerError(ep, thrown, res, log);
      }
    };
    // A body that cannot be read is answered in the endpoint's own error shape too.
    const unreadableBody: ErrorRequestHandler = (error, _req, res, next) => {
      if (res.headersSent) next(error);
      else answerError(ep, error, res, log);
    };
    app[ep.method](ep.path, responseHeaders, bodyParser(ep.acceptsForm), handle, unreadableBody);
  }
}
