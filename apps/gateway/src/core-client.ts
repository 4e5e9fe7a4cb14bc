import type { AppRouter } from '@svc/core';
import { createTRPCClient, httpLink } from '@trpc/client';

export type CoreClient = ReturnType<typeof createCoreClient>;

/** Per-call options that forward the caller's credential to core. */
export interface CallOptions {
  context: { authorization: string | undefined };
}

export function createCoreClient(coreUrl: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${coreUrl}/trpc`,
        headers: ({ op }) => {
          const authorization = op.context.authorization;
          return typeof authorization === 'string' ? { authorization } : {};
        },
      }),
    ],
  });
}
