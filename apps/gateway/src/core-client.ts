import type { AppRouter } from '@svc/core';
import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { Agent, request } from 'undici';

export type CoreClient = ReturnType<typeof createCoreClient>;

/** Per-call options that forward the caller's credential to core. */
export interface CallOptions {
  context: { authorization: string | undefined; session?: string | undefined };
}

/** Call options for core calls made on nobody's behalf (public endpoints, provider webhooks, dev pages). */
export const anonymous: CallOptions = { context: { authorization: undefined } };

/**
 * The gateway's link to core, in tRPC's httpLink protocol (a query is `GET <path>?input=<json>`, a mutation a POST
 * of the JSON input), over undici's request API and a keep-alive pool. It replaces httpLink, whose fetch-shaped
 * plumbing cost more CPU than core's whole answer on the path of every API request; the typed client, errors and
 * core's procedures are tRPC's own. Each call forwards its caller's credential from `context`.
 */
function coreLink(baseUrl: string): TRPCLink<AppRouter> {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 256 });
  return () =>
    ({ op }) =>
      observable((observer) => {
        const { authorization, session } = op.context as CallOptions['context'];
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (typeof authorization === 'string') headers.authorization = authorization;
        if (typeof session === 'string') headers['x-svc-session'] = session;
        const isQuery = op.type === 'query';
        const query = isQuery && op.input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(op.input))}` : '';
        request(`${baseUrl}/${op.path}${query}`, {
          method: isQuery ? 'GET' : 'POST',
          headers,
          body: isQuery ? undefined : JSON.stringify(op.input ?? null),
          dispatcher,
        })
          .then(async (response) => {
            const json = (await response.body.json()) as { result?: { data?: unknown }; error?: unknown };
            if (json.error !== undefined) throw TRPCClientError.from(json as never);
            observer.next({ result: { type: 'data', data: json.result?.data } });
            observer.complete();
          })
          .catch((cause: unknown) => observer.error(TRPCClientError.from(cause as Error)));
      });
}

export function createCoreClient(coreUrl: string) {
  return createTRPCClient<AppRouter>({ links: [coreLink(`${coreUrl}/trpc`)] });
}
