import type { AppRouter } from '@svc/core';
import { deriveInternalToken, internalTokenHeader, type Logger } from '@svc/server-kit';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';

export interface RunnerOptions {
  coreUrl: string;
  pollMs: number;
  /** Core's SVC_SECRET_KEY: core answers only calls with the internal token derived from it. */
  secretKey: Buffer;
  log: Logger;
}

export interface Runner {
  /** Resolves once core has answered for the first time. */
  connected: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The eval runner's loop. It holds no state of its own: each tick asks core for work.
 * Until case executions can be leased, a tick only checks that core answers.
 */
const refusedByCore = (error: unknown) =>
  error instanceof TRPCClientError && (error.meta?.response as Response | undefined)?.status === 401;

export function startRunner({ coreUrl, pollMs, secretKey, log }: RunnerOptions): Runner {
  const headers = { [internalTokenHeader]: deriveInternalToken(secretKey) };
  const core = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${coreUrl}/trpc`, headers })] });
  let stopped = false;
  let wake: () => void = () => {};
  let timer: NodeJS.Timeout | undefined;
  let markConnected: () => void = () => {};
  const connected = new Promise<void>((resolve) => {
    markConnected = resolve;
  });

  const loop = (async () => {
    let reachable = false;
    let refused = false;
    while (!stopped) {
      try {
        await core.health.ping.query();
        if (!reachable) log.info({ core: coreUrl }, 'eval runner connected to core');
        reachable = true;
        refused = false;
        markConnected();
      } catch (error) {
        if (refusedByCore(error)) {
          if (!refused) log.error({ core: coreUrl }, "core refused the runner: its SVC_SECRET_KEY is not core's; retrying");
          refused = true;
        } else if (reachable) log.warn({ core: coreUrl }, 'core unreachable; retrying');
        reachable = false;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, pollMs);
      });
    }
  })();

  return {
    connected,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake();
      await loop;
    },
  };
}
