import { randomInt } from 'node:crypto';
import type { ChannelAnswer, CoreClient } from '@svc/core-client';
import { DomainError, type WireError } from '@svc/domain';
import { TRPCClientError } from '@trpc/client';
import { currentRequestId } from '@svc/server-kit';
import { createRecursiveProxy } from '@trpc/server/unstable-core-do-not-import';
import { CallNotSentError, CoreChannel, type CoreChannelOptions } from './core-channel.ts';

export type { CoreClient };

/** Per-call options that forward the caller's credential to core. */
export interface CallOptions {
  context: {
    authorization: string | undefined;
    session?: string | undefined;
  };
}

/** Call options for core calls made on nobody's behalf (public endpoints, provider webhooks, dev pages). */
export const anonymous: CallOptions = { context: { authorization: undefined } };

export interface CoreConnection {
  client: CoreClient;
  /** Closes the channels to core; calls still waiting fail. */
  close(): void;
}

export interface ConnectOptions extends Pick<CoreChannelOptions, 'silenceMs'> {
  /** Which of the cores the calls go to while it is up, by its place in `coreUrls`: one at random unless told. */
  home?: number;
}

/**
 * The gateway's typed client for core: `core.verifications.create.mutate(input, options)`, typed by core's router,
 * over core's tRPC channel (a WebSocket at `<coreUrl>/trpc`); each call forwards its caller's credential from
 * `context`. With several cores, the gateway keeps to one of them while it is up, its home, as gRPC's `pick_first`
 * does: its calls meet there and go to the database together, and a core it does not need costs no CPU. Each gateway
 * picks its home at random when it starts, so that several gateways spread over the cores. A call that could not
 * reach its core goes to the next one in `coreUrls`' order (a call that reached a core which then went away fails,
 * since it may have run there), and a core that could not be reached is passed over for a second, then tried again:
 * the calls go home once it is back. Core's answers for the caller's mistakes (a wrong code, an unknown id...) come
 * back as the DomainError core threw, without a stack trace to capture; core's own faults and transport failures as
 * tRPC's TRPCClientError. Each call carries the id of the request it serves. The channel presents `internalToken`,
 * without which core refuses it. A core silent for `silenceMs` (pings unanswered: stopped, hung) counts as gone: its
 * calls fail, as when it goes away.
 */
export function connectCoreChannel(
  coreUrls: string | readonly string[],
  internalToken: string,
  { silenceMs, home }: ConnectOptions = {},
): CoreConnection {
  const urls = typeof coreUrls === 'string' ? [coreUrls] : coreUrls;
  const channels = urls.map((coreUrl) => {
    const url = new URL(`${coreUrl.replace(/\/$/, '')}/trpc`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    // With several cores, one that takes connections but never answers is passed over after a second.
    return new CoreChannel(url.href, { internalToken, silenceMs, openTimeoutMs: urls.length > 1 ? 1_000 : undefined });
  });
  if (channels.length === 0) throw new TypeError('connectCoreChannel needs at least one core URL');
  const first = home ?? randomInt(channels.length);
  const inOrder = [...channels.slice(first), ...channels.slice(0, first)];

  /** Tries the channels from home on: those up first, then those passed over (one may be back). */
  async function send(message: Parameters<CoreChannel['call']>[0]): Promise<ChannelAnswer> {
    let lastError: Error | undefined;
    const up = inOrder.map((channel) => channel.up);
    for (const channel of [...inOrder.filter((_, i) => up[i]), ...inOrder.filter((_, i) => !up[i])]) {
      try {
        return await channel.call(message);
      } catch (error) {
        if (!(error instanceof CallNotSentError)) throw error;
        lastError = error.cause as Error;
      }
    }
    throw lastError;
  }

  async function call(type: 'query' | 'mutation', path: string, input: unknown, options?: CallOptions): Promise<unknown> {
    const { authorization, session } = options?.context ?? anonymous.context;
    let answer: ChannelAnswer;
    try {
      answer = await send({ type, path, input, authorization, session, requestId: currentRequestId() });
    } catch (cause) {
      throw TRPCClientError.from(cause as Error);
    }
    if ('error' in answer) {
      const wire = (answer.error as { data?: { svc?: WireError } }).data?.svc;
      if (wire && wire.code !== 'internal_error') throw DomainError.fromWire(wire);
      throw TRPCClientError.from(answer as never);
    }
    return answer.result.data;
  }

  const client = createRecursiveProxy(({ path, args }) => {
    const method = path.at(-1);
    if (method !== 'query' && method !== 'mutate') throw new TypeError(`core.${path.join('.')} is not a query or a mutation`);
    return call(method === 'query' ? 'query' : 'mutation', path.slice(0, -1).join('.'), args[0], args[1] as CallOptions | undefined);
  }) as CoreClient;
  return {
    client,
    close: () => {
      for (const channel of channels) channel.close();
    },
  };
}
