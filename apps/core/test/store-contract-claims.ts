import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxFailedAttempts } from '@svc/domain';
import { NumberAtLimit, VerificationChanged } from '../src/verification/store.ts';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';
import { phoneVerificationRecord } from './records.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const claim = (id: string, minute: number, untilMinute: number) => ({ id, now: at(minute), until: at(untilMinute) });
const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();

/**
 * The rules several cores on one database rely on, held by the store: claimed outbox items, claimed idempotency
 * keys, one pending verification per number. The racing calls are concurrent calls on one store: a store on a
 * connection pool runs them as concurrent transactions, as two cores would.
 */
export function describeClaimsStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: claims`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
      await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at(0) });
      await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at(0) }, 'usr_1');
    });
    afterEach(() => store.close());

    const number = (n: number) => `+5691234${String(n).padStart(4, '0')}`;
    const message = (id: string, verificationId: string, phoneNumber: string, minute = 1) => ({
      id,
      workspaceId: 'ws_1',
      verificationId,
      phoneNumber,
      codeSealed: 'sealed',
      createdAt: at(minute),
    });
    async function queueCodes(count: number): Promise<void> {
      for (let n = 1; n <= count; n++) {
        const phoneNumber = number(n);
        const verification = phoneVerificationRecord({ id: `pv_${n}`, phoneNumber, createdAt: at(1), expiresAt: at(30) });
        await store.verifications.create(verification, message(`m_${n}`, `pv_${n}`, phoneNumber), 1000);
      }
    }
    async function queueMails(count: number): Promise<void> {
      for (let n = 1; n <= count; n++) {
        const link = {
          id: `link_${n}`,
          tokenHash: `hash_${n}`,
          email: `u${n}@example.com`,
          next: '/',
          expiresAt: at(30),
          usedAt: null,
          createdAt: at(1),
        };
        await store.loginLinks.create(link, {
          id: `mail_${n}`,
          to: link.email,
          subject: 'Sign in',
          bodySealed: 'sealed',
          createdAt: at(1),
        });
      }
    }

    describe('outbox claims', () => {
      it('hands each due message to one of the claimers that race for them, and none to a claimer before the claims end', async () => {
        await queueCodes(10);
        const claims = await Promise.all(['a', 'b', 'c'].map((id) => store.outbox.claim(claim(id, 2, 3), 4)));
        const claimed = claims.flatMap(ids).sort();
        expect(claimed).toEqual([...new Set(claimed)]);
        expect(claimed).toHaveLength(10);
        expect(claims.flat().every((m) => m.claimedUntil === at(3) && m.codeExpiresAt === at(30))).toBe(true);
        expect(await store.outbox.claim(claim('d', 3, 4), 10)).toEqual([]);
        // Still pending: claimed is not sent.
        expect(await store.outbox.due(at(3), 20)).toHaveLength(10);
      });

      it('hands the messages of a claim that ended unfinished to the next claimer, but not those finished or retried later', async () => {
        await queueCodes(4);
        const dead = await store.outbox.claim(claim('dead', 2, 3), 10);
        expect(ids(dead)).toEqual(['m_1', 'm_2', 'm_3', 'm_4']);
        expect(await store.outbox.markSent('m_1', 'dead', 'wamid.1', at(2))).toBe(true);
        expect(await store.outbox.markFailed('m_2', 'dead', 'refused', at(2))).toBe(true);
        expect(await store.outbox.markRetry('m_3', 'dead', at(10), 'timeout', false)).toBe(true);
        expect(ids(await store.outbox.claim(claim('next', 4, 15), 10))).toEqual(['m_4']);
        expect(ids(await store.outbox.claim(claim('later', 10, 11), 10))).toEqual(['m_3']);
      });

      it('hands each due mail to one of the claimers that race for them, and those of an ended claim to the next', async () => {
        await queueMails(10);
        const claims = await Promise.all(['a', 'b', 'c'].map((id) => store.mails.claim(claim(id, 2, 3), 4)));
        const claimed = claims.flatMap(ids).sort();
        expect(claimed).toEqual([...new Set(claimed)]);
        expect(claimed).toHaveLength(10);
        expect(await store.mails.claim(claim('d', 3, 4), 10)).toEqual([]);
        const holder = (id: string) => claims.flat().find((mail) => mail.id === id)!.claimId!;
        expect(await store.mails.markSent('mail_1', holder('mail_1'), at(3))).toBe(true);
        expect(await store.mails.markRetry('mail_2', holder('mail_2'), at(10), 'SMTP down')).toBe(true);
        const next = await store.mails.claim(claim('next', 4, 5), 20);
        expect(next).toHaveLength(8);
        expect(ids(next)).not.toContain('mail_1');
        expect(ids(next)).not.toContain('mail_2');
      });

      it('counts what each outbox has still to send, claimed or waiting for a retry, with the time the oldest was queued', async () => {
        expect(await store.outbox.backlog()).toEqual({ pending: 0, oldestQueuedAt: null });
        expect(await store.mails.backlog()).toEqual({ pending: 0, oldestQueuedAt: null });
        for (const n of [1, 2, 3]) {
          const verification = phoneVerificationRecord({ id: `pv_${n}`, phoneNumber: number(n), createdAt: at(n), expiresAt: at(30) });
          await store.verifications.create(verification, message(`m_${n}`, `pv_${n}`, number(n), n), 1000);
        }
        await queueMails(2);
        await store.outbox.claim(claim('a', 4, 5), 10);
        expect(await store.outbox.markSent('m_1', 'a', 'wamid.1', at(4))).toBe(true);
        expect(await store.outbox.markRetry('m_3', 'a', at(10), 'timeout', false)).toBe(true);
        expect(await store.outbox.backlog()).toEqual({ pending: 2, oldestQueuedAt: at(2) });
        const [mail] = await store.mails.claim(claim('b', 4, 5), 1);
        expect(await store.mails.markFailed(mail!.id, 'b', 'refused')).toBe(true);
        expect(await store.mails.backlog()).toEqual({ pending: 1, oldestQueuedAt: at(1) });
      });

      it('records outcomes that arrive at once each under its own claim: those of a claim that ended change nothing', async () => {
        await queueCodes(3);
        await store.outbox.claim(claim('slow', 2, 3), 1);
        expect(ids(await store.outbox.claim(claim('next', 4, 15), 10))).toEqual(['m_1', 'm_2', 'm_3']);
        const outcomes = await Promise.all([
          store.outbox.markSent('m_1', 'slow', 'wamid.slow', at(5)),
          store.outbox.markSent('m_1', 'next', 'wamid.1', at(5)),
          store.outbox.markFailed('m_2', 'next', 'refused', at(5)),
          store.outbox.markSent('m_3', 'next', 'wamid.3', at(6)),
        ]);
        expect(outcomes).toEqual([false, true, true, true]);
        expect(await store.outbox.findByProviderMessageId('wamid.slow')).toBeUndefined();
        expect(await store.outbox.findByProviderMessageId('wamid.3')).toMatchObject({ id: 'm_3', status: 'sent', sentAt: at(6) });
        expect(await store.verifications.get('ws_1', 'pv_1')).toMatchObject({ deliveryStatus: 'sent', deliveryUpdatedAt: at(5) });
        expect(await store.verifications.get('ws_1', 'pv_2')).toMatchObject({ deliveryStatus: 'failed', deliveryError: 'refused' });
        expect(await store.outbox.backlog()).toEqual({ pending: 0, oldestQueuedAt: null });
      });

      it('records the outcome of a message only under the claim that holds it: not under one that ended and was taken over', async () => {
        await queueCodes(3);
        await store.outbox.claim(claim('slow', 2, 3), 10);
        expect(ids(await store.outbox.claim(claim('next', 4, 15), 10))).toEqual(['m_1', 'm_2', 'm_3']);
        // The slow claimer finishes after its claim ended: each of its records changes nothing.
        expect(await store.outbox.markSent('m_1', 'slow', 'wamid.slow', at(5))).toBe(false);
        expect(await store.outbox.markFailed('m_2', 'slow', 'refused', at(5))).toBe(false);
        expect(await store.outbox.markRetry('m_3', 'slow', at(6), 'timeout', false)).toBe(false);
        expect(await store.outbox.findByProviderMessageId('wamid.slow')).toBeUndefined();
        expect(ids(await store.outbox.due(at(5), 10))).toEqual(['m_1', 'm_2', 'm_3']);
        expect((await store.verifications.get('ws_1', 'pv_1'))?.deliveryStatus).toBe('queued');
        expect(await store.outbox.claim(claim('other', 5, 6), 10)).toEqual([]);
        // The claimer that holds them records theirs.
        expect(await store.outbox.markSent('m_1', 'next', 'wamid.next', at(5))).toBe(true);
        expect(await store.outbox.markFailed('m_2', 'next', 'refused', at(5))).toBe(true);
        expect(await store.outbox.markRetry('m_3', 'next', at(20), 'timeout', false)).toBe(true);
        expect(await store.outbox.findByProviderMessageId('wamid.next')).toMatchObject({ id: 'm_1', status: 'sent' });
        expect(await store.verifications.get('ws_1', 'pv_1')).toMatchObject({ deliveryStatus: 'sent' });
        expect(await store.verifications.get('ws_1', 'pv_2')).toMatchObject({ deliveryStatus: 'failed', deliveryError: 'refused' });
        expect(ids(await store.outbox.due(at(19), 10))).toEqual([]);
        expect(await store.outbox.claim(claim('later', 20, 21), 10)).toMatchObject([{ id: 'm_3', attempts: 1, lastError: 'timeout' }]);
        // Once recorded, the item is no claim's: a late record of the finished one changes nothing either.
        expect(await store.outbox.markFailed('m_1', 'next', 'late', at(21))).toBe(false);
        expect(await store.outbox.findByProviderMessageId('wamid.next')).toMatchObject({ status: 'sent', lastError: null });
      });

      it('records the outcome of a mail only under the claim that holds it: not under one that ended and was taken over', async () => {
        await queueMails(3);
        await store.mails.claim(claim('slow', 2, 3), 10);
        expect(ids(await store.mails.claim(claim('next', 4, 15), 10))).toEqual(['mail_1', 'mail_2', 'mail_3']);
        expect(await store.mails.markSent('mail_1', 'slow', at(5))).toBe(false);
        expect(await store.mails.markFailed('mail_2', 'slow', 'refused')).toBe(false);
        expect(await store.mails.markRetry('mail_3', 'slow', at(6), 'SMTP down')).toBe(false);
        expect(ids(await store.mails.due(at(5), 10))).toEqual(['mail_1', 'mail_2', 'mail_3']);
        expect(await store.mails.claim(claim('other', 5, 6), 10)).toEqual([]);
        expect(await store.mails.markSent('mail_1', 'next', at(5))).toBe(true);
        expect(await store.mails.markFailed('mail_2', 'next', 'refused')).toBe(true);
        expect(await store.mails.markRetry('mail_3', 'next', at(20), 'SMTP down')).toBe(true);
        expect(ids(await store.mails.due(at(19), 10))).toEqual([]);
        expect(await store.mails.claim(claim('later', 20, 21), 10)).toMatchObject([{ id: 'mail_3', attempts: 1, lastError: 'SMTP down' }]);
        expect(await store.mails.markRetry('mail_1', 'next', at(30), 'late')).toBe(false);
      });
    });

    describe('claims renewed and confirmed', () => {
      it('renews the claims that still hold their messages and mails, expired or not, but not one another claimer took over', async () => {
        await queueCodes(3);
        await queueMails(2);
        await store.outbox.claim(claim('a', 2, 3), 2);
        await store.outbox.claim(claim('b', 2, 3), 1);
        expect(ids(await store.outbox.claim(claim('taker', 4, 5), 1))).toEqual(['m_1']);
        const held = [
          { id: 'm_1', claimId: 'a' },
          { id: 'm_2', claimId: 'a' },
          { id: 'm_3', claimId: 'b' },
        ];
        expect((await store.outbox.renew(held, at(20))).sort()).toEqual(['m_2', 'm_3']);
        // Renewed: no one takes them before the renewed claims end; the taker's claim ended unrenewed.
        expect(ids(await store.outbox.claim(claim('c', 10, 11), 10))).toEqual(['m_1']);
        expect(ids(await store.outbox.claim(claim('d', 21, 22), 10))).toEqual(['m_1', 'm_2', 'm_3']);

        await store.mails.claim(claim('a', 2, 3), 2);
        expect(await store.mails.markSent('mail_2', 'a', at(2))).toBe(true);
        expect(
          await store.mails.renew(
            [
              { id: 'mail_1', claimId: 'a' },
              { id: 'mail_2', claimId: 'a' },
            ],
            at(20),
          ),
        ).toEqual(['mail_1']);
        expect(await store.mails.claim(claim('c', 10, 11), 10)).toEqual([]);
      });

      it('confirms a claim before a send: held while the verification is pending, settled once it is not, lost once taken over', async () => {
        await queueCodes(4);
        await store.outbox.claim(claim('a', 2, 3), 4);
        expect(await store.outbox.confirm('m_1', 'a', at(2), at(20))).toBe('held');
        // Confirmed, the claim lasts until the new end.
        expect(ids(await store.outbox.claim(claim('b', 10, 11), 10))).toEqual(['m_2', 'm_3', 'm_4']);
        expect(await store.outbox.confirm('m_2', 'a', at(10), at(20))).toBe('lost');
        const pv3 = await store.verifications.get('ws_1', 'pv_3');
        await store.verifications.check('ws_1', 'pv_3', pv3!.codeHmac, at(10), maxFailedAttempts);
        expect(await store.outbox.confirm('m_3', 'b', at(10), at(20))).toBe('settled');
        // pv_4's code expired at minute 30.
        expect(await store.outbox.confirm('m_4', 'b', at(31), at(40))).toBe('settled');
      });

      it('counts the sends of a message that got no answer, and a claim taken over unfinished as one', async () => {
        await queueCodes(1);
        await store.outbox.claim(claim('a', 2, 3), 1);
        expect(await store.outbox.markRetry('m_1', 'a', at(4), 'no answer', true)).toBe(true);
        await store.outbox.claim(claim('b', 4, 5), 1);
        expect(await store.outbox.markRetry('m_1', 'b', at(6), 'refused', false)).toBe(true);
        expect(await store.outbox.claim(claim('c', 6, 7), 1)).toMatchObject([{ id: 'm_1', attempts: 2, unanswered: 1 }]);
        // c's claim ended unfinished: it may have sent the code before it died.
        expect(await store.outbox.claim(claim('d', 8, 9), 1)).toMatchObject([{ id: 'm_1', attempts: 2, unanswered: 2 }]);
        expect(await store.outbox.due(at(9), 1)).toMatchObject([{ id: 'm_1', unanswered: 2 }]);
      });
    });

    describe('idempotency keys', () => {
      const scope = { workspaceId: 'ws_1', operation: 'verifications.create', key: 'k1' };

      it('gives a key to one of the requests that claim it at once; the others find it held, then answered', async () => {
        const records = await Promise.all(['a', 'b', 'c', 'd'].map((id) => store.idempotency.claim(scope, 'h', claim(id, 1, 2), at(0))));
        const holders = new Set(records.map((record) => record.claimId));
        expect(holders.size).toBe(1);
        const [winner] = holders;
        expect(records.every((record) => record.response === null && record.claimedUntil === at(2))).toBe(true);
        expect(await store.idempotency.get(scope, at(0))).toBeUndefined();
        const loser = ['a', 'b', 'c', 'd'].find((id) => id !== winner)!;
        expect(await store.idempotency.answer(scope, loser, '{"ok":true}', at(1))).toBe(false);
        expect(await store.idempotency.answer(scope, winner!, '{"ok":true,"value":1}', at(1))).toBe(true);
        expect(await store.idempotency.claim(scope, 'h', claim('e', 1, 2), at(0))).toMatchObject({ response: '{"ok":true,"value":1}' });
        expect(await store.idempotency.get(scope, at(0))).toEqual({ requestHash: 'h', response: '{"ok":true,"value":1}' });
      });

      it('keeps the hash of the request that holds a key, for a retry with another request to be refused', async () => {
        await store.idempotency.claim(scope, 'first', claim('a', 1, 2), at(0));
        expect(await store.idempotency.claim(scope, 'second', claim('b', 1, 2), at(0))).toMatchObject({
          requestHash: 'first',
          claimId: 'a',
        });
      });

      it('lets a key released unanswered, or held by a claim that ended, go to the next request', async () => {
        await store.idempotency.claim(scope, 'h', claim('a', 1, 2), at(0));
        await store.idempotency.release(scope, 'a');
        expect(await store.idempotency.claim(scope, 'h', claim('b', 1, 2), at(0))).toMatchObject({ claimId: 'b', response: null });
        // b died: its claim ends at minute 2.
        expect(await store.idempotency.claim(scope, 'h', claim('c', 2, 3), at(0))).toMatchObject({ claimId: 'b' });
        expect(await store.idempotency.claim(scope, 'h', claim('c', 3, 4), at(0))).toMatchObject({ claimId: 'c' });
        expect(await store.idempotency.answer(scope, 'b', '{"ok":true}', at(3))).toBe(false);
      });

      it('renews the claim on a key while its request runs, and only that claim, only until it is answered', async () => {
        await store.idempotency.claim(scope, 'h', claim('a', 1, 2), at(0));
        expect(await store.idempotency.renew(scope, 'a', at(5))).toBe(true);
        expect(await store.idempotency.renew(scope, 'b', at(9))).toBe(false);
        expect(await store.idempotency.claim(scope, 'h', claim('b', 4, 5), at(0))).toMatchObject({ claimId: 'a' });
        expect(await store.idempotency.answer(scope, 'a', '{"ok":true}', at(4))).toBe(true);
        expect(await store.idempotency.renew(scope, 'a', at(9))).toBe(false);
      });

      it('treats an answer older than the key’s lifetime as gone', async () => {
        await store.idempotency.claim(scope, 'h', claim('a', 1, 2), at(0));
        await store.idempotency.answer(scope, 'a', '{"ok":true}', at(1));
        expect(await store.idempotency.claim(scope, 'other', claim('b', 5, 6), at(2))).toMatchObject({
          claimId: 'b',
          requestHash: 'other',
          response: null,
        });
      });
    });

    describe('phone verifications', () => {
      const phoneNumber = '+56912345678';
      const create = (n: number, minute = 1, expiresMinute = 10) =>
        store.verifications.create(
          phoneVerificationRecord({ id: `pv_${n}`, phoneNumber, createdAt: at(minute), expiresAt: at(expiresMinute) }),
          message(`m_${n}`, `pv_${n}`, phoneNumber, minute),
          1000,
        );

      it('keeps one pending verification and one code per number when creates race', async () => {
        const results = await Promise.allSettled(Array.from({ length: 8 }, (_, n) => create(n + 1)));
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        for (const result of results) {
          if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(VerificationChanged);
        }
        expect(await store.outbox.due(at(2), 20)).toHaveLength(1);
        expect(await store.outbox.sendsInHour('ws_1', at(0))).toBe(1);
      });

      it('lets a number have a new verification once its pending one expired', async () => {
        await create(1, 1, 5);
        await expect(create(2, 4)).rejects.toBeInstanceOf(VerificationChanged);
        await create(3, 5);
        expect((await store.verifications.sendState('ws_1', phoneNumber, at(5), at(0), 5)).pending?.id).toBe('pv_3');
      });

      it('creates each of the verifications of several workspaces made at once, refusing alone one whose number has a code', async () => {
        await store.workspaces.createWithOwner({ id: 'ws_2', slug: 'globex', name: null, createdAt: at(0) }, 'usr_1');
        await store.workspaces.createWithOwner({ id: 'ws_3', slug: 'initech', name: null, createdAt: at(0) }, 'usr_1');
        await create(1);
        const createIn = (workspaceId: string, n: number) =>
          store.verifications.create(
            phoneVerificationRecord({ id: `pv_${n}`, workspaceId, phoneNumber, createdAt: at(2), expiresAt: at(10) }),
            { ...message(`m_${n}`, `pv_${n}`, phoneNumber, 2), workspaceId },
            1000,
            { since: at(0), limit: 5 },
          );
        const results = await Promise.allSettled([createIn('ws_1', 2), createIn('ws_2', 3), createIn('ws_3', 4)]);
        expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
        expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(VerificationChanged);
        expect(await store.verifications.get('ws_1', 'pv_2')).toBeUndefined();
        expect(await store.verifications.get('ws_2', 'pv_3')).toMatchObject({ status: 'pending', phoneNumber });
        expect(ids(await store.outbox.due(at(3), 10))).toEqual(['m_1', 'm_3', 'm_4']);
        expect(await store.outbox.sendsInHour('ws_1', at(0))).toBe(1);
        expect(await store.outbox.sendsInHour('ws_3', at(0))).toBe(1);
      });

      it('refuses a create given a number limit when the number had that many sends in the window, writing nothing', async () => {
        // Three verifications of the number, each expired before the next: three sends, at minutes 1, 3 and 5.
        for (const n of [1, 2, 3]) await create(n, 2 * n - 1, 2 * n);
        const fourth = (since: string, limit: number) =>
          store.verifications.create(
            phoneVerificationRecord({ id: 'pv_4', phoneNumber, createdAt: at(7), expiresAt: at(20) }),
            message('m_4', 'pv_4', phoneNumber, 7),
            1000,
            { since, limit },
          );
        await expect(fourth(at(0), 3)).rejects.toBeInstanceOf(NumberAtLimit);
        await expect(fourth(at(2), 3)).resolves.toBeUndefined(); // the send at minute 1 is out of the window
        expect((await store.verifications.sendState('ws_1', phoneNumber, at(7), at(0), 10)).recentSendTimes).toEqual([
          at(7),
          at(5),
          at(3),
          at(1),
        ]);
      });

      it('sends one fresh code when resends of one verification race, and refuses a resend of a code sent meanwhile', async () => {
        await create(1);
        const resend = (n: number) =>
          store.verifications.resend(
            'pv_1',
            at(1),
            { codeHmac: `code_${n}`, expiresAt: at(20), lastSentAt: at(3), deliveryStatus: 'queued', lastSendKey: `key_${n}` },
            message(`m_resend_${n}`, 'pv_1', phoneNumber, 3),
            1000,
          );
        const results = await Promise.allSettled([1, 2, 3, 4].map(resend));
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        expect(results.filter((result) => result.status === 'rejected' && result.reason instanceof VerificationChanged)).toHaveLength(3);
        expect(await store.outbox.due(at(4), 20)).toHaveLength(1);
        expect(await store.verifications.get('ws_1', 'pv_1')).toMatchObject({ sendCount: 2, lastSentAt: at(3) });
      });

      it('counts each of failed attempts that race, up to the block, and none after', async () => {
        await create(1);
        const attempts = await Promise.all(
          Array.from({ length: maxFailedAttempts + 3 }, () => store.verifications.check('ws_1', 'pv_1', 'wrong', at(4), maxFailedAttempts)),
        );
        expect(
          attempts
            .filter((checked) => checked?.outcome === 'failed')
            .map((checked) => checked!.verification.failedAttempts)
            .sort(),
        ).toEqual(Array.from({ length: maxFailedAttempts }, (_, i) => i + 1));
        expect(await store.verifications.get('ws_1', 'pv_1')).toMatchObject({ status: 'blocked', failedAttempts: maxFailedAttempts });
      });
    });
  });
}
