import { resolve } from 'node:path';
import { flag, httpUrl, loadEnv, port, readSecretKey } from '@svc/server-kit';
import { z } from 'zod';

const schema = z.object({
  CORE_PORT: port(8081),
  CORE_URL: httpUrl.optional(),
  /** How long an idle runner waits between polls of core, in milliseconds. */
  EVAL_RUNNER_POLL_MS: z.coerce.number().int().min(50).default(2000),
  /** Core's: the runner presents the internal token derived from it on every call to core. */
  SVC_SECRET_KEY: z.string().optional(),
  SVC_LOCAL_MODE: flag,
  SVC_DATA_DIR: z.string().min(1).default('.svc'),
});

export interface RunnerEnv {
  coreUrl: string;
  pollMs: number;
  secretKey: Buffer;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): RunnerEnv {
  const parsed = loadEnv(schema, env);
  return {
    coreUrl: parsed.CORE_URL ?? `http://127.0.0.1:${parsed.CORE_PORT}`,
    pollMs: parsed.EVAL_RUNNER_POLL_MS,
    secretKey: readSecretKey(parsed.SVC_SECRET_KEY, parsed.SVC_LOCAL_MODE ? { dataDir: resolve(parsed.SVC_DATA_DIR) } : undefined),
  };
}
