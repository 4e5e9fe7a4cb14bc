import { type AppRouter, createCoreFailover } from '@svc/core-client';
import { deriveInternalToken, internalTokenHeader } from '@svc/server-kit';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { Agent, fetch as undiciFetch } from 'undici';

export type CoreClient = ReturnType<typeof createTRPCClient<AppRouter>>;

export interface CoreConnection {
  /** Calls that answer at once. */
  core: CoreClient;
  /** Long polls, on connections of their own: a poll left waiting never holds core's shutdown up. */
  poll: CoreClient;
  close(): Promise<void>;
}

/**
 * Core over HTTP in tRPC's protocol, with the internal token derived from core's SVC_SECRET_KEY: one of `coreUrls`,
 * the next when the one called cannot be reached.
 */
export function connectCore(coreUrls: string[], secretKey: Buffer): CoreConnection {
  const headers = { [internalTokenHeader]: deriveInternalToken(secretKey) };
  const failover = createCoreFailover(coreUrls);
  const url = `${coreUrls[0]}/trpc`;
  const polls = new Agent();
  return {
    core: createTRPCClient<AppRouter>({ links: [httpLink({ url, headers, fetch: failover.fetch() })] }),
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
    close: () => polls.destroy(),
  };
}

/** What core said went wrong: its stable code, message and details (a manifest's issues). */
export interface CoreError {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/** Core's answer to a call that failed, or `core_unreachable` when no answer came; undefined for anything else. */
export function coreErrorOf(error: unknown): CoreError | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const wire = (error.data as { svc?: Partial<CoreError> } | undefined)?.svc;
  if (!wire?.code) return { code: 'core_unreachable', message: `svc did not answer (${error.message}); push again to retry`, details: {} };
  return { code: wire.code, message: wire.message ?? wire.code, details: wire.details ?? {} };
}
