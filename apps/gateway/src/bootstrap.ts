import { setMaxListeners } from 'node:events';
import { closeServer, deriveInternalToken, listen, type Logger } from '@svc/server-kit';
import { createGatewayApp } from './app.ts';
import { connectCoreChannel } from './core-client.ts';
import { createExpressServer } from './http/express-server.ts';
import { createGatewayMetrics } from './metrics.ts';
import type { Registry } from 'prom-client';

export interface GatewayOptions {
  port: number;
  /** The address to listen on; every interface when left out. */
  host?: string;
  /** Core's URLs: calls take turns among the cores that are up. */
  coreUrls: string[];
  /** Defaults to http://localhost:<bound port>. */
  publicUrl?: string;
  localMode?: boolean;
  /** Core's SVC_SECRET_KEY: core answers only calls with the internal token derived from it. */
  secretKey: Buffer;
  /** How long a core may answer nothing, pings included, before its calls fail with 503 (SVC_CORE_SILENCE_MS). */
  coreSilenceMs?: number;
  /** How often event streams send a keep-alive comment (SVC_EVENTS_HEARTBEAT_MS). */
  eventsHeartbeatMs?: number;
  log: Logger;
}

export interface RunningGateway {
  url: string;
  /** The gateway's metrics, served on a port of their own, never on the public one. */
  registry: Registry;
  stop(): Promise<void>;
}

export async function startGateway({
  port,
  host,
  coreUrls,
  publicUrl,
  localMode,
  secretKey,
  coreSilenceMs,
  eventsHeartbeatMs,
  log,
}: GatewayOptions): Promise<RunningGateway> {
  const { server, serve } = createExpressServer();
  const boundPort = await listen(server, port, host, 'PORT');
  const url = publicUrl ?? `http://localhost:${boundPort}`;
  const core = connectCoreChannel(coreUrls, deriveInternalToken(secretKey), { silenceMs: coreSilenceMs });
  const metrics = createGatewayMetrics();
  const closing = new AbortController();
  // Every open event stream listens for the stop: as many as there are clients following runs.
  setMaxListeners(0, closing.signal);
  serve(createGatewayApp({ core: core.client, publicUrl: url, localMode, log, metrics, eventsHeartbeatMs, closing: closing.signal }));
  return {
    url,
    registry: metrics.registry,
    async stop() {
      closing.abort();
      await closeServer(server);
      core.close();
    },
  };
}
