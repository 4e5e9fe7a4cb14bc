import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { collectDefaultMetrics, Histogram, type Registry } from 'prom-client';
import { z } from 'zod';
import { optionalPort } from './env.ts';
import { closeServer, listen } from './lifecycle.ts';

/** Where a process serves its metrics, and the variable that set the port (named when the port is taken). */
export interface MetricsSettings {
  port: number;
  host: string;
  variable: string;
}

/** A `<APP>_METRICS_PORT` variable: unset, the process serves no metrics; 0, on a free port it logs. */
export const metricsPort = optionalPort;

/** The address every process serves its metrics on: loopback unless told, so never where the public reaches. */
export const metricsHost = z.string().min(1).default('127.0.0.1');

/** The settings the variables make, none without a port. */
export const metricsSettingsOf = (variable: string, port: number | undefined, host: string): MetricsSettings | undefined =>
  port === undefined ? undefined : { port, host, variable };

export interface MetricsServer {
  /** Where Prometheus scrapes: `http://<host>:<port>/metrics`. */
  url: string;
  stop(): Promise<void>;
}

export interface BoundMetrics extends MetricsServer {
  /** Serves `registry`, with the process's own metrics (CPU, memory, event loop delay, garbage collection) added. */
  serve(registry: Registry): void;
}

/**
 * Listens on the metrics port before there are metrics to serve, so that a process whose port is taken fails before
 * its start-up work; `GET /metrics` answers 503 until `serve(registry)`, then the registry in Prometheus's text format.
 * Anything else answers 404.
 */
export async function bindMetrics({ port, host, variable }: MetricsSettings): Promise<BoundMetrics> {
  let served: Registry | undefined;
  const server = createServer((req, res) => {
    if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are at GET /metrics\n');
      return;
    }
    const registry = served;
    if (!registry) {
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('starting: no metrics yet\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(error)}\n`),
    );
  });
  const bound = await listen(server, port, host, variable);
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    serve(registry) {
      collectDefaultMetrics({ register: registry });
      served = registry;
    },
    stop: () => closeServer(server),
  };
}

/** Serves `registry` as `GET /metrics` on a port of its own, as `bindMetrics` then `serve` do. */
export async function serveMetrics(registry: Registry, settings: MetricsSettings): Promise<MetricsServer> {
  const metrics = await bindMetrics(settings);
  metrics.serve(registry);
  return metrics;
}

/**
 * `svc_http_request_duration_seconds`: how long each answered request took, by method, route pattern (never the
 * raw path: ids stay out of labels) and status. Returns what to call as a request starts; `routeOf` is asked once
 * it is answered, when the router has matched it.
 */
export function httpRequestDurations(registry: Registry) {
  const histogram = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP requests answered, by method, route pattern and status, and how long they took',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  return (req: IncomingMessage, res: ServerResponse, routeOf: () => string): void => {
    const end = histogram.startTimer();
    res.once('finish', () => end({ method: req.method ?? 'unknown', route: routeOf(), status: res.statusCode }));
  };
}

/** One call to a model: an agent's turn or a judge's grading. The model's name stays out: customers choose it. */
export interface ModelCallObservation {
  provider: string;
  purpose: 'agent' | 'judge';
  outcome: 'ok' | 'error';
  seconds: number;
}

/** `svc_model_call_duration_seconds`, by provider, purpose and outcome: where agent turns and judges run. */
export function modelCallDurations(registry: Registry): (call: ModelCallObservation) => void {
  const histogram = new Histogram({
    name: 'svc_model_call_duration_seconds',
    help: "Calls to model providers (an agent's turn or a judge's grading), by provider, purpose and outcome, and how long they took",
    labelNames: ['provider', 'purpose', 'outcome'],
    // Model calls take seconds, a few retries of a rate limit tens of them.
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80],
    registers: [registry],
  });
  return ({ provider, purpose, outcome, seconds }) => histogram.observe({ provider, purpose, outcome }, seconds);
}
