import type { RequestHandler } from 'express';

/** A step that gives every answer the same headers, set before the answer is written. */
export function fixedHeaders(headers: readonly (readonly [string, string])[]): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
