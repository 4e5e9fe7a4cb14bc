import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connectCoreOverHttp } from '@svc/core-client';
import { type Logger, newRequestId, validRequestId, withRequestId } from '@svc/server-kit';
import { createNodeMiddleware, Probot, type ProbotOctokit } from 'probot';
import { svcApp } from './app.ts';
import { defaultGithubTimeoutMs, fetchWithDeadline } from './deadline.ts';
import { startEventLoop } from './events.ts';
import { createGithubAppMetrics } from './metrics.ts';
import { githubOctokit } from './octokit.ts';
import type { Registry } from 'prom-client';

export const webhooksPath = '/github/webhooks';

/** GitHub's largest webhook payload. */
const maxPayloadBytes = 25 * 1024 * 1024;

export interface GithubAppOptions {
  appId: string;
  privateKey: string;
  /** The webhook secret. */
  secret: string;
  /** GitHub's REST API. */
  baseUrl: string;
  /** How long GitHub may take to answer one request (GITHUB_TIMEOUT_MS; 10 s unless told). */
  timeoutMs?: number;
  /** The cores to call, the next when one cannot be reached. */
  coreUrls: string[];
  secretKey: Buffer;
  pollMs: number;
  log: Logger;
  /** Octokit with its throttling set up; tests pass one that does not space writes a second apart. */
  Octokit?: typeof ProbotOctokit;
}

export interface GithubApp {
  probot: Probot;
  server: Server;
  /** The app's metrics, served on a port of their own. */
  registry: Registry;
  /** Resolves once core has answered the event loop. */
  connected: Promise<void>;
  stop(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: object): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxPayloadBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The app's routes and the methods each takes. */
const methods: Record<string, string[]> = { [webhooksPath]: ['POST'], '/healthz': ['GET', 'HEAD'] };

/** Why a signed delivery cannot be handled, in our error shape: a header GitHub always sends is missing, or the body is not JSON. */
function unreadableDelivery(req: IncomingMessage, body: string): { code: string; message: string } | undefined {
  for (const header of ['x-github-event', 'x-github-delivery']) {
    if (typeof req.headers[header] !== 'string') return { code: 'invalid_request', message: `the ${header} header is missing` };
  }
  try {
    JSON.parse(body);
    return undefined;
  } catch {
    return { code: 'invalid_json', message: 'the webhook payload is not valid JSON' };
  }
}

/**
 * The app: an HTTP server taking GitHub's signed webhooks at /github/webhooks (a missing or bad signature is 401
 * and does nothing), /healthz, and the loop that does what core's events ask of GitHub.
 */
export async function createGithubApp(options: GithubAppOptions): Promise<GithubApp> {
  const { appId, privateKey, secret, baseUrl, log } = options;
  const metrics = createGithubAppMetrics(Object.keys(methods));
  const Octokit = (options.Octokit ?? githubOctokit()).plugin(metrics.octokitPlugin);
  const probot = new Probot({
    appId,
    privateKey,
    secret,
    baseUrl,
    log,
    Octokit,
    request: { fetch: fetchWithDeadline(options.timeoutMs ?? defaultGithubTimeoutMs) },
  });
  const connection = connectCoreOverHttp(options.coreUrls, options.secretKey);
  const middleware = await createNodeMiddleware(svcApp(connection.core), { probot, webhooksPath });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://app').pathname;
    const allowed = methods[path];
    if (!allowed) return json(res, 404, { error: { code: 'not_found', message: `no route ${path}` } });
    if (!allowed.includes(req.method ?? '')) {
      res.setHeader('Allow', allowed.join(', '));
      return json(res, 405, { error: { code: 'method_not_allowed', message: `${path} takes ${allowed.join(', ')}` } });
    }
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    // Probot checks the signature too, but answers a bad one with 400; GitHub's senders and ours expect 401.
    const body = await readBody(req);
    if (body === undefined) return json(res, 413, { error: { code: 'payload_too_large', message: 'a webhook payload is at most 25 MB' } });
    const signature = req.headers['x-hub-signature-256'];
    if (typeof signature !== 'string' || !(await probot.webhooks.verify(body, signature))) {
      log.warn(
        { delivery: req.headers['x-github-delivery'], event: req.headers['x-github-event'] },
        'webhook with a bad signature refused',
      );
      return json(res, 401, { error: { code: 'bad_signature', message: 'the webhook signature does not match the secret' } });
    }
    const refused = unreadableDelivery(req, body);
    if (refused) return json(res, 400, { error: refused });
    (req as IncomingMessage & { body?: string }).body = body;
    await middleware(req, res, () => json(res, 404, { error: { code: 'not_found', message: `no route ${path}` } }));
  }

  // A delivery's id (`X-GitHub-Delivery`, as GitHub's delivery log shows it) is the id of what its handling logs and asks of core.
  const server = createServer((req, res) => {
    metrics.webhookRequest(req, res);
    return withRequestId(validRequestId(req.headers['x-github-delivery']) ?? newRequestId(), () =>
      answer(req, res).catch((error: unknown) => {
        log.error({ err: error }, 'webhook request failed');
        if (!res.headersSent) json(res, 500, { error: { code: 'internal_error', message: 'internal error' } });
      }),
    );
  });

  const events = startEventLoop({ connection, probot, log, pollMs: options.pollMs });
  return {
    probot,
    server,
    registry: metrics.registry,
    connected: events.connected,
    async stop() {
      await events.stop();
      await connection.close();
    },
  };
}
