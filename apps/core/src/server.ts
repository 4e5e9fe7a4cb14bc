import { createServer, type Server } from 'node:http';
import { DomainError } from '@svc/domain';
import type { TRPCError } from '@trpc/server';
import type { Logger } from '@svc/server-kit';
import { appRouter } from './root.ts';
import type { Services } from './services/index.ts';
import { createContext, sessionHeader } from './trpc.ts';
import { createTrpcChannel } from './trpc-channel.ts';
import { createTrpcHttpHandler } from './trpc-http.ts';

export const trpcPath = '/trpc';

export interface CoreServer {
  server: Server;
  /** Answers the gateways' running calls, then closes their channels (before the server itself closes). */
  closeChannels(): Promise<void>;
}

/**
 * Core's HTTP server, on loopback only: tRPC under /trpc over HTTP (tRPC's httpLink, for the eval runner) and as a
 * WebSocket channel (an upgrade of GET /trpc, for the gateway), and /healthz.
 */
export function createCoreServer(services: Services, log: Logger): CoreServer {
  const onError = (error: TRPCError, path: string) => {
    if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof DomainError)) log.error({ err: error.cause ?? error, path }, 'procedure failed');
  };
  const trpc = createTrpcHttpHandler({
    router: appRouter,
    prefix: `${trpcPath}/`,
    createContext: (req) => createContext(services, req.headers.authorization, req.headers[sessionHeader] as string | undefined),
    onError,
  });
  const channel = createTrpcChannel({
    router: appRouter,
    createContext: (authorization, session) => createContext(services, authorization, session),
    onError,
    onChannelError: (error) => log.warn({ err: error }, 'closed a core channel that broke the protocol'),
  });
  const server = createServer((req, res) => {
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
  server.on('upgrade', (req, socket, head) => {
    if (req.url === trpcPath) channel.upgrade(req, socket, head);
    else socket.destroy();
  });
  return { server, closeChannels: () => channel.close() };
}
