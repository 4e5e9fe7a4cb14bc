import { randomUUID } from 'node:crypto';
import { removeTempDirs, type SilentPeer, startSilentPeer } from '@svc/testkit';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readEnv } from '../src/env.ts';
import { fixture, installationId, privateKeyPem, type RunningApp, startApp, webhookSecret } from './harness.ts';
import { repository, startWorld, type World } from './world.ts';

let world: World;
let github: SilentPeer;
let app: RunningApp;
const lines: string[] = [];

beforeAll(async () => {
  world = await startWorld({ evalConcurrency: 0 });
  // GitHub's API takes every request and never answers.
  github = await startSilentPeer();
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  app = await startApp(world.platform, { baseUrl: github.url, timeoutMs: 300, log });
});
afterAll(async () => {
  await app?.stop();
  await github?.close();
  await world?.platform.stop();
  removeTempDirs();
});

it('fails a webhook whose handling needs GitHub once GitHub has said nothing for GITHUB_TIMEOUT_MS', async () => {
  const answer = await app.deliver('installation', fixture('installation.created'));
  expect(answer.status).toBe(500);
  expect(github.connections).toBeGreaterThanOrEqual(1);
  expect(lines.join('\n')).toContain('no answer from GitHub within 300 ms');
});

it('gives an event back to core with the reason once GitHub has said nothing for GITHUB_TIMEOUT_MS, to be tried again later', async () => {
  const { store } = world.platform.core.services;
  const id = `evt_${randomUUID()}`;
  const now = new Date().toISOString();
  await store.events.enqueue({
    id,
    kind: 'flags_issue',
    key: `${world.workspace.id}:${repository}:${id}`,
    payload: { workspace_id: world.workspace.id, repository, installation_id: installationId },
    availableAt: now,
    attempts: 0,
    claimId: null,
    claimedUntil: null,
    doneAt: null,
    lastError: null,
    createdAt: now,
  });
  await expect.poll(async () => (await store.events.get(id))?.lastError).toBe('no answer from GitHub within 300 ms');
  expect((await store.events.get(id))?.doneAt).toBeNull();
});

it('reads GITHUB_TIMEOUT_MS, 10 s unless told', () => {
  const base = {
    GITHUB_APP_ID: '1',
    GITHUB_PRIVATE_KEY: privateKeyPem,
    GITHUB_WEBHOOK_SECRET: webhookSecret,
    SVC_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  };
  expect(readEnv(base).timeoutMs).toBe(10_000);
  expect(readEnv({ ...base, GITHUB_TIMEOUT_MS: '2500' }).timeoutMs).toBe(2500);
  expect(() => readEnv({ ...base, GITHUB_TIMEOUT_MS: '5' })).toThrow('GITHUB_TIMEOUT_MS');
});
