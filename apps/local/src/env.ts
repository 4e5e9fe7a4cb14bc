import { resolve } from 'node:path';
import { httpUrl, loadEnv, port } from '@svc/server-kit';
import { z } from 'zod';

const schema = z
  .object({
    PORT: port(8080),
    /** Where the gateway listens: this machine only unless told otherwise, since the dev pages hold every code. */
    HOST: z.string().min(1).default('127.0.0.1'),
    CORE_PORT: port(8081),
    SVC_DATA_DIR: z.string().min(1).default('.svc'),
    SVC_PUBLIC_URL: httpUrl.optional(),
    /** The demo agent's backend, which local mode starts too. */
    DEMO_BACKEND_PORT: port(8090),
    /** Core's key, passed to every process; generated into the data dir when unset. */
    SVC_SECRET_KEY: z.string().optional(),
  })
  .refine((env) => env.PORT !== env.CORE_PORT || env.PORT === 0, {
    path: ['CORE_PORT'],
    message: 'must differ from PORT',
  })
  .transform((env) => ({
    port: env.PORT,
    host: env.HOST,
    corePort: env.CORE_PORT,
    dataDir: resolve(env.SVC_DATA_DIR),
    publicUrl: env.SVC_PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    demoBackendPort: env.DEMO_BACKEND_PORT,
    secretKey: env.SVC_SECRET_KEY,
  }));

export type LocalEnv = z.infer<typeof schema>;

export const readEnv = (env: NodeJS.ProcessEnv = process.env): LocalEnv => loadEnv(schema, env);
