import { createServer, type Server } from 'node:http';
import { DomainError } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import { appRouter } from './root.ts';
import type { Services } from './services/index.ts';
import { createContext, sessionHeader } from './trpc.ts';
import { createTrpcHttpHandler } from './trpc-http.ts';

export const trpcPath = '/trpc';

/** Core's HTTP server: tRPC under /trpc, and /healthz. Listens on loopback only; the gateway is its client. */
export function createCoreServer(services: Services, log: Logger): Server {
  const trpc = createTrpcHttpHandler({
    router: appRouter,
    prefix: `${trpcPath}/`,
    createContext: (req) => createContext(services, req.headers.authorization, req.headers[sessionHeader] as string | undefined),
    onError: (error, path) => {
      if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof DomainError)) log.error({ err: error.cause ?? error, path }, 'procedure failed');
    },
  });
  return createServer((req, res) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (req.url?.startsWith(`${trpcPath}/`)) {
      void trpc(req, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"not found"}}');
  });
}
