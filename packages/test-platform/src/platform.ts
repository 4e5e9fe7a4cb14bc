import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type CoreConfig, createPostgresStore, defaultConfig, type RunningCore, startCore } from '@svc/core/bootstrap';
import { startRunner } from '@svc/eval-runner';
import { dropPostgresDatabases, freePort, migratedPostgresDatabases, tempDir } from '@svc/testkit';
import { afterAll } from 'vitest';
import type { Role } from '@svc/domain';
import { createLogger, deriveInternalToken, type Logger, type MetricsServer, serveMetrics } from '@svc/server-kit';

export interface TestPlatform {
  /** Where the gateway listens (http://localhost:<port>), whatever public URL it was given. */
  url: string;
  core: RunningCore;
  /** What core's own processes present to it (`x-svc-internal`), for tests that call core directly. */
  internalToken: string;
  dataDir: string;
  /** Core's PostgreSQL database, when it runs on one. */
  databaseUrl: string | undefined;
  /** Where each process serves its metrics, with `metrics: true`. */
  metricsUrls: { core: string; gateway: string; evalRunner: string | undefined } | undefined;
  /** Core's key, to restart core on the same database. */
  secretKey: Buffer;
  /** Stops both servers, keeping the data dir (for restart tests). */
  halt(): Promise<void>;
  /** Stops both servers and removes the data dir; the PostgreSQL database it made is dropped as the test file ends. */
  stop(): Promise<void>;
}

export interface PlatformOptions {
  localMode?: boolean;
  otp?: Partial<CoreConfig['otp']>;
  providers?: Partial<CoreConfig['providers']>;
  delivery?: Partial<CoreConfig['delivery']>;
  mail?: Partial<CoreConfig['mail']>;
  /** Tests whose fake tool backends listen on 127.0.0.1 allow private networks; the gateway's port is always refused. */
  toolEgress?: Pick<CoreConfig['toolEgress'], 'allowPrivateNetworks'>;
  /** Model providers' base URLs and keys (fake providers), for agents and judges. */
  models?: CoreConfig['models'];
  /** Core's judge models (SVC_JUDGE_MODELS) and eval lease length (SVC_EVAL_LEASE_MS). */
  evals?: Partial<CoreConfig['evals']>;
  /** How long the GitHub App holds an event it claimed (SVC_GITHUB_EVENT_CLAIM_MS). */
  github?: Partial<CoreConfig['github']>;
  /** The eval runner's EVAL_CONCURRENCY (8 unless told); 0 runs none in process (tests that run their own). */
  evalConcurrency?: number;
  /** Reuse a data dir and key, e.g. to restart on the same database. */
  dataDir?: string;
  /**
   * Core's PostgreSQL database. Unset: with SVC_TEST_STORE=postgres a new database on the test server, otherwise
   * SQLite in the data dir, so the same tests run on either store.
   */
  databaseUrl?: string;
  /** Core's SVC_DATABASE_STATEMENT_TIMEOUT_MS, on PostgreSQL. */
  statementTimeoutMs?: number;
  /** Core's SVC_DATABASE_POOL and SVC_DATABASE_CONNECT_TIMEOUT_MS, on PostgreSQL. */
  poolSize?: number;
  connectTimeoutMs?: number;
  secretKey?: Buffer;
  clock?: () => Date;
  /** Core's logger, e.g. to read what core logs; silent by default. */
  coreLog?: Logger;
  /** The gateway's logger, silent by default. */
  gatewayLog?: Logger;
  /** The eval runner's logger, silent by default. */
  evalRunnerLog?: Logger;
  /** Core's SVC_REDIS_URL (and a key prefix of the test's own): rate limits counted in Redis. */
  rateLimits?: CoreConfig['rateLimits'];
  /** The address users reach the gateway at; defaults to where it listens. An https one makes it act as behind TLS. */
  publicUrl?: string;
  /** How often the gateway's event streams send a keep-alive comment. */
  eventsHeartbeatMs?: number;
  /** Serves each process's metrics on a free port of 127.0.0.1, as its `<APP>_METRICS_PORT` would (`metricsUrls`). */
  metrics?: boolean;
}

/**
 * How the platform starts its gateway: @svc/gateway's `startGateway`, handed in by the tests. The gateway's own tests
 * use this package, so it does not depend on the gateway, and turbo's package graph stays acyclic.
 */
export type StartGateway = (options: {
  port: number;
  coreUrls: string[];
  publicUrl?: string;
  localMode?: boolean;
  secretKey: Buffer;
  eventsHeartbeatMs?: number;
  log: Logger;
}) => Promise<{ url: string; registry: Parameters<typeof serveMetrics>[0]; stop(): Promise<void> }>;

