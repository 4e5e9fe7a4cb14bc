import { resolve } from 'node:path';
import { defaultModelTimeoutMs, type EgressRules, type ProviderSettings } from '@svc/agent-runtime';
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

const schema = z.object({
  ...coreUrlVariables,
  /** The gateway's port on this host: refused to tool calls, like core's. */
  PORT: port(8080),
  /** How long the runner waits before asking core again after core did not answer, in milliseconds. */
  EVAL_RUNNER_POLL_MS: z.coerce.number().int().min(50).default(2000),
  /** Case executions replayed at once. */
  EVAL_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /** Serves Prometheus metrics at GET /metrics on this port of SVC_METRICS_HOST; unset, none. */
  EVAL_RUNNER_METRICS_PORT: metricsPort,
  SVC_METRICS_HOST: metricsHost,
  /** Core's: the runner presents the internal token derived from it on every call to core. */
  SVC_SECRET_KEY: z.string().optional(),
  SVC_LOCAL_MODE: flag,
  SVC_DATA_DIR: z.string().min(1).default('.svc'),
  OPENAI_BASE_URL: httpUrl.optional(),
  OPENAI_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: httpUrl.optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  /** How long one model call of a replay or a judge may take, the client's retries included, as core's. */
  SVC_MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(defaultModelTimeoutMs),
  /** Lets agents' tools call loopback and private addresses (a backend on this machine or network), as core's does. */
  SVC_TOOL_ALLOW_PRIVATE_NETWORKS: flag,
});

export interface RunnerEnv {
  /** The cores the runner works for: it moves to the next when the one it calls cannot be reached. */
  coreUrls: string[];
  pollMs: number;
  concurrency: number;
  secretKey: Buffer;
  providers: ProviderSettings;
  egress: EgressRules;
  metrics: MetricsSettings | undefined;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): RunnerEnv {
  const parsed = loadEnv(schema, env);
  const coreUrls = coreUrlsOf(parsed);
  const corePorts = coreUrls.map((url) => Number(new URL(url).port || (url.startsWith('https:') ? 443 : 80)));
  return {
    coreUrls,
    pollMs: parsed.EVAL_RUNNER_POLL_MS,
    concurrency: parsed.EVAL_CONCURRENCY,
    secretKey: readSecretKey(parsed.SVC_SECRET_KEY, parsed.SVC_LOCAL_MODE ? { dataDir: resolve(parsed.SVC_DATA_DIR) } : undefined),
    providers: {
      openai: { baseURL: parsed.OPENAI_BASE_URL, apiKey: parsed.OPENAI_API_KEY },
      anthropic: { baseURL: parsed.ANTHROPIC_BASE_URL, apiKey: parsed.ANTHROPIC_API_KEY },
      timeoutMs: parsed.SVC_MODEL_TIMEOUT_MS,
    },
    egress: { allowPrivateNetworks: parsed.SVC_TOOL_ALLOW_PRIVATE_NETWORKS, platformPorts: new Set([...corePorts, parsed.PORT]) },
    metrics: metricsSettingsOf('EVAL_RUNNER_METRICS_PORT', parsed.EVAL_RUNNER_METRICS_PORT, parsed.SVC_METRICS_HOST),
  };
}
