import { resolve } from 'node:path';
import { flag, loadEnv, port } from '@svc/server-kit';
import { z } from 'zod';

const schema = z
  .object({
    CORE_PORT: port(8081),
    CORE_HOST: z.string().default('127.0.0.1'),
    SVC_DATA_DIR: z.string().min(1).default('.svc'),
    /** Set by `pnpm start`: seed the demo data and enable dev-only behaviour. */
    SVC_LOCAL_MODE: flag,
  })
  .transform((env) => ({
    port: env.CORE_PORT,
    host: env.CORE_HOST,
    dataDir: resolve(env.SVC_DATA_DIR),
    localMode: env.SVC_LOCAL_MODE,
  }));

export type CoreEnv = z.infer<typeof schema>;

export const readEnv = (env: NodeJS.ProcessEnv = process.env): CoreEnv => loadEnv(schema, env);
