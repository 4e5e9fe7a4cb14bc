import { DomainError } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import express, { type Express } from 'express';
import type { CoreClient } from './core-client.ts';
import { endpoints } from './endpoints/index.ts';
import { errorHandler } from './http/errors.ts';
import { mountEndpoints } from './http/mount.ts';
import { requestLog } from './http/request-log.ts';
import { openApiDocument } from './openapi.ts';
import { consoleRoutes } from './routes/console/index.ts';
import { devRoutes } from './routes/dev.ts';
import { webhookRoutes } from './routes/webhooks.ts';

export interface GatewayAppOptions {
  core: CoreClient;
  publicUrl: string;
  /** Local mode adds the dev outbox and mailbox routes. */
  localMode?: boolean;
  log: Logger;
}

export function createGatewayApp({ core, publicUrl, localMode = false, log }: GatewayAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('etag', false);
  app.use(requestLog(log));
  // The API first: express tries routes in order, and the API carries the traffic.
  mountEndpoints(app, core, endpoints, log);
  app.use('/webhooks', webhookRoutes(core, publicUrl));
  app.use(consoleRoutes(core, publicUrl, log));
  if (localMode) app.use('/dev', devRoutes(core));

  const document = openApiDocument(endpoints, publicUrl);
  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });

  app.use((req, _res, next) => {
    next(new DomainError('not_found', `no route for ${req.method} ${req.path}`));
  });
  app.use(errorHandler(log));
  return app;
}
