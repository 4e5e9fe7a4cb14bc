import { randomBytes } from 'node:crypto';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPostgresDatabase, dropPostgresDatabase, freePort, type ProcessGroup, startApp, tempDir } from '@svc/testkit';
import type { DatabaseOptions } from '../../src/bootstrap.ts';
import { type BenchDatabase, openPostgres, openSqlite } from './database.ts';

/** One database of a store: where core keeps its records, given to core's processes and to this one. */
export interface BenchStore {
  name: 'SQLite' | 'PostgreSQL';
  /** Core's environment naming it. */
  env: Record<string, string>;
  /** The same for a core in this process (`startCore`). */
  dataDir: string;
  database?: DatabaseOptions;
  open(): Promise<BenchDatabase>;
  /** A copy of the database as it is now: no process may have it open. */
  copy(): Promise<BenchStore>;
  drop(): Promise<void>;
}

function sqliteStore(dataDir: string): BenchStore {
  return {
    name: 'SQLite',
    env: { SVC_DATA_DIR: dataDir },
    dataDir,
    open: async () => openSqlite(join(dataDir, 'svc.db')),
    async copy() {
      const copied = tempDir('svc-bench-scale-');
      cpSync(dataDir, copied, { recursive: true });
      return sqliteStore(copied);
    },
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function postgresStore(url: string): BenchStore {
  const dataDir = tempDir('svc-bench-scale-');
  return {
    name: 'PostgreSQL',
    env: { SVC_DATA_DIR: dataDir, SVC_DATABASE_URL: url },
    dataDir,
    database: { url },
    open: () => openPostgres(url),
    copy: async () => postgresStore(await createPostgresDatabase(url)),
    drop: () => dropPostgresDatabase(url),
  };
}

/** An empty database of each store: a SQLite file in a temp dir, a database of its own on the PostgreSQL server. */
export const emptyStores: Record<BenchStore['name'], () => Promise<BenchStore>> = {
  SQLite: async () => sqliteStore(tempDir('svc-bench-scale-')),
  PostgreSQL: async () => postgresStore(await createPostgresDatabase()),
};

/** The key every process of the bench shares: the template's sealed secrets open in the cores measured later. */
export const secretKey = randomBytes(32);

const entry = (app: 'core' | 'gateway' | 'eval-runner') => fileURLToPath(new URL(`../../../${app}/dist/main.js`, import.meta.url));
const shared = { SVC_SECRET_KEY: secretKey.toString('base64') };

export interface RunningApp {
  url: string;
  app: ProcessGroup;
  /** When it was spawned (Date.now()). */
  spawnedAt: number;
}

/** Core's built entry point on `store`, as production runs it; its output kept, for its log's timestamps. */
export async function startCoreProcess(store: BenchStore, env: Record<string, string> = {}, execArgv: string[] = []): Promise<RunningApp> {
  const port = await freePort();
  const spawnedAt = Date.now();
  const app = startApp(entry('core'), { ...shared, LOG_LEVEL: 'info', ...store.env, CORE_PORT: String(port), ...env }, { execArgv });
  return { url: `http://127.0.0.1:${port}`, app, spawnedAt };
}

export async function startGatewayProcess(coreUrl: string, env: Record<string, string> = {}): Promise<RunningApp> {
  const port = await freePort();
  const spawnedAt = Date.now();
  const app = startApp(
    entry('gateway'),
    { ...shared, LOG_LEVEL: 'warn', PORT: String(port), CORE_URLS: coreUrl, ...env },
    { stdio: 'inherit-stderr' },
  );
  return { url: `http://127.0.0.1:${port}`, app, spawnedAt };
}

/** An eval runner on the deterministic grader: no model keys, and the template's agent is scripted. */
export function startRunnerProcess(coreUrl: string): ProcessGroup {
  return startApp(
    entry('eval-runner'),
    { ...shared, LOG_LEVEL: 'warn', CORE_URL: coreUrl, EVAL_RUNNER_POLL_MS: '100' },
    { stdio: 'inherit-stderr' },
  );
}

/** Resolves once `app`'s `/healthz` answers 200, with how long after its spawn that was, in ms. */
export async function answering({ url, spawnedAt }: RunningApp, timeoutMs = 30 * 60_000): Promise<number> {
  for (;;) {
    const status = await fetch(`${url}/healthz`).then(
      async (response) => (await response.arrayBuffer(), response.status),
      () => 0,
    );
    if (status === 200) return Date.now() - spawnedAt;
    if (Date.now() - spawnedAt > timeoutMs) throw new Error(`${url}/healthz did not answer 200 within ${timeoutMs} ms`);
    await sleep(50);
  }
}
