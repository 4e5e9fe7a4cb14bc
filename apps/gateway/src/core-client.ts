import type { AppRouter } from '@svc/core';
import { DomainError, type WireError } from '@svc/domain';
import { type TRPCClient, TRPCClientError } from '@trpc/client';
import { createRecursiveProxy } from '@trpc/server/unstable-core-do-not-import';
import { exchange } from '@svc/server-kit';
import { Agent } from 'undici';

export type CoreClient = TRPCClient<AppRouter>;

/** Per-call options that forward the caller's credential to core. */
export interface CallOptions {
  context: { authorization: string | undefined; session?: string | undefined };
}

/** Call options for core calls made on nobody's behalf (public endpoints, provider webhooks, dev pages). */
export const anonymous: CallOptions = { context: { authorization: undefined } };

type Answer = { result?: { data?: unknown }; error?: { data?: { svc?: WireError } } };

/**
 * The gateway's typed client for core: `core.verifications.create.mutate(input, options)`, typed by core's router,
 * in tRPC's httpLink protocol (a query is `GET <path>?input=<json>`, a mutation a POST of the JSON input) over
 * undici's dispatch API and a keep-alive pool; each call forwards its caller's credential from `context`. Core's
 * answers for the caller's mistakes (a wrong code, an unknown id...) come back as the DomainError core threw,
 * without a stack trace to capture; core's own faults and transport failures as tRPC's TRPCClientError.
 * It stands in for tRPC's client and httpLink, whose observables, abort signals and fetch-shaped plumbing cost
 * more CPU than core's whole answer on the path of every API request.
 */
export function createCoreClient(coreUrl: string): CoreClient {
  const { origin, pathname } = new URL(coreUrl);
  const prefix = `${pathname.replace(/\/$/, '')}/trpc/`;
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 256 });

  async function call(type: 'query' | 'mutation', path: string, input: unknown, options?: CallOptions): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const { authorization, session } = options?.context ?? anonymous.context;
    if (typeof authorization === 'string') headers.authorization = authorization;
    if (typeof session === 'string') headers['x-svc-session'] = session;
    const isQuery = type === 'query';
    let answer: Answer;
    try {
      const query = isQuery && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : '';
      const { text } = await exchange(
        { origin, path: `${prefix}${path}${query}`, method: isQuery ? 'GET' : 'POST', headers, body: isQuery ? undefined : JSON.stringify(input ?? null) },
        dispatcher,
      );
      answer = JSON.parse(text) as Answer;
    } catch (cause) {
      throw TRPCClientError.from(cause as Error);
    }
    if (answer.error !== undefined) {
      const wire = answer.error.data?.svc;
      if (wire && wire.code !== 'internal_error') throw DomainError.fromWire(wire);
      throw TRPCClientError.from(answer as never);
    }
    return answer.result?.data;
  }

  return createRecursiveProxy(({ path, args }) => {
    const method = path.at(-1);
    if (method !== 'query' && method !== 'mutate') throw new TypeError(`core.${path.join('.')} is not a query or a mutation`);
    return call(method === 'query' ? 'query' : 'mutation', path.slice(0, -1).join('.'), args[0], args[1] as CallOptions | undefined);
  }) as CoreClient;
}
