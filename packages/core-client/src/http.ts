import { bufferedFetch, deriveInternalToken, internalTokenHeader, requestIdHeaders } from '@svc/server-kit';
import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import { Agent, fetch as undiciFetch } from 'undici';
import { createCoreFailover } from './core-urls.ts';
import type { AppRouter } from './router.ts';

export type CoreClient = TRPCClient<AppRouter>;

export interface CoreConnection {
  /** Calls that answer at once. */
  core: CoreClient;
  /** Long polls, on connections of their own: a poll left waiting never holds core's shutdown up. */
  poll: CoreClient;
  /** The core calls go to now. */
  current(): string;
  /** Closes the long polls' connections; polls still waiting fail. */
  close(): Promise<void>;
}

/**
 * Core over HTTP in tRPC's protocol, with the internal token derived from core's SVC_SECRET_KEY and a request id:
 * one of `coreUrls`, the next when the one called cannot be reached. (The gateway calls core over core's channel.)
 */
export function connectCoreOverHttp(coreUrls: string[], secretKey: Buffer): CoreConnection {
  const internalToken = deriveInternalToken(secretKey);
  // Each call carries the id of what it serves (a webhook delivery, an event, a case), or one of its own.
  const headers = () => ({ [internalTokenHeader]: internalToken, ...requestIdHeaders() });
  const failover = createCoreFailover(coreUrls);
  const url = `${coreUrls[0]}/trpc`;
  const polls = new Agent();
  return {
    core: createTRPCClient<AppRouter>({ links: [httpLink({ url, headers, fetch: failover.fetch(bufferedFetch) })] }),
    poll: createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url,
          headers,
          fetch: failover.fetch(
            (input, init) => undiciFetch(input, { ...(init as object), dispatcher: polls }) as unknown as Promise<Response>,
          ),
        }),
      ],
    }),
    current: failover.current,
    close: () => polls.destroy(),
  };
}
