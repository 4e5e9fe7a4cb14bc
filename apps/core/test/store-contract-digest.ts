import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewMail } from '../src/platform/mail-store.ts';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

/** What the daily digest relies on (see store-contract.ts): a workspace's day is claimed once, and mails go with it. */
export function describeDigestStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: digest days`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
      await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at(0) });
      for (const [id, slug] of [
        ['ws_1', 'acme'],
        ['ws_2', 'globex'],
      ] as const)
        await store.workspaces.createWithOwner({ id, slug, name: null, createdAt: at(0) }, 'usr_1');
    });
    afterEach(() => store.close());

    const mail = (id: string, createdAt: string): NewMail => ({
      id,
      to: 'ada@example.com',
      subject: 'digest',
      bodySealed: 'sealed',
      createdAt,
    });

    it('claims a workspace’s day once, whatever claims arrive at once; other days and workspaces stay free', async () => {
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.digestDays.claim({ workspaceId: 'ws_1', day: '2026-04-05', claimedAt: at(i), mailedAt: null }),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.digestDays.claim({ workspaceId: 'ws_1', day: '2026-04-05', claimedAt: at(9), mailedAt: null })).toBe(false);
      expect(await store.digestDays.claim({ workspaceId: 'ws_1', day: '2026-04-06', claimedAt: at(9), mailedAt: null })).toBe(true);
      expect(await store.digestDays.claim({ workspaceId: 'ws_2', day: '2026-04-05', claimedAt: at(9), mailedAt: null })).toBe(true);
    });

    it('knows the latest day mailed, not a later day claimed with nothing to mail', async () => {
      expect(await store.digestDays.lastMailed('ws_1')).toBeUndefined();
      await store.digestDays.claim({ workspaceId: 'ws_1', day: '2026-04-04', claimedAt: at(1), mailedAt: null });
      expect(await store.digestDays.lastMailed('ws_1')).toBeUndefined();
      await store.digestDays.markMailed('ws_1', '2026-04-04', at(2), [mail('mail_1', at(2))]);
      await store.digestDays.claim({ workspaceId: 'ws_1', day: '2026-04-05', claimedAt: at(3), mailedAt: null });
      expect(await store.digestDays.lastMailed('ws_1')).toEqual({
        workspaceId: 'ws_1',
        day: '2026-04-04',
        claimedAt: at(1),
        mailedAt: at(2),
      });
      expect(await store.digestDays.lastMailed('ws_2')).toBeUndefined();
    });

    it('puts the day’s mails in the mail outbox with the mark, due at once', async () => {
      await store.digestDays.claim({ workspaceId: 'ws_1', day: '2026-04-05', claimedAt: at(1), mailedAt: null });
      await store.digestDays.markMailed('ws_1', '2026-04-05', at(2), [mail('mail_1', at(2)), mail('mail_2', at(2))]);
      expect((await store.mails.due(at(2), 10)).map((m) => [m.id, m.subject, m.status])).toEqual([
        ['mail_1', 'digest', 'pending'],
        ['mail_2', 'digest', 'pending'],
      ]);
      expect((await store.digestDays.lastMailed('ws_1'))?.mailedAt).toBe(at(2));
    });

    it('writes neither the mark nor any mail when one mail is refused', async () => {
      await store.digestDays.claim({ workspaceId: 'ws_1', day: '2026-04-05', claimedAt: at(1), mailedAt: null });
      await store.digestDays.markMailed('ws_1', '2026-04-05', at(2), [mail('mail_1', at(2))]);
      await expect(
        store.digestDays.markMailed('ws_1', '2026-04-05', at(3), [mail('mail_2', at(3)), mail('mail_1', at(3))]),
      ).rejects.toMatchObject({
        code: 'conflict',
      });
      expect((await store.mails.due(at(9), 10)).map((m) => m.id)).toEqual(['mail_1']);
      expect((await store.digestDays.lastMailed('ws_1'))?.mailedAt).toBe(at(2));
    });

    it('purges the days before a date in batches, but keeps each workspace’s latest mailed day', async () => {
      const day = (n: number) => `2026-04-0${n}`;
      for (let n = 1; n <= 5; n++) await store.digestDays.claim({ workspaceId: 'ws_1', day: day(n), claimedAt: at(n), mailedAt: null });
      await store.digestDays.markMailed('ws_1', day(2), at(2), []);
      await store.digestDays.markMailed('ws_1', day(3), at(3), []);
      await store.digestDays.claim({ workspaceId: 'ws_2', day: day(1), claimedAt: at(1), mailedAt: null });
      await store.digestDays.markMailed('ws_2', day(1), at(1), []);
      expect(await store.digestDays.purgeBefore(day(5), 1)).toBe(1);
      expect(await store.digestDays.purgeBefore(day(5), 10)).toBe(2); // days 1, 2 and 4 of ws_1
      expect(await store.digestDays.purgeBefore(day(5), 10)).toBe(0);
      expect((await store.digestDays.lastMailed('ws_1'))?.day).toBe(day(3));
      expect((await store.digestDays.lastMailed('ws_2'))?.day).toBe(day(1));
      // Kept: ws_1's day 5 is not before the date, so claiming it again is refused.
      expect(await store.digestDays.claim({ workspaceId: 'ws_1', day: day(5), claimedAt: at(9), mailedAt: null })).toBe(false);
      expect(await store.digestDays.claim({ workspaceId: 'ws_1', day: day(4), claimedAt: at(9), mailedAt: null })).toBe(true);
    });
  });
}
