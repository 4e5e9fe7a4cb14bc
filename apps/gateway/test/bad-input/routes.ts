import { createLogger } from '@svc/server-kit';
import { mountedRouters } from '../../src/app.ts';
import type { CoreClient } from '../../src/core-client.ts';
import { endpoints } from '../../src/endpoints/index.ts';

export interface ServedRoute {
  method: string;
  /** Express-style, e.g. `/cli/workspaces/:workspace`. */
  path: string;
  /** API routes answer errors as JSON; the console's and the dev pages may answer them as a page. */
  answers: 'json' | 'page';
  /** The body type the route reads, for requests that should reach its body parser. */
  bodyType: string;
  /** Errors in OAuth's shape, `{"error":"<name>"}`, with OAuth's `invalid_request` for any unreadable request. */
  oauth?: boolean;
}

const join = (mount: string, path: string) => (mount === '/' ? path : `${mount}${path}`);

/**
 * Every route the gateway serves in local mode: the endpoint declarations and the routes of every mounted router,
 * read from the same tables the app is built from, so a new route is covered without listing it here.
 */
export function servedRoutes(): ServedRoute[] {
  const api = endpoints.map((ep) => ({
    method: ep.method.toUpperCase(),
    path: ep.path,
    answers: 'json' as const,
    bodyType: 'application/json',
    oauth: ep.oauth,
  }));
  // Building the routers calls nothing on core; only their route tables are read.
  const routers = mountedRouters({
    core: {} as CoreClient,
    publicUrl: 'http://localhost',
    localMode: true,
    log: createLogger('gateway', { LOG_LEVEL: 'silent' }),
  });
  const others = routers.flatMap(({ path: mount, router }) =>
    router.stack.flatMap((layer) => {
      const route = layer.route;
      if (!route) return [];
      const path = join(mount, route.path);
      const isPage = mount !== '/webhooks' && !path.endsWith('.json');
      const methods = new Set(route.stack.map((handler) => handler.method.toUpperCase()));
      return [...methods].map((method) => ({
        method,
        path,
        answers: isPage ? ('page' as const) : ('json' as const),
        bodyType: isPage ? 'application/x-www-form-urlencoded' : 'application/json',
      }));
    }),
  );
  return [...api, ...others];
}

/** The route's path with each parameter filled by `fill(name)`. */
export function concretePath(route: ServedRoute, fill: (name: string) => string): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => fill(name));
}

export const parameters = (route: ServedRoute) => [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
