import { join } from 'node:path';
import { closeServer, listen, type Logger } from '@svc/server-kit';
import { seedLocalMode } from './seed.ts';
import { createCoreServer } from './server.ts';
import type { Clock } from './services/clock.ts';
import { createServices, type Services } from './services/index.ts';
import { createSqliteStore } from './store/sqlite/sqlite-store.ts';

export interface CoreOptions {
  dataDir: string;
  port: number;
  host?: string;
  localMode?: boolean;
  clock?: Clock;
  log: Logger;
}

export interface RunningCore {
  url: string;
  services: Services;
  stop(): Promise<void>;
}

/** Opens the database under `dataDir`, seeds local mode when asked, and serves core on loopback. */
export async function startCore({ dataDir, port, host = '127.0.0.1', localMode = false, clock, log }: CoreOptions): Promise<RunningCore> {
  const store = createSqliteStore(join(dataDir, 'svc.db'));
  const services = createServices({ store, clock });
  if (localMode) {
    const { seeded } = await seedLocalMode(services, dataDir);
    if (seeded) log.info({ dataDir }, 'seeded local mode: dev@example.com owns workspace demo');
  }
  const server = createCoreServer(services, log);
  const boundPort = await listen(server, port, host);
  return {
    url: `http://${host}:${boundPort}`,
    services,
    async stop() {
      await closeServer(server);
      store.close();
    },
  };
}
