import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from './env.ts';
import type { Logger } from './logger.ts';

export function listen(server: Server, port: number, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}

/**
 * Runs a process entry point: starts it, and on SIGINT or SIGTERM runs its stop function once and exits 0.
 * A configuration error prints its message alone and exits 78 (EX_CONFIG).
 */
export async function runMain(
  log: Logger,
  start: () => Promise<() => Promise<void>>,
): Promise<void> {
  let stop: () => Promise<void>;
  try {
    stop = await start();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${log.bindings().name}: ${error.message}\n`);
      process.exit(78);
    }
    log.fatal({ err: error }, 'failed to start');
    process.exit(1);
  }
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'failed to stop cleanly');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
