import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { closeServer, createLogger, listen } from '@svc/server-kit';
import Bottleneck from 'bottleneck';
import nock from 'nock';
import { createGithubApp, type GithubApp, type GithubAppOptions, githubOctokit, webhooksPath } from '../src/index.ts';
import type { TestPlatform } from './platform.ts';

/** Where Octokit calls GitHub in these tests: nock answers there. */
export const api = 'https://api.github.com';
export const webhookSecret = 'webhook-secret';
export const installationId = 42;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const privateKeyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

/** Octokit's throttling as the app has it, without the second it waits between writes (which only slows tests). */
const noPacing = () =>
  githubOctokit({
    write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
    notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
  });

export const fixture = <T = Record<string, unknown>>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as T;

export const sign = (body: string, secret = webhookSecret) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export interface RunningApp {
  url: string;
  app: GithubApp;
  /** Posts a webhook as GitHub does: signed, with a delivery id (a new one unless given). */
  deliver(event: string, payload: object, options?: { delivery?: string; signature?: string }): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * The app on a free port, reaching the test platform's core, with GitHub's API where nock answers unless `baseUrl`
 * says otherwise; `timeoutMs` is its GITHUB_TIMEOUT_MS.
 */
export async function startApp(
  platform: TestPlatform,
  options: Partial<Pick<GithubAppOptions, 'baseUrl' | 'timeoutMs' | 'log'>> = {},
): Promise<RunningApp> {
  const app = await createGithubApp({
    appId: '1',
    privateKey: privateKeyPem,
    secret: webhookSecret,
    baseUrl: options.baseUrl ?? api,
    timeoutMs: options.timeoutMs,
    coreUrls: [platform.core.url],
    secretKey: platform.secretKey,
    pollMs: 50,
    log: options.log ?? createLogger('github-app', { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' } as NodeJS.ProcessEnv),
    Octokit: noPacing(),
  });
  const url = `http://127.0.0.1:${await listen(app.server, 0, '127.0.0.1')}`;
  await app.connected;
  return {
    url,
    app,
    deliver(event, payload, options = {}) {
      const body = JSON.stringify(payload);
      return fetch(`${url}${webhooksPath}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': event,
          'x-github-delivery': options.delivery ?? randomUUID(),
          'x-hub-signature-256': options.signature ?? sign(body),
        },
        body,
      });
    },
    async stop() {
      await closeServer(app.server);
      await app.stop();
    },
  };
}

/** GitHub's API for one test: an installation token whenever the app asks for one (Probot caches it). */
export function github(): nock.Scope {
  return nock(api)
    .post(`/app/installations/${installationId}/access_tokens`)
    .optionally()
    .reply(201, { token: 'ghs_test', expires_at: '2099-01-01T00:00:00Z' });
}

/** Lets the app reach core on 127.0.0.1 and nothing else. */
export function githubOnlyThroughNock(): void {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
}
