import { DomainError } from '@svc/domain';
import type { RequestHandler } from 'express';

const unsafe = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

/** Where a browser says the request came from: this origin, another, or unknown (no header, or `Origin: null`). */
function sender(headers: Record<string, string | string[] | undefined>): 'same' | 'other' | 'unknown' {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none' ? 'same' : 'other';
  const origin = headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return 'unknown';
  try {
    return new URL(origin).host === headers.host ? 'same' : 'other';
  } catch {
    return 'other';
  }
}

/**
 * A POST (or any change) that a page of another site made the browser send is refused with 403, on top of the
 * CSRF token: the browser says where it came from, in Fetch Metadata (`Sec-Fetch-Site`) or, from browsers without
 * it, in `Origin` (the pages send no Referer, so their own form posts may carry `Origin: null`). A client that is
 * not a browser (curl) sends neither and passes.
 */
export const sameOriginChanges =
  (what: string): RequestHandler =>
  (req, _res, next) => {
    if (!unsafe(req.method) || sender(req.headers) !== 'other') next();
    else next(new DomainError('forbidden', `${what} take posts from their own pages only`));
  };
