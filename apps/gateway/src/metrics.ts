import { httpRequestDurations } from '@svc/server-kit';
import type { Request, RequestHandler, Router } from 'express';
import { Registry } from 'prom-client';

type Route = { path: unknown };

/**
 * The gateway's metrics: its answers by route pattern (`/api/v1/:slug/phone_verifications`, never the path with its
 * ids), method and status, and how long they took. A route of a router mounted below a path is named in full: the
 * router's mount is no longer in the request by the time an error it passed on is answered, so it is looked up.
 */
export function createGatewayMetrics() {
  const registry = new Registry();
  const observe = httpRequestDurations(registry);
  const mounts = new WeakMap<Route, string>();
  const routeOf = (req: Request): string => {
    const route = req.route as Route | undefined;
    return route ? `${mounts.get(route) ?? ''}${String(route.path)}` : 'unmatched';
  };
  const requestDurations: RequestHandler = (req, res, next) => {
    observe(req, res, () => routeOf(req));
    next();
  };
  return {
    registry,
    requestDurations,
    /** Names the routes of `router` as mounted at `path`. */
    mounted(path: string, router: Router): void {
      for (const layer of router.stack as { route?: Route }[]) if (layer.route) mounts.set(layer.route, path === '/' ? '' : path);
    },
  };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;
