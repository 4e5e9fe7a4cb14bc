import type { AppRouter } from '@svc/core';
import type { Logger } from '@svc/server-kit';
import { createTRPCClient, httpLink } from '@trpc/client';

export interface RunnerOptions {
  coreUrl: string;
  pollMs: number;
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
export function startRunner({ coreUrl, pollMs, log }: RunnerOptions): Runner {
  const core = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${coreUrl}/trpc` })] });
  let stopped = false;
  let wake: () => void = () => {};
  let timer: NodeJS.Timeout | undefined;
  let markConnected: () => void = () => {};
  const connected = new Promise<void>((resolve) => {
    markConnected = resolve;
  });

  const loop = (async () => {
    let reachable = false;
    while (!stopped) {
      try {
        await core.health.ping.query();
        if (!reachable) log.info({ core: coreUrl }, 'eval runner connected to core');
        reachable = true;
        markConnected();
      } catch {
        if (reachable) log.warn({ core: coreUrl }, 'core unreachable; retrying');
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
