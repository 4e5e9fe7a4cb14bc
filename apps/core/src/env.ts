import { resolve } from 'node:path';
import { defaultModelTimeoutMs } from '@svc/agent-runtime';
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
import { validCron, validTimeZone } from './digest/schedule.ts';
import { claimMs } from './platform/outbox-loop.ts';
import type { DatabaseOptions } from './bootstrap.ts';
import { type CoreConfig, defaultConfig } from './platform/config.ts';

const seconds = (fallback: number) => z.coerce.number().int().min(1, 'expected a number of seconds').default(fallback);

const schema = z.object({
  CORE_PORT: port(8081),
  /** Core trusts what its callers say (a client's IP for rate limits): it listens on loopback unless told. */
  CORE_HOST: z.string().min(1).default('127.0.0.1'),
  /** Serves Prometheus metrics at GET /metrics on this port of SVC_METRICS_HOST; unset, none. */
  CORE_METRICS_PORT: metricsPort,
  SVC_METRICS_HOST: metricsHost,
  SVC_DATA_DIR: z.string().min(1).default('.svc'),
  /** The PostgreSQL database shared by every core (postgres://user:pass@host:port/db); unset, SQLite under SVC_DATA_DIR. */
  SVC_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'expected postgres://user:password@host:port/database' }).optional(),
  /** Connections each core keeps open to PostgreSQL at most. */
  SVC_DATABASE_POOL: z.coerce.number().int().min(1).max(1000).default(10),
  /** How long a PostgreSQL statement may run, lock waits included, before the call answers 503. */
  SVC_DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** How long a call waits for a PostgreSQL connection (one of the pool's to be free, or a new one) before it answers 503. */
  SVC_DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Set by `pnpm start`: seed the demo data and enable dev-only behaviour. */
  SVC_LOCAL_MODE: flag,
  SVC_PUBLIC_URL: httpUrl.optional(),
  PORT: port(8080),
  /** 32 random bytes, base64: derives the code HMAC key, the encryption key for secrets at rest, the internal token. */
  SVC_SECRET_KEY: z.string().optional(),
  SVC_OTP_TTL_S: seconds(defaultConfig.otp.ttlSeconds),
  SVC_OTP_RESEND_S: seconds(defaultConfig.otp.resendSeconds),
  SVC_OTP_WORKSPACE_HOURLY_LIMIT: z.coerce.number().int().min(1).default(defaultConfig.otp.workspaceHourlyLimit),
  WHATSAPP_GRAPH_URL: httpUrl.default(defaultConfig.providers.whatsappGraphUrl),
  TWILIO_API_URL: httpUrl.default(defaultConfig.providers.twilioApiUrl),
  /** How long a sender's API may take to answer a send, connecting included, before the send is retried. */
  SVC_SENDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(defaultConfig.providers.timeoutMs),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'expected smtp://user:pass@host:port or smtps://...' }).optional(),
  MAIL_FROM: z.string().min(3).default(defaultConfig.mail.from),
  /** How long an SMTP server may take to connect, greet and answer each command before the send is retried. */
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(defaultConfig.mail.timeoutMs),
  OPENAI_BASE_URL: httpUrl.optional(),
  OPENAI_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: httpUrl.optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  /** How long one model call of a chat's turn may take, the client's retries included. */
  SVC_MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(defaultModelTimeoutMs),
  /** Lets agents' tools call loopback and private addresses (a backend on this machine or network). */
  SVC_TOOL_ALLOW_PRIVATE_NETWORKS: flag,
  /** The judges of eval runs, `provider:model`, comma-separated, in order of preference; none: the deterministic grader. */
  SVC_JUDGE_MODELS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^(openai|anthropic):[\w.:/-]+$/, 'expected provider:model, e.g. anthropic:claude-sonnet-4-5'))),
  /** How long a claim on the codes and mails a core sends lasts unless renewed: a core that dies mid-send leaves them to the others after it. */
  SVC_OUTBOX_CLAIM_MS: z.coerce.number().int().min(1000).default(claimMs),
  SVC_EVAL_LEASE_MS: z.coerce.number().int().min(100).default(defaultConfig.evals.leaseMs),
  /** When the daily digest runs, in SVC_DIGEST_TZ: minute hour day-of-month month day-of-week (seconds first optionally). */
  SVC_DIGEST_CRON: z.string().trim().default(defaultConfig.digest.cron).refine(validCron, 'expected a cron expression, e.g. 0 8 * * *'),
  SVC_DIGEST_TZ: z
    .string()
    .trim()
    .default(defaultConfig.digest.timeZone)
    .refine(validTimeZone, 'expected an IANA time zone, e.g. America/Santiago'),
  SVC_GITHUB_EVENT_CLAIM_MS: z.coerce.number().int().min(100).default(defaultConfig.github.eventClaimMs),
  /** Rate limits counted in this Redis (redis://host:port), shared by every core; unset, in each core's memory. */
  SVC_REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'expected redis://host:port or rediss://...' }).optional(),
  /** Put before every key core writes in Redis, so several deployments can share one server. */
  SVC_REDIS_KEY_PREFIX: z.string().min(1).default('svc:'),
  SVC_DEMO_BACKEND_URL: httpUrl.optional(),
  SVC_DEMO_BACKEND_TOKEN: z.string().optional(),
});

