import { createPostgresDatabase, dropPostgresDatabases, holdLock, lockWaits, queryPostgres, recordQueries } from '@svc/testkit';
import { afterAll, expect, it } from 'vitest';
import { HourlyLimitReached, VerificationChanged } from '../src/verification/store.ts';
import { createPostgresStore } from '../src/postgres-store.ts';
import type { Store } from '../src/store.ts';
import { phoneVerificationRecord } from './records.ts';

afterAll(dropPostgresDatabases);

const at = '2026-01-01T00:10:00.000Z';
const hour = '2026-01-01T00:00:00.000Z';

async function workspaceStore(url: string) {
  const store = await createPostgresStore(url);
  await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at });
  await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at }, 'usr_1');
  return store;
}

/**
 * A create of code `n` in `workspaceId` (ws_1 unless told), counted against a cap of `hourlyLimit` sends an hour, to
 * number `n` unless told.
 */
function create(store: Store, n: number, hourlyLimit: number, workspaceId = 'ws_1', number = n) {
  const phoneNumber = `+569123456${String(number).padStart(2, '0')}`;
  return store.verifications.create(
    phoneVerificationRecord({ id: `pv_${n}`, workspaceId, phoneNumber, createdAt: at, expiresAt: '2026-01-01T00:20:00.000Z' }),
    { id: `m_${n}`, workspaceId, verificationId: `pv_${n}`, phoneNumber, codeSealed: 'sealed', createdAt: at },
    hourlyLimit,
  );
}

it('counts the sends that cores of an earlier version counted in hourly_sends, while they run beside this one', async () => {
  const url = await createPostgresDatabase();
  const store = await workspaceStore(url);
  try {
    // An earlier core's count for the hour: 4 of the cap of 5.
    await queryPostgres(url, `insert into hourly_sends (workspace_id, hour, count) values ('ws_1', '${hour}', 4)`);
    await create(store, 1, 5);
    await expect(create(store, 2, 5)).rejects.toBeInstanceOf(HourlyLimitReached);
    expect(await store.outbox.sendsInHour('ws_1', hour)).toBe(5);
    expect(await store.outbox.purgeHourlyCounts('2026-01-01T02:00:00.000Z', 10)).toBe(2);
  } finally {
    await store.close();
  }
});

it('counts in one batch only the sends it creates, up to the cap, whatever it refuses on the way', async () => {
  const url = await createPostgresDatabase();
  const store = await workspaceStore(url);
  try {
    await create(store, 1, 4);
    // One batch: a new number, number 1 again (its code is pending), two new numbers, then one past the cap of 4.
    const outcomes = await Promise.all(
      [create(store, 2, 4), create(store, 9, 4, 'ws_1', 1), create(store, 3, 4), create(store, 4, 4), create(store, 5, 4)].map((creating) =>
        creating.then(
          () => 'created',
          (error: unknown) => (error as Error).constructor,
        ),
      ),
    );
    expect(outcomes).toEqual(['created', VerificationChanged, 'created', 'created', HourlyLimitReached]);
    expect(await store.outbox.sendsInHour('ws_1', hour)).toBe(4);
    const [outbox] = await queryPostgres<{ count: string }>(url, 'select count(*) from message_outbox');
    expect(Number(outbox?.count)).toBe(4);
  } finally {
    await store.close();
  }
});

it("keeps the hourly cap exactly when two cores each send a batch of a workspace's creates at the same moment", async () => {
  const url = await createPostgresDatabase();
  const cores = [await workspaceStore(url), await createPostgresStore(url)];
  try {
    // Each core's 5 creates arrive together and go in one statement. Holding the outbox keeps the first core's batch
    // open after it counted its first send, until the other core's batch is under way too.
    const outbox = await holdLock(url, 'lock table message_outbox in share mode');
    const outcomes = cores.flatMap((core, c) =>
      Array.from({ length: 5 }, (_, i) =>
        create(core, c * 5 + i, 5).then(
          () => 'created',
          (error: unknown) => error,
        ),
      ),
    );
    await expect.poll(() => lockWaits(url, 'select svc_create_verifications')).toBe(2);
    await outbox.release();
    const settled = await Promise.all(outcomes);
    expect(settled.filter((outcome) => outcome === 'created')).toHaveLength(5);
    for (const outcome of settled) if (outcome !== 'created') expect(outcome).toBeInstanceOf(HourlyLimitReached);
    expect(await cores[0]!.outbox.sendsInHour('ws_1', hour)).toBe(5);
  } finally {
    await Promise.all(cores.map((core) => core.close()));
  }
});

it("sends a workspace's creates that come while its batch waits in one batch after it, and another workspace's at once", async () => {
  const url = await createPostgresDatabase();
  const store = await workspaceStore(url);
  await store.workspaces.createWithOwner({ id: 'ws_2', slug: 'beta', name: null, createdAt: at }, 'usr_1');
  // Each statement the driver sends that creates verifications.
  const recorded = recordQueries();
  const batches = () => recorded.queries.filter((text) => text.includes('svc_create_verifications'));
  try {
    // ws_1's hour is held: its first batch waits in PostgreSQL.
    const hourOfWs1 = await holdLock(url, 'select pg_advisory_xact_lock(7302117, hashtext($1))', [`ws_1 ${hour}`]);
    const waiting = [create(store, 1, 100)];
    await expect.poll(() => lockWaits(url, 'select svc_create_verifications')).toBe(1);
    // Five more of ws_1, each while the event loop runs on, and one of ws_2, which is answered meanwhile.
    for (let n = 2; n <= 6; n++) {
      waiting.push(create(store, n, 100));
      await new Promise(setImmediate);
    }
    await create(store, 20, 100, 'ws_2');
    expect(batches()).toHaveLength(2);
    await hourOfWs1.release();
    await Promise.all(waiting);
    // ws_1's first batch, ws_2's, and ws_1's five that waited.
    expect(batches()).toHaveLength(3);
    expect(await store.outbox.sendsInHour('ws_1', hour)).toBe(6);
  } finally {
    recorded.stop();
    await store.close();
  }
});
