import { createPostgresDatabase, dropPostgresDatabases, queryPostgres } from '@svc/testkit';
import { afterAll, expect, it } from 'vitest';
import { HourlyLimitReached } from '../src/store/messaging-store.ts';
import { createPostgresStore } from '../src/store/postgres/postgres-store.ts';
import { phoneVerificationRecord } from './records.ts';

afterAll(dropPostgresDatabases);

it('counts the sends that cores of an earlier version counted in hourly_sends, while they run beside this one', async () => {
  const url = await createPostgresDatabase();
  const store = await createPostgresStore(url);
  try {
    const at = '2026-01-01T00:10:00.000Z';
    await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at });
    await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at }, 'usr_1');
    // An earlier core's count for the hour: 4 of the cap of 5.
    await queryPostgres(url, `insert into hourly_sends (workspace_id, hour, count) values ('ws_1', '2026-01-01T00:00:00.000Z', 4)`);
    const create = (n: number) =>
      store.verifications.create(
        phoneVerificationRecord({ id: `pv_${n}`, phoneNumber: `+5691234567${n}`, createdAt: at, expiresAt: '2026-01-01T00:20:00.000Z' }),
        {
          id: `m_${n}`,
          workspaceId: 'ws_1',
          verificationId: `pv_${n}`,
          phoneNumber: `+5691234567${n}`,
          codeSealed: 'sealed',
          createdAt: at,
        },
        5,
      );
    await create(1);
    await expect(create(2)).rejects.toBeInstanceOf(HourlyLimitReached);
    expect(await store.outbox.sendsInHour('ws_1', '2026-01-01T00:00:00.000Z')).toBe(5);
    expect(await store.outbox.purgeHourlyCounts('2026-01-01T02:00:00.000Z', 10)).toBe(2);
  } finally {
    await store.close();
  }
});
