import { z } from 'zod';
import { httpUrl, port } from '@svc/server-kit';

/** The variables that say where core is, for an app's env schema: `CORE_URLS`, else `CORE_URL`, else the loopback and `CORE_PORT`. */
export const coreUrlVariables = {
  CORE_PORT: port(8081),
  /** Where core listens; defaults to the loopback address and CORE_PORT. */
  CORE_URL: httpUrl.optional(),
  /** Several cores, comma-separated. Overrides CORE_URL. */
  CORE_URLS: z
    .string()
    .optional()
    .transform((list) =>
      list
        ?.split(',')
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(z.array(httpUrl).min(1, 'expected one or more core URLs, comma-separated').optional()),
};

/** The cores the variables name, a list of one without `CORE_URLS`. */
export const coreUrlsOf = (env: { CORE_PORT: number; CORE_URL?: string; CORE_URLS?: string[] }): string[] =>
  env.CORE_URLS ?? [env.CORE_URL ?? `http://127.0.0.1:${env.CORE_PORT}`];

type Send = (url: string, init?: RequestInit) => Promise<Response>;

/**
 * Calls to one of several cores, the same one until it cannot be reached (the request fails without an answer),
 * then the next: a request no core took goes to each in turn once. An answer, even an error, is core's answer.
 */
export function createCoreFailover(urls: string[]) {
  if (urls.length === 0) throw new Error('expected one or more core URLs');
  let current = 0;
  return {
    /** The core calls go to now. */
    current: () => urls[current]!,
    /** A fetch for tRPC's httpLink pointed at `${urls[0]}/trpc`: it sends each request to the current core. */
    fetch(send: Send = (url, init) => fetch(url, init)) {
      return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const path = String(input).slice(urls[0]!.length);
        for (let tried = 1; ; tried++) {
          const base = current;
          try {
            return await send(`${urls[base]}${path}`, init);
          } catch (error) {
            if (tried >= urls.length || init?.signal?.aborted) throw error;
            if (current === base) current = (base + 1) % urls.length;
          }
        }
      };
    },
  };
}

export type CoreFailover = ReturnType<typeof createCoreFailover>;
