import { DomainError } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import type { Express } from 'express';
import type { Endpoint } from './endpoint.ts';
import { answerError } from './mount.ts';

/**
 * A path the API serves, asked with a method it does not take: 405 `method_not_allowed` naming the methods it
 * takes in `Allow`, in the shape its endpoints answer errors; OPTIONS answers 204 with `Allow`. Mounted after
 * every route, so only a method no route took gets here.
 */
export function mountMethodNotAllowed(app: Express, endpoints: Endpoint[], log: Logger): void {
  const byPath = new Map<string, Endpoint[]>();
  for (const ep of endpoints) byPath.set(ep.path, [...(byPath.get(ep.path) ?? []), ep]);
  for (const [path, served] of byPath) {
    const methods = served.map((ep) => ep.method.toUpperCase());
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    app.all(path, (req, res) => {
      res.set({ ...served[0]!.responseHeaders, Allow: allow });
      if (req.method === 'OPTIONS') {
        res.status(204).end();
        return;
      }
      const error = new DomainError('method_not_allowed', `${req.method} is not allowed here; use ${methods.join(' or ')}`);
      answerError(served[0]!, error, req, res, log);
    });
  }
}
