import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';
import { deviceAuthorizationRecord, phoneVerificationRecord, storeAnswer } from './records.ts';

const at = (minute: number) =>
  `2026-01-01T${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00.000Z`;

/** What the retention job relies on (see store-contract.ts): each purge deletes only what its condition names. */
export function describeRetentionStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: retention`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
      await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at(0) });
      await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at(0) }, 'usr_1');
    });
    afterEach(() => store.close());

    const authorization = (id: string, expiresAt: string) => deviceAuthorizationRecord({ id, expiresAt, createdAt: at(0) });

    it('purges device authorizations, sign-in links and sessions by expiry, in batches of at most the limit', async () => {
      for (const [id, minute] of [
        ['dev_a', 10],
        ['dev_b', 20],
        ['dev_c', 30],
      ] as const)
        await store.deviceAuthorizations.create(authorization(id, at(minute)));
      expect(await store.deviceAuthorizations.purgeExpired(at(25), 1)).toBe(1);
      expect(await store.deviceAuthorizations.purgeExpired(at(25), 10)).toBe(1);
      expect(await store.deviceAuthorizations.findByDeviceCodeHash('hash_dev_c')).toBeDefined();
      expect(await store.deviceAuthorizations.findByDeviceCodeHash('hash_dev_a')).toBeUndefined();

      const link = (id: string, minute: number) => ({
        id,
        tokenHash: `lh_${id}`,
        email: 'a@example.com',
        next: '/',
        expiresAt: at(minute),
        usedAt: null,
        createdAt: at(0),
      });
      const mail = (id: string) => ({ id, to: 'a@example.com', subject: 's', bodySealed: 'b', createdAt: at(0) });
      await store.loginLinks.create(link('lnk_old', 10), mail('mail_1'));
      await store.loginLinks.create(link('lnk_new', 30), mail('mail_2'));
      expect(await store.loginLinks.purgeExpired(at(25), 10)).toBe(1);
      expect([await store.loginLinks.findByTokenHash('lh_lnk_old'), (await store.loginLinks.findByTokenHash('lh_lnk_new'))?.id]).toEqual([
        undefined,
        'lnk_new',
      ]);

      const session = (id: string, minute: number) => ({
        id,
        tokenHash: `sh_${id}`,
        userId: 'usr_1',
        csrfToken: 'c',
        expiresAt: at(minute),
        createdAt: at(0),
      });
      await store.sessions.create(session('ses_old', 10));
      await store.sessions.create(session('ses_new', 30));
      expect(await store.sessions.purgeExpired(at(10), 10)).toBe(1);
      expect((await store.sessions.findByTokenHash('sh_ses_new', at(0)))?.id).toBe('ses_new');
      expect(await store.sessions.findByTokenHash('sh_ses_old', at(0))).toBeUndefined();
    });

    it('purges finished messages and mails queued before a moment, never a pending one, and old hourly counts', async () => {
      const verification = (id: string, phoneNumber: string) =>
        phoneVerificationRecord({ id, phoneNumber, createdAt: at(1), expiresAt: at(600) });
      const message = (id: string, verificationId: string, minute: number) => ({
        id,
        workspaceId: 'ws_1',
        verificationId,
        phoneNumber: '+56912345678',
        codeSealed: 'sealed',
        createdAt: at(minute),
      });
      await store.verifications.create(verification('pv_1', '+56912345678'), message('m_sent', 'pv_1', 1), 100);
      await store.verifications.create(verification('pv_2', '+56912345679'), message('m_failed', 'pv_2', 2), 100);
      await store.verifications.create(verification('pv_3', '+56912345670'), message('m_pending', 'pv_3', 3), 100);
      await store.verifications.create(verification('pv_4', '+56912345671'), message('m_recent', 'pv_4', 130), 100);
      await store.outbox.claim({ id: 'c', now: at(130), until: at(140) }, 10);
      await store.outbox.markSent('m_sent', 'c', 'wamid.1', at(2));
      await store.outbox.markFailed('m_failed', 'c', 'refused', at(3));
      await store.outbox.markSent('m_recent', 'c', 'wamid.2', at(131));
      expect(await store.outbox.purgeFinished(at(120), 10)).toBe(2);
      expect(await store.outbox.findByProviderMessageId('wamid.1')).toBeUndefined();
      expect((await store.outbox.findByProviderMessageId('wamid.2'))?.id).toBe('m_recent');
      expect((await store.outbox.due(at(200), 10)).map((m) => m.id)).toEqual(['m_pending']);
      // The verification stays: its status is still asked for.
      expect((await store.verifications.get('ws_1', 'pv_1'))?.deliveryStatus).toBe('sent');
      expect(await store.outbox.purgeHourlyCounts(at(120), 10)).toBe(1);
      expect(await store.outbox.sendsInHour('ws_1', at(0))).toBe(0);
      expect(await store.outbox.sendsInHour('ws_1', at(120))).toBe(1);

      const mail = (id: string, minute: number) => ({ id, to: 'a@example.com', subject: 's', bodySealed: 'b', createdAt: at(minute) });
      for (const [id, minute] of [
        ['mail_sent', 1],
        ['mail_failed', 2],
        ['mail_pending', 3],
        ['mail_recent', 130],
      ] as const) {
        await store.loginLinks.create(
          { id: `lnk_${id}`, tokenHash: id, email: 'a@example.com', next: '/', expiresAt: at(600), usedAt: null, createdAt: at(minute) },
          mail(id, minute),
        );
      }
      await store.mails.claim({ id: 'c', now: at(130), until: at(140) }, 10);
      await store.mails.markSent('mail_sent', 'c', at(2));
      await store.mails.markFailed('mail_failed', 'c', 'refused');
      await store.mails.markSent('mail_recent', 'c', at(131));
      expect(await store.mails.purgeFinished(at(120), 10)).toBe(2);
      expect((await store.mails.due(at(200), 10)).map((m) => m.id)).toEqual(['mail_pending']);
      expect(await store.mails.purgeFinished(at(200), 10)).toBe(1);
    });

    it('purges idempotency records stored before a moment, and keeps the newest dev messages and mails', async () => {
      const stored = { requestHash: 'h', response: '{}' };
      await storeAnswer(store, { workspaceId: 'ws_1', operation: 'op', key: 'old' }, stored, at(1));
      await storeAnswer(store, { workspaceId: 'ws_1', operation: 'op', key: 'new' }, stored, at(30));
      expect(await store.idempotency.purge(at(10), 10)).toBe(1);
      expect(await store.idempotency.get({ workspaceId: 'ws_1', operation: 'op', key: 'old' }, at(0))).toBeUndefined();
      expect(await store.idempotency.get({ workspaceId: 'ws_1', operation: 'op', key: 'new' }, at(0))).toEqual(stored);

      for (const minute of [1, 2, 3, 4]) {
        await store.devMessages.add({
          id: `dm_${minute}`,
          workspaceId: 'ws_1',
          to: '+5691',
          body: 'b',
          verificationId: 'pv',
          createdAt: at(minute),
        });
        await store.devMails.add({ id: `dml_${minute}`, to: 'a@example.com', subject: 's', text: 't', html: 'h', createdAt: at(minute) });
      }
      expect(await store.devMessages.keepNewest(2)).toBe(2);
      expect(await store.devMails.keepNewest(3)).toBe(1);
      expect((await store.devMessages.list(10)).map((m) => m.id)).toEqual(['dm_4', 'dm_3']);
      expect((await store.devMails.list(10)).map((m) => m.id)).toEqual(['dml_4', 'dml_3', 'dml_2']);
    });
  });
}
