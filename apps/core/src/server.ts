import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { DomainError } from '@svc/domain';
import type { TRPCError } from '@trpc/server';
import { internalTokenCheck, internalTokenHeader, type Logger } from '@svc/server-kit';
import { appRouter } from './root.ts';
import type { Services } from './services.ts';
import { createContext, errorCodeOf, sessionHeader } from './platform/trpc.ts';
import { createTrpcChannel } from './platform/trpc-channel.ts';
import type { CallAnswered } from './platform/trpc-call.ts';
import { createTrpcHttpHandler } from './platform/trpc-http.ts';
import { withCallBudget } from './platform/call-budget.ts';

export const trpcPath = '/trpc';

export interface CoreServer {
  server: Server;
  /**
   * Serves core's calls and health with `services` from now on; until then, every request answers 503 and every
   * channel is refused, as a core that is starting.
   */
  serve(services: Services, options: ServeOptions): { closeChannels(): Promise<void> };
}

export interface ServeOptions {
  secretKey: Buffer;
  log: Logger;
  /** How many calls a gateway may send in a frame; any number when unset. */
  callsPerFrame?: number;
  /** The database time each call has, all its waits together (PostgreSQL's); unset, each statement has its own. */
  callBudgetMs?: number;
}

const refusal = '{"error":{"code":"unauthorized","message":"core answers only the platform\'s own processes"}}';

/** A load balancer's probe gets its answer in time even when the database does not answer. */
const healthTimeoutMs = 1_500;

/** Whether the database answered within the health timeout. */
async function databaseAnswers(services: Services): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), healthTimeoutMs)));
  try {
    return await Promise.race([
      services.store.ping().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const starting = '{"status":"starting"}';

/**
 * Core's HTTP server: tRPC under /trpc over HTTP (tRPC's httpLink, for the eval runner) and as a WebSocket channel
 * (an upgrade of GET /trpc, for the gateway), and /healthz (200 once the database answered, else 503). Procedures
 * trust what their callers state (a client's IP for rate limits), so every tRPC call and upgrade must carry the
 * internal token derived from the secret key; anything else on the host (an agent's tool call, a neighbour) is
 * refused. The server is made, and can listen, before the services exist: a core whose port is taken fails before it
 * opens its database, and one that is starting answers 503 meanwhile.
 */
export function createCoreServer(): CoreServer {
  const server = createServer();
  const whileStarting = (_req: IncomingMessage, res: ServerResponse) =>
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end(starting);
  const refuseWhileStarting = (_req: IncomingMessage, socket: Duplex) =>
    socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n');
  server.on('request', whileStarting);
  server.on('upgrade', refuseWhileStarting);
  return {
    server,
    serve(services, options) {
      const { handle, upgrade, closeChannels } = coreHandlers(services, options);
      server.off('request', whileStarting).on('request', handle);
      server.off('upgrade', refuseWhileStarting).on('upgrade', upgrade);
      return { closeChannels };
    },
  };
}

/** What answers core's requests and channels, with `services`. */
function coreHandlers(services: Services, { secretKey, log, callsPerFrame, callBudgetMs }: ServeOptions) {
  const isInternal = internalTokenCheck(secretKey);
  const onError = (error: TRPCError, path: string) => {
    if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof DomainError))
      log.error({ err: error.cause ?? error, path }, 'procedure failed');
  };
  const onAnswered = ({ procedure, error, seconds }: CallAnswered) =>
    services.metrics.callAnswered(procedure, error ? errorCodeOf(error) : 'ok', seconds);
  const within = callBudgetMs === undefined ? undefined : <T>(work: () => Promise<T>) => withCallBudget(callBudgetMs, work);
  const trpc = createTrpcHttpHandler({
    router: appRouter,
    prefix: `${trpcPath}/`,
    createContext: (req) => createContext(services, req.headers.authorization, req.headers[sessionHeader] as string | undefined),
    onError,
    onAnswered,
    within,
  });
  const channel = createTrpcChannel({
    router: appRouter,
    createContext: (authorization, session) => createContext(services, authorization, session),
    onError,
    onAnswered,
    within,
    onChannelError: (error) => log.warn({ err: error }, 'closed a core channel that broke the protocol'),
    callsPerFrame,
  });
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/healthz') {
      void databaseAnswers(services).then((ok) =>
        res
          .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
          .end(ok ? '{"status":"ok"}' : '{"status":"database_unavailable"}'),
      );
      return;
    }
    if (req.url?.startsWith(`${trpcPath}/`)) {
      if (isInternal(req.headers[internalTokenHeader])) void trpc(req, res);
      else res.writeHead(401, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(refusal) }).end(refusal);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"not found"}}');
  };
  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (req.url !== trpcPath) socket.destroy();
    else if (isInternal(req.headers[internalTokenHeader])) channel.upgrade(req, socket, head);
    else
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(refusal)}\r\n\r\n${refusal}`,
      );
  };
  return { handle, upgrade, closeChannels: () => channel.close() };
}
