import { httpUrl, loadEnv, port } from '@svc/server-kit';
import { z } from 'zod';

const schema = z
  .object({
    CORE_PORT: port(8081),
    CORE_URL: httpUrl.optional(),
    /** How long an idle runner waits between polls of core, in milliseconds. */
    EVAL_RUNNER_POLL_MS: z.coerce.number().int().min(50).default(2000),
  })
  .transform((env) => ({
    coreUrl: env.CORE_URL ?? `http://127.0.0.1:${env.CORE_PORT}`,
    pollMs: env.EVAL_RUNNER_POLL_MS,
  }));

export type RunnerEnv = z.infer<typeof schema>;

export const readEnv = (env: NodeJS.ProcessEnv = process.env): RunnerEnv => loadEnv(schema, env);
