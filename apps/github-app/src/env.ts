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
import { defaultGithubTimeoutMs } from './deadline.ts';

const schema = z.object({
  GITHUB_APP_ID: z.string().regex(/^\d+$/, 'expected the numeric App ID'),
  GITHUB_PRIVATE_KEY: z.string().min(1, 'expected the App private key (PEM)'),
  GITHUB_WEBHOOK_SECRET: z.string().min(1, 'expected the webhook secret'),
  /** GitHub Enterprise Server's API (`https://HOST/api/v3`), or a fake GitHub in tests. */
  GITHUB_API_URL: httpUrl.default('https://api.github.com'),
  /** How long GitHub may take to answer one request, from sending it to the answer's last byte. */
  GITHUB_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(defaultGithubTimeoutMs),
  GITHUB_APP_PORT: port(8082),
  /** The address to listen on: 127.0.0.1 in local mode, else every interface, unless told. */
  GITHUB_APP_HOST: z.string().min(1).optional(),
  /** Serves Prometheus metrics at GET /metrics on this port of SVC_METRICS_HOST; unset, none. */
  GITHUB_APP_METRICS_PORT: metricsPort,
  SVC_METRICS_HOST: metricsHost,
  ...coreUrlVariables,
  /** Core's: the app presents the internal token derived from it on every call to core. */
  SVC_SECRET_KEY: z.string().optional(),
  SVC_LOCAL_MODE: flag,
  SVC_DATA_DIR: z.string().min(1).default('.svc'),
  /** How long the app waits before asking core again after core did not answer, in milliseconds. */
  GITHUB_APP_POLL_MS: z.coerce.number().int().min(50).default(2000),
});

export interface GithubAppEnv {
  appId: string;
  privateKey: string;
  secret: string;
  baseUrl: string;
  timeoutMs: number;
  port: number;
  /** The address it listens on; every interface when undefined. */
  host: string | undefined;
  /** The cores the app works for: it moves to the next when the one it calls cannot be reached. */
  coreUrls: string[];
  secretKey: Buffer;
  pollMs: number;
  metrics: MetricsSettings | undefined;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): GithubAppEnv {
  const parsed = loadEnv(schema, env);
  return {
    appId: parsed.GITHUB_APP_ID,
    // A PEM in one line of an env file keeps its line breaks as `\n`.
    privateKey: parsed.GITHUB_PRIVATE_KEY.replace(/\\n/g, '\n'),
    secret: parsed.GITHUB_WEBHOOK_SECRET,
    baseUrl: parsed.GITHUB_API_URL,
    timeoutMs: parsed.GITHUB_TIMEOUT_MS,
    port: parsed.GITHUB_APP_PORT,
    // Local mode answers this machine only, as the gateway does.
    host: parsed.GITHUB_APP_HOST ?? (parsed.SVC_LOCAL_MODE ? '127.0.0.1' : undefined),
    coreUrls: coreUrlsOf(parsed),
    secretKey: readSecretKey(parsed.SVC_SECRET_KEY, parsed.SVC_LOCAL_MODE ? { dataDir: resolve(parsed.SVC_DATA_DIR) } : undefined),
    pollMs: parsed.GITHUB_APP_POLL_MS,
    metrics: metricsSettingsOf('GITHUB_APP_METRICS_PORT', parsed.GITHUB_APP_METRICS_PORT, parsed.SVC_METRICS_HOST),
  };
}
