import { join } from 'node:path';
import { closeServer, listen, type Logger } from '@svc/server-kit';
import { type CoreConfig, defaultConfig } from './platform/config.ts';

export { type CoreConfig, defaultConfig };
/** The PostgreSQL store on its own: a test makes a migrated database with it, to copy for each of its cores. */
export { createPostgresStore } from './postgres-store.ts';
import { seedLocalMode } from './seed.ts';
import { createCoreServer } from './server.ts';
import type { Clock } from './platform/clock.ts';
import { createServices, type Services } from './services.ts';
import { createPostgresStore } from './postgres-store.ts';
import { createSqliteStore } from './sqlite-store.ts';
import { defaultStatementTimeoutMs } from './platform/postgres/database.ts';
import type { Store } from './store.ts';

/**
 * How many calls a core on SQLite takes from the gateway in a frame. Its statements run one after another on its one
 * thread: given dozens of calls at once, it would idle while the gateway parsed their requests, and the gateway while
 * core ran them all. Eight at a time, it runs the first while the gateway parses the next. A core on PostgreSQL takes
 * them all: it gathers the calls of a frame into shared statements, which a busy database needs. `pnpm bench`, both
 * ways side by side in its rounds: wrong-code verifies rose from 0.52–0.59 of the baseline to 0.71–0.80 on SQLite,
 * and fell from 0.42–0.47 to 0.35–0.43 on PostgreSQL, whose own CPU per verify rose from about 150 µs to 230 µs.
 */
const sqliteCallsPerFrame = 8;

/** The PostgreSQL database core keeps its records in, instead of SQLite under the data dir. */
export interface DatabaseOptions {
  url: string;
  poolSize?: number;
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export interface CoreOptions {
  /** Local mode's keys and, without `database`, the SQLite file. */
  dataDir: string;
  database?: DatabaseOptions;
  port: number;
  host?: string;
  secretKey: Buffer;
  config?: CoreConfig;
  clock?: Clock;
  log: Logger;
}

export interface RunningCore {
  url: string;
  services: Services;
  /** Settles once the start-up repair of what a stopped core left undone has ended (it never rejects). */
  repaired: Promise<void>;
  /** Answers the calls it is running, then stops; stopping again waits for the same stop. */
  stop(): Promise<void>;
}

/**
 * What a core that stopped at the wrong moment left undone: eval runs to finish, flags their runs fixed, preview runs
 * to announce. A failure is logged; the next start tries again.
 */
async function repairLeftOver(services: Services, log: Logger, signal: AbortSignal): Promise<void> {
  try {
    const leftOver = await services.evalRuns.finishLeftOver(signal);
    if (leftOver.runs + leftOver.flags > 0) log.info(leftOver, 'finished eval runs and fixed flags a stopped core left undone');
    const announced = await services.github.events.announceEnded();
    if (announced > 0) log.info({ runs: announced }, 'announced preview runs that ended while core stopped');
  } catch (error) {
    if (!signal.aborted) log.error({ err: error }, 'the repair of what a stopped core left undone failed; the next start tries again');
  }
}

/**
 * Listens on `port` at `host` (loopback unless told) first, so that a core that cannot serve fails before it opens its
 * database: answering 503 meanwhile, it opens the database (PostgreSQL at `database.url`, else SQLite under
 * `dataDir`), seeds local mode when configured, then serves core to the callers that present the internal token
 * derived from `secretKey`, starts the delivery loop (which resumes whatever was queued before a restart), and repairs
 * in the background what a stopped core left undone.
 */
export async function startCore({
  dataDir,
  database,
  port,
  host = '127.0.0.1',
  secretKey,
  config = defaultConfig,
  clock,
  log,
}: CoreOptions): Promise<RunningCore> {
  const { server, serve } = createCoreServer();
  const boundPort = await listen(server, port, host, 'CORE_PORT');
  let store: Store | undefined;
  let services: Services;
  try {
    store = database ? await createPostgresStore(database.url, database) : createSqliteStore(join(dataDir, 'svc.db'));
    services = createServices({ store, secretKey, config, clock, log });
    const sealed = await services.senders.sealClearSecrets();
    if (sealed > 0) log.info({ senders: sealed }, 'sealed sender secrets kept in the clear by an earlier version');
    if (config.localMode) {
      const { seeded } = await seedLocalMode(services, dataDir, config.demoBackend);
      if (seeded) log.info({ dataDir }, 'seeded local mode: dev@example.com owns workspace demo');
    }
  } catch (error) {
    await store?.close();
    await closeServer(server);
    throw error;
  }
  const { closeChannels } = serve(services, {
    secretKey,
    log,
    callsPerFrame: database ? undefined : sqliteCallsPerFrame,
    callBudgetMs: database ? (database.statementTimeoutMs ?? defaultStatementTimeoutMs) : undefined,
  });
  services.toolEgress.platformPorts.add(boundPort);
  if (!(await services.rateLimits.connected())) log.warn('Redis is out of reach: rate limits count in this core alone until it is back');
  services.delivery.start();
  services.mailer.loop.start();
  services.retention.start();
  services.dailyDigest.start();
  // Serving first: the repair reads only what is pending, in batches, while core answers.
  const stopping = new AbortController();
  const repaired = repairLeftOver(services, log, stopping.signal);
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${host}:${boundPort}`,
    services,
    repaired,
    stop() {
      stopped ??= (async () => {
        stopping.abort();
        services.evalWork.stop();
        services.github.events.stop();
        await closeChannels();
        await closeServer(server);
        await services.dailyDigest.stop();
        await services.delivery.stop();
        await services.mailer.loop.stop();
        await services.retention.stop();
        await repaired;
        await services.rateLimits.close();
        await services.store.close();
      })();
      return stopped;
    },
  };
}
