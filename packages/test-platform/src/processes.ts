import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startCore } from '@svc/core/bootstrap';
import { createLogger } from '@svc/server-kit';
import { freePort, type ProcessGroup, startApp, tempDir, waitUntilAnswering } from '@svc/testkit';

/**
 * An app's entry point: `apps/<app>/src/main.ts`, as `pnpm --filter @svc/<app> dev` runs it, or once built
 * `apps/<app>/dist/main.js`, as `pnpm --filter @svc/<app> start` runs it.
 */
export const appEntry = (app: 'core' | 'gateway' | 'eval-runner', { built = false } = {}) =>
  fileURLToPath(new URL(`../../../apps/${app}/${built ? 'dist/main.js' : 'src/main.ts'}`, import.meta.url));

/** Where every core keeps its records: one PostgreSQL database, or SQLite in one data dir on this machine. */
export type SharedStore = { databaseUrl: string } | { dataDir: string };

export interface ProcessesOptions {
  store: SharedStore;
  cores: number;
  gateways: number;
  /** Core `index`'s environment besides its port, store and key (its providers, limits, LOG_LEVEL). */
  coreEnv?: (index: number) => Record<string, string>;
  /** The gateways' environment besides their port, cores and key. */
  gatewayEnv?: Record<string, string>;
  /** Where their output goes: kept for the test to read (`pipe`, the default), or their stderr to this process's. */
  stdio?: 'pipe' | 'inherit-stderr';
  /** Runs the apps' built `dist/main.js` under plain node, as deployed, rather than their sources under tsx. */
  built?: boolean;
  /** Node options for every core and gateway (a profiler's, say). */
  execArgv?: string[];
}

export interface RunningApp {
  url: string;
  app: ProcessGroup;
}

export interface Processes {
  /** The key every process shares (SVC_SECRET_KEY), base64. */
  secretKey: string;
  /** A developer token of ada@example.com, who owns no workspace yet. */
  token: string;
  cores: RunningApp[];
  gateways: RunningApp[];
}

const storeEnv = (store: SharedStore): Record<string, string> =>
  'databaseUrl' in store ? { SVC_DATA_DIR: tempDir(), SVC_DATABASE_URL: store.databaseUrl } : { SVC_DATA_DIR: store.dataDir };

/**
 * Production mode as processes: `cores` cores on one store and `gateways` gateways, each gateway with every core in
 * its CORE_URLS, each process with only the environment given here. A developer and their token are written first,
 * by a core in this process that stops before the others start; `stopProcesses()` from the test kit stops them all.
 */
export async function startProcesses(options: ProcessesOptions): Promise<Processes> {
  const { store, cores, gateways, coreEnv, gatewayEnv, stdio, built, execArgv } = options;
  const secretKey = randomBytes(32);
  const seeding = await startCore({
    dataDir: 'dataDir' in store ? store.dataDir : tempDir(),
    database: 'databaseUrl' in store ? { url: store.databaseUrl } : undefined,
    port: 0,
    secretKey,
    log: createLogger('core', { LOG_LEVEL: 'silent' }),
  });
  const user = await seeding.services.identity.findOrCreateUser('ada@example.com');
  const { token } = await seeding.services.identity.issueToken(user.id, 'developer token');
  await seeding.stop();

  const shared = { SVC_SECRET_KEY: secretKey.toString('base64'), LOG_LEVEL: 'warn' };
  const started = async (count: number, start: (index: number, port: number) => ProcessGroup): Promise<RunningApp[]> => {
    const apps: RunningApp[] = [];
    for (let index = 0; index < count; index++) {
      const port = await freePort();
      apps.push({ url: `http://127.0.0.1:${port}`, app: start(index, port) });
    }
    return apps;
  };
  const coreApps = await started(cores, (index, port) =>
    startApp(
      appEntry('core', { built }),
      { ...shared, ...storeEnv(store), CORE_PORT: String(port), ...coreEnv?.(index) },
      { stdio, execArgv },
    ),
  );
  const coreUrls = coreApps.map((core) => core.url).join(',');
  const gatewayApps = await started(gateways, (_, port) =>
    startApp(appEntry('gateway', { built }), { ...shared, PORT: String(port), CORE_URLS: coreUrls, ...gatewayEnv }, { stdio, execArgv }),
  );
  // Several processes loading TypeScript at once on a machine running the whole suite take longer than one.
  const startTimeoutMs = 25_000 * (cores + gateways);
  await Promise.all([...coreApps, ...gatewayApps].map(({ url }) => waitUntilAnswering(`${url}/healthz`, { timeoutMs: startTimeoutMs })));
  return { secretKey: shared.SVC_SECRET_KEY, token, cores: coreApps, gateways: gatewayApps };
}
