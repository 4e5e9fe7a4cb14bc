import { randomBytes } from 'node:crypto';
import { createLogger } from '@svc/server-kit';
import { type SmtpCapture, startSmtpCapture } from '@svc/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/platform/config.ts';
import { createMailer, type Mailer } from '../src/platform/mail.ts';
import { claimMs } from '../src/platform/outbox-loop.ts';
import { Keyring } from '../src/platform/secrets.ts';
import type { Store } from '../src/store.ts';
import { closeStores, openCoreStores } from './test-stores.ts';

describe.each(['sqlite', 'postgres'] as const)('mail outbox of two cores on %s', (kind) => {
  let smtp: SmtpCapture;
  let stores: Store[];
  let store: Store;
  let now: number;
  const mailers: Mailer[] = [];
  const keyring = new Keyring(randomBytes(32));
  /** A mail queued in the store is not this core's own: a core takes another's once it has been due for a poll. */
  const pollMs = 50;

  beforeEach(async () => {
    smtp = await startSmtpCapture();
    stores = await openCoreStores(kind, 2);
    store = stores[0]!;
    now = Date.parse('2026-06-01T12:00:00.000Z');
  });
  afterEach(async () => {
    await Promise.all(mailers.splice(0).map((mailer) => mailer.loop.stop()));
    await closeStores(stores);
    await smtp.close();
  });

  /** The mail outbox of one more core on the shared database (on PostgreSQL, with its own connections). */
  function core(): Mailer {
    const config = {
      ...defaultConfig,
      mail: { ...defaultConfig.mail, smtpUrl: smtp.url },
      delivery: { pollMs, backoffBaseMs: 1000, maxBackoffMs: 30_000 },
    };
    const mailer = createMailer(
      stores[mailers.length % stores.length]!,
      keyring,
      config,
      () => new Date(now),
      createLogger('core', { LOG_LEVEL: 'silent' }),
    );
    mailers.push(mailer);
    return mailer;
  }

  async function queueSignIn(mailer: Mailer, n: number): Promise<void> {
    const createdAt = new Date(now).toISOString();
    const email = `user${n}@example.com`;
    const link = {
      id: `link_${n}`,
      tokenHash: `hash_${n}`,
      email,
      next: '/',
      expiresAt: '2026-06-01T13:00:00.000Z',
      usedAt: null,
      createdAt,
    };
    await store.loginLinks.create(link, mailer.compose({ to: email, subject: `Sign in #${n}`, text: 'link', html: '<p>link</p>' }));
  }

  it('sends each mail once when two cores drain one outbox', async () => {
    const [first, second] = [core(), core()];
    for (let n = 1; n <= 40; n++) await queueSignIn(first, n);
    now += pollMs;
    first.loop.start();
    second.loop.start();
    await expect.poll(async () => (await store.mails.due('9999-01-01T00:00:00.000Z', 100)).length).toBe(0);
    await Promise.all([first.loop.stop(), second.loop.stop()]);
    const subjects = smtp.mails.map((mail) => mail.subject).sort();
    expect(subjects).toHaveLength(40);
    expect(new Set(subjects).size).toBe(40);
  });

  it('sends the mails a core claimed before it died once its claim ends, and no sooner', async () => {
    const mailer = core();
    await queueSignIn(mailer, 1);
    // A core claimed the first mail, then died before sending it.
    const claimed = await store.mails.claim(
      { id: 'died', now: new Date(now).toISOString(), until: new Date(now + claimMs).toISOString() },
      10,
    );
    expect(claimed.map((mail) => mail.subject)).toEqual(['Sign in #1']);
    now += 1000;
    await queueSignIn(mailer, 2);
    now += pollMs;
    mailer.loop.start();
    expect((await smtp.mail(0)).subject).toBe('Sign in #2');
    // The fill that took the second mail left the first, older one to its claim (once the second is marked sent,
    // a moment after the SMTP server took it).
    await expect
      .poll(async () => (await store.mails.due('9999-01-01T00:00:00.000Z', 10)).map((mail) => [mail.subject, mail.claimId]))
      .toEqual([['Sign in #1', 'died']]);
    now += claimMs;
    expect((await smtp.mail(1)).subject).toBe('Sign in #1');
    await mailer.loop.stop();
    expect(smtp.mails.map((mail) => mail.subject)).toEqual(['Sign in #2', 'Sign in #1']);
  });
});
