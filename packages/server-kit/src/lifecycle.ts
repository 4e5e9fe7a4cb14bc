import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from './env.ts';
import { createLogger, type Logger } from './logger.ts';

/**
 * Listens on `port`; resolves with the bound port. When `variable` names the setting the port came from, a busy
 * port is a ConfigError that says which variable to change.
 */
export function listen(server: Server, port: number, host?: string, variable?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(
        variable && error.code === 'EADDRINUSE'
          ? new ConfigError(`${variable}: port ${port} is already in use; set ${variable} to a free port`)
          : error,
      );
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Stops taking connections and resolves once the requests under way are answered. A keep-alive connection that was
 * busy when the server closed would otherwise carry a polling client's next request, and the next, and the close
 * would never end: each answer after the close asks its client to close the connection.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.prependListener('request', (_request, response: ServerResponse) => response.setHeader('connection', 'close'));
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}

/**
 * Runs a process entry point: creates its logger, starts it, and on SIGINT or SIGTERM runs its stop function once
 * and exits 0. A configuration error (the logger's included) prints its message alone and exits 78 (EX_CONFIG).
 * Once started, a process run by a parent with an IPC channel (local mode) tells it `{"ready":true}`.
 */
export async function runMain(name: string, start: (log: Logger) => Promise<() => Promise<void>>): Promise<void> {
  let log: Logger | undefined;
  let stop: () => Promise<void>;
  try {
    log = createLogger(name);
    stop = await start(log);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(78);
    }
    if (log) log.fatal({ err: error }, 'failed to start');
    else process.stderr.write(`${name}: failed to start: ${String(error)}\n`);
    process.exit(1);
  }
  process.send?.({ ready: true });
  const started = log;
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    started.info({ signal }, 'stopping');
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        started.error({ err: error }, 'failed to stop cleanly');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
