import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createLogger } from '@svc/server-kit';
import { createPostgresDatabase, dropPostgresDatabases } from '@svc/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../src/services.ts';
import type { ChangeTopic } from '../src/platform/changes.ts';
import { createPostgresChanges } from '../src/platform/postgres/changes.ts';
import { createPostgresStore } from '../src/postgres-store.ts';
import { createSqliteStore } from '../src/sqlite-store.ts';
import type { Store } from '../src/store.ts';
import { tempDir } from './temp-dir.ts';

/**
 * What one core caches, another core's write makes stale: each core must answer from the new data as soon as it has
 * heard of the change (on SQLite at once, within the process; on PostgreSQL when the notification arrives).
 */
const at = '2026-06-01T12:00:00.000Z';
const log = createLogger('core', { LOG_LEVEL: 'silent' });
let cores: Services[] = [];
let closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cores.map((core) => core.delivery.stop()));
  await Promise.all(closing.map((close) => close()));
  [cores, closing] = [[], []];
});
afterAll(dropPostgresDatabases);

/** Two cores, each with its own memory, on `coreStores` (one store for both, or one each on one database). */
async function startCores(coreStores: Store[], close = [...new Set(coreStores)].map((store) => () => store.close())): Promise<Services[]> {
  closing = close;
  const secretKey = randomBytes(32);
  cores = coreStores.map((store) => createServices({ store, secretKey, log }));
  await coreStores[0]!.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at });
  await coreStores[0]!.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at }, 'usr_1');
  return cores;
}

/** Resolves once `core` has heard of a change of `key`. */
function heard(core: Services, topic: ChangeTopic, key: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = core.store.changes.subscribe(topic, (changed) => {
      if (changed !== key) return;
      stop();
      resolve();
    });
  });
}

async function revokedTokenIsRefusedByTheOtherCore([one, other]: Services[]) {
  const { token, record } = await one!.identity.issueToken('usr_1', 'laptop');
  expect(await other!.identity.authenticate(`Bearer ${token}`)).toMatchObject({ user: { id: 'usr_1' } });
  const told = heard(other!, 'developer-tokens', record.id);
  await one!.identity.revokeToken('usr_1', record.id);
  await told;
  expect(await other!.identity.authenticate(`Bearer ${token}`)).toBeUndefined();
}

async function changedSenderIsUsedByTheOtherCore([one, other]: Services[]) {
  await one!.senders.put('ws_1', { kind: 'dev' });
  expect(await other!.senders.resolve('ws_1')).toMatchObject({ kind: 'dev' });
  const told = heard(other!, 'senders', 'ws_1');
  const twilio = {
    kind: 'twilio_whatsapp' as const,
    account_sid: `AC${'1'.repeat(32)}`,
    auth_token: 'secret-token',
    from: 'whatsapp:+15550001111',
    content_sid: `HX${'2'.repeat(32)}`,
  };
  await one!.senders.put('ws_1', twilio);
  await told;
  expect(await other!.senders.resolve('ws_1')).toMatchObject({ kind: 'twilio_whatsapp', config: { auth_token: 'secret-token' } });
}

async function addedTestNumberWorksOnTheOtherCore([one, other]: Services[]) {
  await one!.senders.put('ws_1', { kind: 'dev' });
  await other!.verifications.create('ws_1', '+56911111111'); // the other core now keeps the workspace's test numbers: none
  const told = heard(other!, 'test-numbers', 'ws_1');
  await one!.verifications.setTestNumbers('ws_1', [{ phone_number: '+56922222222', code: '424242' }]);
  await told;
  const { verification_id: id } = await other!.verifications.create('ws_1', '+56922222222');
  expect(await other!.verifications.get('ws_1', id)).toMatchObject({ test_number: true, delivery: { status: 'not_sent' } });
  expect(await other!.verifications.verify('ws_1', id, '424242')).toEqual({ verified: true });
}

async function changedMembershipIsSeenByTheOtherCore([one, other]: Services[]) {
  const { store } = one!;
  const role = async (core: Services) => (await core.workspaces.resolve('acme', 'usr_2').catch(() => undefined))?.role;
  await store.users.create({ id: 'usr_2', email: 'bob@example.com', createdAt: at });
  await store.workspaces.addMember('ws_1', 'usr_2', 'supervisor', at);
  expect(await role(one!)).toBe('supervisor');
  expect(await role(other!)).toBe('supervisor');
  let told = heard(other!, 'memberships', 'usr_2');
  await store.workspaces.addMember('ws_1', 'usr_2', 'developer', at);
  expect(await role(one!)).toBe('developer');
  await told;
  expect(await role(other!)).toBe('developer');
  told = heard(other!, 'memberships', 'usr_2');
  await store.members.remove('ws_1', 'usr_2', { id: 'me_1', workspaceId: 'ws_1', actorEmail: 'ada@example.com', at });
  expect(await role(one!)).toBeUndefined();
  await told;
  expect(await role(other!)).toBeUndefined();
}

describe('two cores on one SQLite store', () => {
  const twoCores = () => {
    const store = createSqliteStore(join(tempDir(), 'svc.db'));
    return startCores([store, store]);
  };
  it('a token revoked through one is refused by the other at once', async () => revokedTokenIsRefusedByTheOtherCore(await twoCores()));
  it('a sender changed through one is used by the other', async () => changedSenderIsUsedByTheOtherCore(await twoCores()));
  it('a test number added through one works on the other', async () => addedTestNumberWorksOnTheOtherCore(await twoCores()));

  it('a membership changed through either is seen by the other at once', async () =>
    changedMembershipIsSeenByTheOtherCore(await twoCores()));
});

describe('two cores on one PostgreSQL database', () => {
  it('a token revoked through one is refused by the other as soon as the notification arrives', async () => {
    const url = await createPostgresDatabase();
    const first = await createPostgresStore(url);
    await revokedTokenIsRefusedByTheOtherCore(await startCores([first, await createPostgresStore(url)]));
  });
  it('a membership changed through one is seen by the other as soon as the notification arrives', async () => {
    const url = await createPostgresDatabase();
    const first = await createPostgresStore(url);
    await changedMembershipIsSeenByTheOtherCore(await startCores([first, await createPostgresStore(url)]));
  });

  // Until every part of the PostgreSQL store is built: the data in one SQLite file, each core's changes told through
  // PostgreSQL by its own feed.
  const twoCores = async () => {
    const url = await createPostgresDatabase();
    const data = createSqliteStore(join(tempDir(), 'svc.db'));
    const feeds = [await createPostgresChanges(url), await createPostgresChanges(url)];
    return startCores(
      feeds.map((changes) => ({ ...data, changes })),
      [data, ...feeds].map((part) => () => part.close()),
    );
  };
  it('a sender changed through one is used by the other', async () => changedSenderIsUsedByTheOtherCore(await twoCores()));
  it('a test number added through one works on the other', async () => addedTestNumberWorksOnTheOtherCore(await twoCores()));
});
