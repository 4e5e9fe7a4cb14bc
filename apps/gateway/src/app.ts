import { DomainError } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import express, { type Express, type Router } from 'express';
import type { CoreClient } from './core-client.ts';
import { endpoints } from './endpoints/index.ts';
import { errorHandler } from './http/errors.ts';
import { mountMethodNotAllowed } from './http/method-not-allowed.ts';
import { mountEndpoints } from './http/mount.ts';
import { defaultEventsHeartbeatMs } from './http/run-events.ts';
import { requestId } from './http/request-id.ts';
import { requestLog } from './http/request-log.ts';
import { securityHeaders } from './http/security-headers.ts';
import type { GatewayMetrics } from './metrics.ts';
import { consoleRoutes } from './routes/console/index.ts';
import { devRoutes } from './routes/dev.tsx';
import { discoveryRoutes } from './routes/discovery.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { webhookRoutes } from './routes/webhooks.ts';

export interface GatewayAppOptions {
  core: CoreClient;
  publicUrl: string;
  /** Local mode adds the dev outbox and mailbox routes. */
  localMode?: boolean;
  log: Logger;
  /** How often event streams send a keep-alive comment (SVC_EVENTS_HEARTBEAT_MS). */
  eventsHeartbeatMs?: number;
  /** Aborted when the gateway stops: event streams end. */
  closing?: AbortSignal;
  /** Counts the answers by route, method and status; none when left out. */
  metrics?: GatewayMetrics;
}

/** A router of the gateway besides the API's endpoints, and the path it is mounted at. */
export interface MountedRouter {
  path: string;
  router: Router;
}

/**
 * The webhooks, the console's pages, (in local mode) the dev pages, the OpenAPI document and the OAuth server's
 * metadata, in the order tried.
 */
export function mountedRouters({ core, publicUrl, localMode = false, log }: GatewayAppOptions): MountedRouter[] {
  return [
    { path: '/webhooks', router: webhookRoutes(core, publicUrl) },
    { path: '/', router: consoleRoutes(core, publicUrl, log, localMode) },
    ...(localMode ? [{ path: '/dev', router: devRoutes(core) }] : []),
    { path: '/', router: openApiRoutes(endpoints, publicUrl) },
    { path: '/', router: discoveryRoutes(endpoints, publicUrl) },
  ];
}

export function createGatewayApp(options: GatewayAppOptions): Express {
  const { core, log } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('etag', false);
  app.use(requestId);
  if (options.metrics) app.use(options.metrics.requestDurations);
  app.use(requestLog(log));
  app.use(securityHeaders(options.publicUrl));
  // The API first: express tries routes in order, and it carries the traffic.
  const streams = {
    heartbeatMs: options.eventsHeartbeatMs ?? defaultEventsHeartbeatMs,
    closing: options.closing ?? new AbortController().signal,
  };
  mountEndpoints(app, core, endpoints, log, streams);
  for (const { path, router } of mountedRouters(options)) {
    app.use(path, router);
    options.metrics?.mounted(path, router);
  }
  mountMethodNotAllowed(app, endpoints, log);
  app.use((req, _res, next) => {
    next(new DomainError('not_found', `no route for ${req.method} ${req.path}`));
  });
  app.use(errorHandler(log));
  return app;
}
