import { requestIdOf } from '@svc/server-kit';
import type { RequestHandler } from 'express';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request's id: answered in `X-Request-Id`, on its log lines, passed on with each core call it makes. */
      requestId: string;
    }
  }
}

/**
 * Gives the request its id (from `traceparent` or `X-Request-Id`, else a new one) and answers it in `X-Request-Id`.
 * The gateway passes it on by hand, in each core call's options and on the lines it logs for the request, rather
 * than through an AsyncLocalStorage: that turns on promise hooks for the whole process, which cost the gateway
 * about 5 % of the instructions of a wrong-code verify (callgrind).
 */
export const requestId: RequestHandler = (req, res, next) => {
  req.requestId = requestIdOf(req.headers);
  res.setHeader('X-Request-Id', req.requestId);
  next();
};
