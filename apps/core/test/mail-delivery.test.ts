import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createLogger } from '@svc/server-kit';
import { startSilentPeer } from '@svc/testkit';
import { afterEach, expect, it } from 'vitest';
import { type CoreConfig, defaultConfig, type RunningCore, startCore } from '../src/bootstrap.ts';
import { readEnv } from '../src/env.ts';
import { tempDir } from './temp-dir.ts';

let core: RunningCore | undefined;
afterEach(() => core?.stop());

/** A port that nothing listens on: an SMTP server that is down (connection refused, a retryable failure). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Core on a fresh data dir, mailing through `mail` (over the defaults), retrying as `delivery` says. */
async function coreMailingTo(
  dataDir: string,
  mail: Partial<CoreConfig['mail']>,
  delivery: CoreConfig['delivery'],
  clock?: () => Date,
): Promise<RunningCore> {
  return startCore({
    dataDir,
    port: 0,
    secretKey: randomBytes(32),
    config: { ...defaultConfig, mail: { ...defaultConfig.mail, ...mail }, delivery },
    clock,
    log: createLogger('core', { LOG_LEVEL: 'silent' }),
  });
}

it('retries a sign-in mail while its link works, past where delivery once gave up, and gives up once it expires', async () => {
  let now = Date.parse('2026-06-01T12:00:00.000Z');
  const dataDir = tempDir();
  core = await coreMailingTo(
    dataDir,
    { smtpUrl: `smtp://svc:secret@127.0.0.1:${await deadPort()}` },
    { pollMs: 50, backoffBaseMs: 1000, maxBackoffMs: 30_000 },
    () => new Date(now),
  );
  const { loginLinks, store } = core.services;
  await loginLinks.requestConsoleLink('ada@example.com', '/', '127.0.0.1');
  const pending = async () => store.mails.due('9999-01-01T00:00:00.000Z', 10);
  // Ten attempts over six minutes of SMTP outage: the link works for 15.
  for (let failed = 1; failed <= 10; failed++) {
    await expect.poll(async () => (await pending())[0]?.attempts).toBe(failed);
    now += 40_000;
  }
  expect((await pending())[0]?.lastError).toContain('SMTP');
  now += 15 * 60_000;
  await expect.poll(async () => (await pending()).length).toBe(0);
  // Core's own reads see its writes before they commit: stopped, it has committed them all.
  await core.stop();
  core = undefined;
  const db = new Database(join(dataDir, 'svc.db'), { readonly: true });
  const mail = db.prepare('select status, attempts, last_error as lastError from mail_outbox').get();
  db.close();
  // Given up without an eleventh attempt: the link it carries no longer works.
  expect(mail).toEqual({
    status: 'failed',
    attempts: 10,
    lastError: expect.stringMatching(/^expired before it could be delivered \(last error: SMTP/),
  });
});

it('retries an invitation mail for as long as the invitation works, past a sign-in link’s 15 minutes', async () => {
  let now = Date.parse('2026-06-01T12:00:00.000Z');
  const smtpPort = await deadPort();
  core = await coreMailingTo(
    tempDir(),
    { smtpUrl: `smtp://svc:secret@127.0.0.1:${smtpPort}` },
    { pollMs: 50, backoffBaseMs: 1000, maxBackoffMs: 30_000 },
    () => new Date(now),
  );
  const { identity, workspaces, members, store } = core.services;
  const ada = await identity.findOrCreateUser('ada@example.com');
  const acme = await workspaces.create(ada.id, { slug: 'acme' });
  await members.invite(acme, ada, { email: 'sue@example.com', role: 'developer' });
  const pending = async () => store.mails.due('9999-01-01T00:00:00.000Z', 10);
  await expect.poll(async () => (await pending())[0]?.attempts).toBe(1);
  // An hour of outage: a sign-in mail would have been given up, the invitation's is still retried.
  now += 3600_000;
  await expect.poll(async () => (await pending())[0]?.attempts).toBe(2);
  expect((await pending())[0]?.status).toBe('pending');
  now += 7 * 24 * 3600_000;
  await expect.poll(async () => (await pending()).length).toBe(0);
});

it('gives up on an SMTP server that takes the connection and says nothing within SMTP_TIMEOUT_MS, and retries the mail', async () => {
  const silent = await startSilentPeer();
  core = await coreMailingTo(
    tempDir(),
    { smtpUrl: `smtp://127.0.0.1:${silent.port}`, timeoutMs: 300 },
    { pollMs: 50, backoffBaseMs: 60_000, maxBackoffMs: 60_000 },
  );
  const { loginLinks, store } = core.services;
  await loginLinks.requestConsoleLink('ada@example.com', '/', '127.0.0.1');
  const pending = async () => (await store.mails.due('9999-01-01T00:00:00.000Z', 10))[0];
  // The server held the connection; the send failed on its deadline (nodemailer's own would be 30 s for the
  // greeting) and the mail waits for its next attempt.
  await expect.poll(async () => (await pending())?.attempts).toBe(1);
  expect((await pending())?.lastError).toMatch(/^SMTP: .*(greeting|timeout)/i);
  expect(silent.connections).toBe(1);
  await silent.close();
});

it('reads SMTP_TIMEOUT_MS, 10 s unless told', () => {
  const base = { SVC_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'), SMTP_URL: 'smtp://mail.internal:587' };
  expect(readEnv(base).config.mail).toMatchObject({ smtpUrl: 'smtp://mail.internal:587', timeoutMs: 10_000 });
  expect(readEnv({ ...base, SMTP_TIMEOUT_MS: '2500' }).config.mail.timeoutMs).toBe(2500);
  expect(() => readEnv({ ...base, SMTP_TIMEOUT_MS: '5' })).toThrow('SMTP_TIMEOUT_MS');
});
