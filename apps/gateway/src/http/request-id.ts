import { requestIdOf, withRequestId } from '@svc/server-kit';
import type { RequestHandler } from 'express';

/**
 * Gives the request its id (from `traceparent` or `X-Request-Id`, else a new one), answers it in `X-Request-Id`, and
 * serves the request as part of it: every line logged meanwhile carries it, and every call to core passes it on.
 */
export const requestId: RequestHandler = (req, res, next) => {
  const id = requestIdOf(req.headers);
  res.setHeader('X-Request-Id', id);
  withRequestId(id, next);
};