export interface CoreEnv {
  port: number;
  host: string;
  dataDir: string;
  database?: DatabaseOptions;
  secretKey: Buffer;
  config: CoreConfig;
  metrics: MetricsSettings | undefined;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): CoreEnv {
  const parsed = loadEnv(schema, env);
  const dataDir = resolve(parsed.SVC_DATA_DIR);
  return {
    port: parsed.CORE_PORT,
    host: parsed.CORE_HOST,
    dataDir,
    database: parsed.SVC_DATABASE_URL
      ? {
          url: parsed.SVC_DATABASE_URL,
          poolSize: parsed.SVC_DATABASE_POOL,
          statementTimeoutMs: parsed.SVC_DATABASE_STATEMENT_TIMEOUT_MS,
          connectTimeoutMs: parsed.SVC_DATABASE_CONNECT_TIMEOUT_MS,
        }
      : undefined,
    secretKey: readSecretKey(parsed.SVC_SECRET_KEY, parsed.SVC_LOCAL_MODE ? { dataDir } : undefined),
    metrics: metricsSettingsOf('CORE_METRICS_PORT', parsed.CORE_METRICS_PORT, parsed.SVC_METRICS_HOST),
    config: {
      ...defaultConfig,
      localMode: parsed.SVC_LOCAL_MODE,
      publicUrl: parsed.SVC_PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
      otp: {
        ...defaultConfig.otp,
        ttlSeconds: parsed.SVC_OTP_TTL_S,
        resendSeconds: parsed.SVC_OTP_RESEND_S,
        workspaceHourlyLimit: parsed.SVC_OTP_WORKSPACE_HOURLY_LIMIT,
      },
      providers: {
        whatsappGraphUrl: parsed.WHATSAPP_GRAPH_URL,
        twilioApiUrl: parsed.TWILIO_API_URL,
        timeoutMs: parsed.SVC_SENDER_TIMEOUT_MS,
      },
      delivery: { ...defaultConfig.delivery, claimMs: parsed.SVC_OUTBOX_CLAIM_MS },
      mail: { smtpUrl: parsed.SMTP_URL, from: parsed.MAIL_FROM, timeoutMs: parsed.SMTP_TIMEOUT_MS },
      models: {
        openai: { baseURL: parsed.OPENAI_BASE_URL, apiKey: parsed.OPENAI_API_KEY },
        anthropic: { baseURL: parsed.ANTHROPIC_BASE_URL, apiKey: parsed.ANTHROPIC_API_KEY },
        timeoutMs: parsed.SVC_MODEL_TIMEOUT_MS,
      },
      toolEgress: { allowPrivateNetworks: parsed.SVC_TOOL_ALLOW_PRIVATE_NETWORKS, gatewayPort: parsed.PORT },
      evals: { judges: parsed.SVC_JUDGE_MODELS, leaseMs: parsed.SVC_EVAL_LEASE_MS },
      digest: { cron: parsed.SVC_DIGEST_CRON, timeZone: parsed.SVC_DIGEST_TZ },
      github: { eventClaimMs: parsed.SVC_GITHUB_EVENT_CLAIM_MS },
      rateLimits: { redisUrl: parsed.SVC_REDIS_URL, redisKeyPrefix: parsed.SVC_REDIS_KEY_PREFIX },
      demoBackend:
        parsed.SVC_DEMO_BACKEND_URL && parsed.SVC_DEMO_BACKEND_TOKEN
          ? { url: parsed.SVC_DEMO_BACKEND_URL, token: parsed.SVC_DEMO_BACKEND_TOKEN }
          : undefined,
    },
  };
}
