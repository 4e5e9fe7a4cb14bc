import { DomainError, type WireError } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import { TRPCClientError } from '@trpc/client';
import type { ErrorRequestHandler, Response } from 'express';

/** Seconds a client should wait before retrying when core is out of reach. */
export const coreRetryAfterSeconds = 5;

/**
 * The headers an error is answered with: its own (`Retry-After` of a limit), `Retry-After` on every 503, and on a
 * 401 the Bearer challenge, naming `invalid_token` when a bearer token was sent and refused.
 */
export function errorHeaders(error: DomainError, authorization: string | undefined): Record<string, string> {
  const headers = { ...error.headers };
  if (error.status === 503) headers['Retry-After'] ??= String(coreRetryAfterSeconds);
  if (error.code === 'unauthorized') {
    const refused = /^bearer\s+\S/i.test(authorization ?? '');
    headers['WWW-Authenticate'] = refused ? 'Bearer realm="svc", error="invalid_token"' : 'Bearer realm="svc"';
  }
  return headers;
}

export function sendError(res: Response, error: DomainError, authorization?: string): void {
  res.set(errorHeaders(error, authorization));
  const envelope = { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) };
  // Object.assign, not `{ ...error.details, error }`: on Node 20 a spread that adds keys makes a new map for every answer.
  res.status(error.status).json(Object.assign({}, error.details, { error: envelope }));
}

/** body-parser's error types, as the client's mistake they are. */
const bodyErrors: Record<string, () => DomainError> = {
  'entity.parse.failed': () => new DomainError('invalid_json', 'the request body is not valid JSON'),
  'entity.too.large': () => new DomainError('payload_too_large', 'the request body is over 1 MiB'),
  'parameters.too.many': () => new DomainError('too_many_parameters', 'the form body has more than 1,000 fields'),
  'encoding.unsupported': () =>
    new DomainError('unsupported_content_encoding', 'send the body uncompressed, or with Content-Encoding gzip, deflate or br'),
  'charset.unsupported': () => new DomainError('unsupported_media_type', 'the request body must be UTF-8 JSON'),
  'request.aborted': () => new DomainError('invalid_request', 'the request was aborted'),
  'request.size.invalid': () => new DomainError('invalid_request', 'the request body does not match its length'),
  'form.escape.malformed': () => new DomainError('invalid_request', 'the form body holds a malformed percent-escape', { field: 'body' }),
};

interface HttpError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** A request express could not read: a path that is not percent-encoding, or a body that does not decode. */
function unreadableRequest(error: unknown): DomainError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { type, status, expose } = error as HttpError;
  const bodyError = bodyErrors[type ?? ''];
  if (bodyError) return bodyError();
  // The router's decoding of a path parameter: `/cli/workspaces/%zz`.
  if (error instanceof URIError && status === 400)
    return new DomainError('invalid_request', 'the path holds a malformed percent-escape', { field: 'path' });
  // body-parser's other client errors carry no type: the body does not decode as its Content-Encoding says.
  if (expose && status === 400) return new DomainError('invalid_request', 'the request body is not encoded as its Content-Encoding says');
  return undefined;
}

/** Whatever went wrong, as the one error envelope; only a fault of ours is a 5xx. */
export function toDomainError(error: unknown, log: Logger): DomainError {
  if (error instanceof DomainError) return error;
  const unreadable = unreadableRequest(error);
  if (unreadable) return unreadable;
  if (error instanceof TRPCClientError) {
    const wire = (error.data as { svc?: WireError } | undefined)?.svc;
    if (wire) {
      if (wire.code === 'internal_error') log.error({ err: error }, 'core failed');
      return DomainError.fromWire(wire);
    }
    log.error({ err: error }, 'core unreachable');
    return new DomainError('core_unavailable', 'the service is unavailable; try again shortly');
  }
  log.error({ err: error }, 'unhandled error');
  return new DomainError('internal_error', 'internal error');
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    sendError(res, toDomainError(error, log), req.headers.authorization);
  };
}
