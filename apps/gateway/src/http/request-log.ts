import type { Logger } from '@svc/server-kit';
import type { RequestHandler } from 'express';

/** Query parameters that carry codes or credentials (a user code in `/device?user_code=`, Meta's verify token). */
const secretParams = new Set(['code', 'token', 'access_token', 'hub.verify_token', 'device_code', 'user_code', 'csrf_token']);

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function withoutSecretParam(pair: string): string {
  const equals = pair.indexOf('=');
  const name = equals === -1 ? pair : pair.slice(0, equals);
  if (secretParams.has((decode(name) ?? name).toLowerCase())) return `${name}=[redacted]`;
  if (equals === -1) return pair;
  // A value may itself be a URL with secrets, e.g. `/login?next=/device?user_code=...`.
  const value = decode(pair.slice(equals + 1));
  const clean = value === undefined ? undefined : withoutSecrets(value);
  return clean === undefined || clean === value ? pair : `${name}=${encodeURIComponent(clean)}`;
}

/**
 * A request URL fit for a log: the token of a sign-in or invitation link and the values of query parameters that carry codes or
 * tokens are credentials. A parameter's name is matched decoded, so an escaped name hides nothing.
 */
export function withoutSecrets(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt))
    .replace(/\/auth\/link\/[^/]+/i, '/auth/link/[redacted]')
    .replace(/^\/invitations\/[^/]+/i, '/invitations/[redacted]');
  if (queryAt === -1) return path;
  return `${path}?${url
    .slice(queryAt + 1)
    .split('&')
    .map(withoutSecretParam)
    .join('&')}`;
}

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
