import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { freePort, removeTempDirs, startApp, stopProcesses } from '@svc/testkit';
import { afterAll, afterEach, expect, it } from 'vitest';
import { startFakeGithub } from './fake-github.ts';
import { fixture, privateKeyPem, sign, webhookSecret } from './harness.ts';
import { agentFiles, repository, startWorld } from './world.ts';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
afterEach(stopProcesses);
afterAll(removeTempDirs);

it("refuses to start without core's SVC_SECRET_KEY outside local mode (exit 78, naming it)", async () => {
  const app = startApp(main, { GITHUB_APP_ID: '1', GITHUB_PRIVATE_KEY: privateKeyPem, GITHUB_WEBHOOK_SECRET: webhookSecret });
  expect(await app.exited).toBe(78);
  const err = app.output('stderr');
  expect(err).toContain('SVC_SECRET_KEY: required outside local mode');
  expect(err).not.toContain('PRIVATE KEY');
});

const networkAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && !address.internal && address.family === 'IPv4')?.address;

it.skipIf(!networkAddress)(
  `in local mode listens on loopback only, as the gateway does: a neighbour (through ${networkAddress ?? 'no network interface: skipped'}) finds nothing`,
  async () => {
    const port = await freePort();
    const app = startApp(main, {
      GITHUB_APP_ID: '1',
      GITHUB_PRIVATE_KEY: privateKeyPem,
      GITHUB_WEBHOOK_SECRET: webhookSecret,
      GITHUB_APP_PORT: String(port),
      CORE_URLS: `http://127.0.0.1:${await freePort()}`,
      SVC_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
      SVC_LOCAL_MODE: '1',
      LOG_LEVEL: 'info',
    });
    await app.waitForOutput('GitHub App listening');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const refused = await fetch(`http://${networkAddress}:${port}/healthz`).catch(
      (error: TypeError) => error.cause as NodeJS.ErrnoException,
    );
    expect(refused).toMatchObject({ code: 'ECONNREFUSED' });
    expect(await app.stop()).toBe(0);
  },
);

it('runs as its own process: a signed pull_request webhook ends in one comment with the finished run, on the live one of its cores', async () => {
  const world = await startWorld(); // with an eval runner that replays the run
  const head = 'c'.repeat(40);
  const github = await startFakeGithub({ repository, pullNumber: 7, head, files: agentFiles() });
  const port = await freePort();
  const app = startApp(main, {
    GITHUB_APP_ID: '1',
    GITHUB_PRIVATE_KEY: privateKeyPem,
    GITHUB_WEBHOOK_SECRET: webhookSecret,
    GITHUB_API_URL: github.url,
    GITHUB_APP_PORT: String(port),
    // Nothing answers at the first core: the app works with the second.
    CORE_URLS: `http://127.0.0.1:${await freePort()},${world.platform.core.url}`,
    SVC_SECRET_KEY: world.platform.secretKey.toString('base64'),
    LOG_LEVEL: 'info',
  });
  try {
    await expect.poll(() => app.output(), { timeout: 20_000 }).toContain('GitHub App connected to core');
    const deliver = async (event: string, payload: object) => {
      const body = JSON.stringify(payload);
      return fetch(`http://127.0.0.1:${port}/github/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': event,
          'x-github-delivery': crypto.randomUUID(),
          'x-hub-signature-256': sign(body),
        },
        body,
      });
    };
    expect((await deliver('installation', fixture('installation.created'))).status).toBe(200);
    const event = fixture<{ pull_request: { head: { sha: string } } }>('pull_request.opened');
    event.pull_request.head.sha = head;
    expect((await deliver('pull_request', event)).status).toBe(200);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toContain('running');

    await expect.poll(() => github.comments[0]!.body, { timeout: 30_000 }).toContain('## ✅ svc evals: passed');
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body.startsWith('<!-- svc:pr-preview -->')).toBe(true);
    expect(github.requests.filter((r) => r.method === 'PATCH' && r.path.startsWith(`/repos/${repository}/issues/comments/`))).toHaveLength(
      1,
    );
    // Logged once GitHub has answered the comment's update, which the fake GitHub records before it answers.
    await expect.poll(() => app.output()).toMatch(/"repository":"acme\/shop".*"pull_request":7.*"run":"\w+"/);
  } finally {
    expect(await app.stop()).toBe(0);
    await github.stop();
    await world.platform.stop();
  }
});
