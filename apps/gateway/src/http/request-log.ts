import type { Logger } from '@svc/server-kit';
import type { RequestHandler } from 'express';

/** A request URL fit for a log: the token of a sign-in link is a credential. */
export const withoutSecrets = (url: string) => url.replace(/\/auth\/link\/[^/?#]+/, '/auth/link/[redacted]');

/**
 * One line per answered request: method, URL without secrets, status and milliseconds. Never headers (they carry
 * tokens) nor bodies (they carry codes). Costs nothing when the level leaves request lines out.
 */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    if (!log.isLevelEnabled('info') || req.url === '/healthz') {
      next();
      return;
    }
    const started = performance.now();
    res.once('finish', () => {
      const line = {
        req: { method: req.method, url: withoutSecrets(req.originalUrl) },
        res: { status: res.statusCode },
        ms: Math.round(performance.now() - started),
      };
      const summary = `${line.req.method} ${line.req.url} ${line.res.status} ${line.ms} ms`;
      if (res.statusCode >= 500) log.error(line, summary);
      else log.info(line, summary);
    });
    next();
  };
}
