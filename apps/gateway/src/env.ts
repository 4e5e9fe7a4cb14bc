import { resolve } from 'node:path';
import { coreUrlsOf, coreUrlVariables } from '@svc/core-client';
import {
  flag,
  httpUrl,
  loadEnv,
  metricsHost,
  metricsPort,
  type MetricsSettings,
  metricsSettingsOf,
  port,
  readSecretKey,
} from '@svc/server-kit';
import { z } from 'zod';
import { defaultCoreSilenceMs } from './core-channel.ts';
import { defaultEventsHeartbeatMs } from './http/run-events.ts';

const schema = z
  .object({
    PORT: port(8080),
    /** The address the gateway listens on; local mode keeps to loopback unless told otherwise. */
    HOST: z.string().min(1).optional(),
    ...coreUrlVariables,
    /** The address users reach the gateway at; every link the platform builds starts with it. */
    SVC_PUBLIC_URL: httpUrl.optional(),
    SVC_LOCAL_MODE: flag,
    /** Core's: the gateway presents the internal token derived from it on its channel to core. */
    SVC_SECRET_KEY: z.string().optional(),
    SVC_DATA_DIR: z.string().min(1).default('.svc'),
    /** How long a core may answer nothing, pings included, before its calls fail with 503. */
    SVC_CORE_SILENCE_MS: z.coerce.number().int().min(100).max(300_000).default(defaultCoreSilenceMs),
    /** How often an event stream (a run's events) sends a keep-alive comment. */
    SVC_EVENTS_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(defaultEventsHeartbeatMs),
    /** Serves Prometheus metrics at GET /metrics on this port of SVC_METRICS_HOST, never on PORT; unset, none. */
    GATEWAY_METRICS_PORT: metricsPort,
    SVC_METRICS_HOST: metricsHost,
  })
  .transform((env) => ({
    port: env.PORT,
    host: env.HOST ?? (env.SVC_LOCAL_MODE ? '127.0.0.1' : undefined),
    coreUrls: coreUrlsOf(env),
    publicUrl: env.SVC_PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    localMode: env.SVC_LOCAL_MODE,
    secretKeyValue: env.SVC_SECRET_KEY,
    dataDir: resolve(env.SVC_DATA_DIR),
    coreSilenceMs: env.SVC_CORE_SILENCE_MS,
    eventsHeartbeatMs: env.SVC_EVENTS_HEARTBEAT_MS,
    metrics: metricsSettingsOf('GATEWAY_METRICS_PORT', env.GATEWAY_METRICS_PORT, env.SVC_METRICS_HOST),
  }));

export interface GatewayEnv {
  port: number;
  coreUrls: string[];
  publicUrl: string;
  localMode: boolean;
  secretKey: Buffer;
  coreSilenceMs: number;
  eventsHeartbeatMs: number;
  metrics: MetricsSettings | undefined;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): GatewayEnv {
  const { secretKeyValue, dataDir, ...parsed } = loadEnv(schema, env);
  return { ...parsed, secretKey: readSecretKey(secretKeyValue, parsed.localMode ? { dataDir } : undefined) };
}
