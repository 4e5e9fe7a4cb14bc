import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createLogger } from '@svc/server-kit';
import { describe, expect, it } from 'vitest';
import { startCore } from '../src/bootstrap.ts';
import { defaultConfig } from '../src/platform/config.ts';
import { createServices } from '../src/services.ts';
import { createSqliteStore } from '../src/sqlite-store.ts';
import type { Store } from '../src/store.ts';
import { deviceAuthorizationRecord, storeAnswer } from './records.ts';
import { tempDir } from './temp-dir.ts';
import { openTestStore } from './test-stores.ts';

const log = createLogger('core', { LOG_LEVEL: 'silent' });
const minute = 60_000;
const day = 24 * 60 * minute;

/** A row of each kind the retention job looks after, made at `at` (expiring 15 minutes later), named by `tag`. */
async function addRows(store: Store, tag: string, at: Date, options: { finished: boolean }) {
  const iso = (offset = 0) => new Date(at.getTime() + offset).toISOString();
  await store.deviceAuthorizations.create(
    deviceAuthorizationRecord({
      id: `dev_${tag}`,
      deviceCodeHash: `device_${tag}`,
      expiresAt: iso(15 * minute),
      createdAt: iso(),
    }),
  );
  const link = {
    id: `lnk_${tag}`,
    tokenHash: `link_${tag}`,
    email: 'ada@example.com',
    next: '/',
    expiresAt: iso(15 * minute),
    usedAt: null,
  };
  await store.loginLinks.create(
    { ...link, createdAt: iso() },
    { id: `mail_${tag}`, to: 'ada@example.com', subject: 's', bodySealed: 'b', createdAt: iso() },
  );
  if (options.finished) {
    await store.mails.claim({ id: `claim_${tag}`, now: iso(), until: iso(minute) }, 100);
    await store.mails.markSent(`mail_${tag}`, `claim_${tag}`, iso(minute));
  }
  await store.sessions.create({
    id: `ses_${tag}`,
    tokenHash: `session_${tag}`,
    userId: 'usr_1',
    csrfToken: 'c',
    expiresAt: iso(12 * 60 * minute),
    createdAt: iso(),
  });
  await storeAnswer(
    store,
    { workspaceId: 'ws_1', operation: 'verifications.create', key: tag },
    { requestHash: 'h', response: '{}' },
    iso(),
  );
  await store.githubDeliveries.claim(`dlv-${tag}`, iso());
}

describe('the retention job', () => {
  it('deletes what is past its retention time and keeps what is fresh or still pending', async () => {
    let now = new Date('2026-03-01T12:00:00Z');
    const services = createServices({
      store: await openTestStore(),
      secretKey: randomBytes(32),
      log,
      clock: () => now,
    });
    const { store } = services;
    await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: now.toISOString() });
    await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: now.toISOString() }, 'usr_1');
    await addRows(store, 'old', new Date(now.getTime() - 8 * day), { finished: true });
    await addRows(store, 'oldpending', new Date(now.getTime() - 8 * day - minute), { finished: false });
    await addRows(store, 'fresh', new Date(now.getTime() - 60 * minute), { finished: true });

    expect(await services.retention.run()).toMatchObject({
      device_authorizations: 2,
      login_links: 2,
      sessions: 2,
      idempotency_keys: 2,
      mail_outbox: 1,
      github_deliveries: 2,
    });
    // A webhook delivery is remembered for as long as GitHub may redeliver it, then forgotten.
    expect(await store.githubDeliveries.claim('dlv-fresh', now.toISOString())).toBe(false);
    expect(await store.githubDeliveries.claim('dlv-old', now.toISOString())).toBe(true);
    expect(await store.deviceAuthorizations.findByDeviceCodeHash('device_old')).toBeUndefined();
    expect(await store.loginLinks.findByTokenHash('link_old')).toBeUndefined();
    expect(
      await store.idempotency.get({ workspaceId: 'ws_1', operation: 'verifications.create', key: 'old' }, '2000-01-01T00:00:00.000Z'),
    ).toBeUndefined();
    // Fresh rows stay, and a mail still pending stays whatever its age.
    expect(await store.deviceAuthorizations.findByDeviceCodeHash('device_fresh')).toBeDefined();
    expect(await store.loginLinks.findByTokenHash('link_fresh')).toBeDefined();
    expect(await store.sessions.findByTokenHash('session_fresh', now.toISOString())).toBeDefined();
    expect(
      await store.idempotency.get({ workspaceId: 'ws_1', operation: 'verifications.create', key: 'fresh' }, '2000-01-01T00:00:00.000Z'),
    ).toBeDefined();
    expect((await store.mails.due(now.toISOString(), 10)).map((m) => m.id)).toEqual(['mail_oldpending']);

    // The fresh session went at its expiry, the fresh answer 24 h after it was stored; the device authorization and
    // its link stay until a day after their expiry, and go then.
    now = new Date(now.getTime() + day - 46 * minute);
    expect(await services.retention.run()).toMatchObject({ device_authorizations: 0, login_links: 0, sessions: 1, idempotency_keys: 1 });
    now = new Date(now.getTime() + 2 * minute);
    expect(await services.retention.run()).toMatchObject({ device_authorizations: 1, login_links: 1, sessions: 0, idempotency_keys: 0 });
    await store.close();
  });

  it('deletes the daily digest’s days after 30 days, but keeps the latest mailed one, where the next mail starts', async () => {
    const now = new Date('2026-05-15T12:00:00Z'); // 08:00 in Santiago
    const services = createServices({
      store: await openTestStore(),
      secretKey: randomBytes(32),
      log,
      clock: () => now,
    });
    const { store } = services;
    await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: now.toISOString() });
    await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: now.toISOString() }, 'usr_1');
    const claim = (day: string) => store.digestDays.claim({ workspaceId: 'ws_1', day, claimedAt: `${day}T12:00:00.000Z`, mailedAt: null });
    for (const day of ['2026-04-01', '2026-04-02', '2026-04-03', '2026-04-15', '2026-04-16']) await claim(day);
    await store.digestDays.markMailed('ws_1', '2026-04-02', '2026-04-02T12:00:00.000Z', []);

    expect(await services.retention.run()).toMatchObject({ digest_days: 2 }); // the 1st and the 3rd
    expect(await store.digestDays.lastMailed('ws_1')).toMatchObject({ day: '2026-04-02' });
    // The 15th is 30 days back in Santiago, and stays; the 1st can be claimed anew.
    expect(await claim('2026-04-15')).toBe(false);
    expect(await claim('2026-04-01')).toBe(true);
    await store.close();
  });

  it('runs when core starts, so rows left by a core that was down go at once', async () => {
    const dataDir = tempDir();
    const store = createSqliteStore(join(dataDir, 'svc.db'));
    const now = new Date();
    await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: now.toISOString() });
    await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: now.toISOString() }, 'usr_1');
    await addRows(store, 'old', new Date(now.getTime() - 8 * day), { finished: true });
    await addRows(store, 'fresh', now, { finished: true });
    await store.close();

    const core = await startCore({ dataDir, port: 0, secretKey: randomBytes(32), config: defaultConfig, log });
    try {
      await expect.poll(() => core.services.store.sessions.findByTokenHash('session_old', '2000-01-01T00:00:00.000Z')).toBeUndefined();
      expect(await core.services.store.deviceAuthorizations.findByDeviceCodeHash('device_old')).toBeUndefined();
      expect(await core.services.store.sessions.findByTokenHash('session_fresh', now.toISOString())).toBeDefined();
    } finally {
      await core.stop();
    }
  });
});
