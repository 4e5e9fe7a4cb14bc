import { createHmac, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { closeServer, createLogger, listen } from '@svc/server-kit';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createGithubAppServer, webhooksPath } from '../src/index.ts';

const secret = 'webhook-secret';
const payload = readFileSync(new URL('./fixtures/installation.created.json', import.meta.url), 'utf8');
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

let server: Server;
let url: string;

beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  server = await createGithubAppServer(
    {
      appId: '1',
      privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      secret,
      baseUrl: 'https://api.github.com',
    },
    createLogger('github-app', { LOG_LEVEL: 'silent' }),
  );
  url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
});
afterEach(() => nock.cleanAll());
afterAll(async () => {
  await closeServer(server);
  nock.enableNetConnect();
});

const deliver = (body: string, signature: string) =>
  fetch(`${url}${webhooksPath}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'installation',
      'x-github-delivery': crypto.randomUUID(),
      'x-hub-signature-256': signature,
    },
    body,
  });

const sign = (body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

it('creates the service-flags label in each installed repository that lacks it', async () => {
  const github = nock('https://api.github.com')
    .post('/app/installations/42/access_tokens')
    .reply(201, { token: 'ghs_test', expires_at: '2099-01-01T00:00:00Z' })
    .get('/repos/acme/shop/labels/service-flags')
    .reply(404, { message: 'Not Found' })
    .post('/repos/acme/shop/labels', (body) => body.name === 'service-flags' && typeof body.color === 'string')
    .reply(201, { name: 'service-flags' })
    .get('/repos/acme/blog/labels/service-flags')
    .reply(200, { name: 'service-flags' });

  const res = await deliver(payload, sign(payload));
  expect(res.status).toBe(200);
  expect(github.pendingMocks()).toEqual([]);
});

it('rejects a webhook with a bad signature and calls GitHub for nothing', async () => {
  const github = nock('https://api.github.com').post('/app/installations/42/access_tokens').reply(201, { token: 'x' });
  const res = await deliver(payload, sign(`${payload} `));
  expect(res.status).toBe(400);
  expect(github.isDone()).toBe(false);
});

it('answers /healthz', async () => {
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
});