// A cast: the GitHub App's tests see Probot's narrower declaration of LOG_LEVEL.
const quiet = { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' } as NodeJS.ProcessEnv;

// Dropping a database waits for a checkpoint, seconds on a busy server, and running beside the next test's database
// copy it slows that test: the databases a test file made are dropped once, as it ends.
afterAll(dropPostgresDatabases);

/** A new database with core's tables: a copy of one migrated once per test file. */
const migratedPostgresDatabase = migratedPostgresDatabases(async (url) => (await createPostgresStore(url)).close());

/** The platform's starters, with the gateway `startGateway` starts. */
export function platformWith(startGateway: StartGateway) {
  return {
    /** Core and gateway over real HTTP on free ports, on a fresh database unless `dataDir` or `databaseUrl` is given. */
    startPlatform: (options: PlatformOptions = {}) => startPlatform(startGateway, options),
    /** A gateway whose core is out of reach (nothing listens at its core URL): every API call answers 503. */
    async startGatewayWithoutCore(): Promise<{ url: string; stop(): Promise<void> }> {
      const coreUrl = `http://127.0.0.1:${await freePort()}`;
      return startGateway({ port: 0, coreUrls: [coreUrl], secretKey: randomBytes(32), log: createLogger('gateway', quiet) });
    },
  };
}

async function startPlatform(startGateway: StartGateway, options: PlatformOptions): Promise<TestPlatform> {
  const dataDir = options.dataDir ?? tempDir();
  const databaseUrl = options.databaseUrl ?? (process.env.SVC_TEST_STORE === 'postgres' ? await migratedPostgresDatabase() : undefined);
  const secretKey = options.secretKey ?? randomBytes(32);
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const publicUrl = options.publicUrl ?? url;
  const config: CoreConfig = {
    ...defaultConfig,
    localMode: options.localMode ?? false,
    publicUrl,
    otp: { ...defaultConfig.otp, ...options.otp },
    providers: { ...defaultConfig.providers, ...options.providers },
    delivery: { ...defaultConfig.delivery, pollMs: 100, backoffBaseMs: 20, ...options.delivery },
    mail: { ...defaultConfig.mail, ...options.mail },
    toolEgress: { ...defaultConfig.toolEgress, ...options.toolEgress, gatewayPort: port },
    models: options.models ?? defaultConfig.models,
    evals: { ...defaultConfig.evals, ...options.evals },
    github: { ...defaultConfig.github, ...options.github },
    rateLimits: options.rateLimits ?? defaultConfig.rateLimits,
  };
  const core = await startCore({
    dataDir,
    database: databaseUrl
      ? {
          url: databaseUrl,
          statementTimeoutMs: options.statementTimeoutMs,
          poolSize: options.poolSize,
          connectTimeoutMs: options.connectTimeoutMs,
        }
      : undefined,
    port: 0,
    secretKey,
    config,
    clock: options.clock,
    log: options.coreLog ?? createLogger('core', quiet),
  });
  const gateway = await startGateway({
    port,
    coreUrls: [core.url],
    publicUrl,
    localMode: config.localMode,
    secretKey,
    eventsHeartbeatMs: options.eventsHeartbeatMs,
    log: options.gatewayLog ?? createLogger('gateway', quiet),
  });
  // The eval runner, as its own process would: over HTTP, with the same providers and tool egress as core's turns.
  const evalRunner =
    options.evalConcurrency === 0
      ? undefined
      : startRunner({
          coreUrls: [core.url],
          pollMs: 100,
          secretKey,
          concurrency: options.evalConcurrency,
          providers: config.models,
          egress: core.services.toolEgress,
          stopGraceMs: 2000,
          log: options.evalRunnerLog ?? createLogger('eval-runner', quiet),
        });
  const metricsServers: MetricsServer[] = [];
  const served = async (registry: Parameters<typeof serveMetrics>[0]) => {
    const server = await serveMetrics(registry, { port: 0, host: '127.0.0.1', variable: 'metrics' });
    metricsServers.push(server);
    return server.url;
  };
  const metricsUrls = options.metrics
    ? {
        core: await served(core.services.metrics.registry),
        gateway: await served(gateway.registry),
        evalRunner: evalRunner && (await served(evalRunner.registry)),
      }
    : undefined;
  let halted: Promise<void> | undefined;
  const halt = () => {
    halted ??= Promise.all(metricsServers.map((server) => server.stop()))
      .then(() => gateway.stop())
      .then(() => evalRunner?.stop())
      .then(() => core.stop());
    return halted;
  };
  return {
    url,
    core,
    internalToken: deriveInternalToken(secretKey),
    dataDir,
    databaseUrl,
    metricsUrls,
    secretKey,
    halt,
    async stop() {
      await halt();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new user with a developer token; returns the plain token. */
export async function createUserWithToken(platform: TestPlatform, email: string): Promise<string> {
  const { identity } = platform.core.services;
  const user = await identity.findOrCreateUser(email);
  return (await identity.issueToken(user.id, 'test token')).token;
}

/**
 * A new user with a developer token, made a member of workspace `slug` with `role` in core's store, as accepting an
 * invitation would; returns the plain token.
 */
export async function createMemberWithToken(platform: TestPlatform, slug: string, email: string, role: Role): Promise<string> {
  const { identity, store } = platform.core.services;
  const token = await createUserWithToken(platform, email);
  const workspace = await store.workspaces.findBySlug(slug);
  if (!workspace) throw new Error(`no workspace ${slug}`);
  await store.workspaces.addMember(workspace.id, (await identity.findOrCreateUser(email)).id, role, new Date().toISOString());
  return token;
}
