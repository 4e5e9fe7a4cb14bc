import { createServer, type Server } from 'node:http';
import type { Logger } from '@svc/server-kit';
import { createNodeMiddleware, Probot } from 'probot';
import { svcApp } from './app.ts';
import type { GithubAppEnv } from './env.ts';

export const webhooksPath = '/github/webhooks';

/** The app's HTTP server: signed webhooks at /github/webhooks, /healthz, and 404 for the rest. */
export async function createGithubAppServer(env: Omit<GithubAppEnv, 'port'>, log: Logger): Promise<Server> {
  const { appId, privateKey, secret, baseUrl } = env;
  const probot = new Probot({ appId, privateKey, secret, baseUrl, log });
  const middleware = await createNodeMiddleware(svcApp, { probot, webhooksPath });
  return createServer((req, res) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    void middleware(req, res, () => {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"not found"}}');
    });
  });
}
