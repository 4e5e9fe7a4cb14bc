import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HourlyLimitReached } from '../src/verification/store.ts';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';
import { deviceAuthorizationRecord, phoneVerificationRecord } from './records.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

/** The messaging, sign-in and agent parts of the Store contract (see store-contract.ts). */
export function describeMoreStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: messaging, sign-in, agents`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
      await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at(0) });
      await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at(0) }, 'usr_1');
    });
    afterEach(() => store.close());

    const verification = (id: string, phoneNumber = '+56912345678') =>
      phoneVerificationRecord({ id, phoneNumber, createdAt: at(1), expiresAt: at(10) });
    const deviceAuthorization = () =>
      deviceAuthorizationRecord({ id: 'dev_1', deviceCodeHash: 'h1', userCodeHash: 'uh1', expiresAt: at(15), createdAt: at(0) });
    const message = (id: string, verificationId: string, minute: number) => ({
      id,
      workspaceId: 'ws_1',
      verificationId,
      phoneNumber: '+56912345678',
      codeSealed: 'sealed',
      createdAt: at(minute),
    });

    it('queues a message with its verification, counts it in the hour, and supersedes it on a resend', async () => {
      await store.verifications.create(verification('pv_1'), message('m_1', 'pv_1', 1), 100);
      expect(await store.outbox.sendsInHour('ws_1', '2026-01-01T00:00:00.000Z')).toBe(1);
      expect((await store.outbox.due(at(2), 10)).map((m) => [m.id, m.codeExpiresAt])).toEqual([['m_1', at(10)]]);
      await store.verifications.resend(
        'pv_1',
        at(1),
        { codeHmac: 'bb', expiresAt: at(20), lastSentAt: at(3), deliveryStatus: 'queued', lastSendKey: 'key_2' },
        message('m_2', 'pv_1', 3),
        100,
      );
      expect(await store.verifications.get('ws_1', 'pv_1')).toMatchObject({
        codeHmac: 'bb',
        sendCount: 2,
        expiresAt: at(20),
        lastSendKey: 'key_2',
      });
      expect((await store.outbox.due(at(4), 10)).map((m) => [m.id, m.codeExpiresAt])).toEqual([['m_2', at(20)]]);
      expect(await store.verifications.sendState('ws_1', '+56912345678', at(4), at(0), 5)).toMatchObject({
        pending: { id: 'pv_1', lastSentAt: at(3) },
        recentSendTimes: [at(3), at(1)],
      });
      expect((await store.verifications.sendState('ws_1', '+56912345678', at(4), at(2), 1)).recentSendTimes).toEqual([at(3)]);
      expect(await store.outbox.sendsInHour('ws_1', '2026-01-01T00:00:00.000Z')).toBe(2);
    });

    it('leaves a message a resend superseded while its send was under way as it is when that send ends', async () => {
      await store.verifications.create(verification('pv_1'), message('m_1', 'pv_1', 1), 100);
      expect((await store.outbox.claim({ id: 'c_1', now: at(2), until: at(3) }, 10)).map((m) => m.id)).toEqual(['m_1']);
      await store.verifications.resend(
        'pv_1',
        at(1),
        { codeHmac: 'bb', expiresAt: at(20), lastSentAt: at(2), deliveryStatus: 'queued', lastSendKey: null },
        message('m_2', 'pv_1', 2),
        100,
      );
      expect(await store.outbox.markSent('m_1', 'c_1', 'wamid.1', at(2))).toBe(false);
      expect(await store.verifications.get('ws_1', 'pv_1')).toMatchObject({ codeHmac: 'bb', deliveryStatus: 'queued' });
      // The fresh code's message is due, and no claim holds it.
      expect((await store.outbox.claim({ id: 'c_2', now: at(2), until: at(3) }, 10)).map((m) => m.id)).toEqual(['m_2']);
    });

    it('keeps nothing of a create or resend whose message would pass the hourly cap', async () => {
      await store.verifications.create(verification('pv_1'), message('m_1', 'pv_1', 1), 2);
      await store.verifications.create(verification('pv_2', '+56987654321'), message('m_2', 'pv_2', 2), 2);
      await expect(store.verifications.create(verification('pv_3', '+56911112222'), message('m_3', 'pv_3', 3), 2)).rejects.toBeInstanceOf(
        HourlyLimitReached,
      );
      await expect(
        store.verifications.resend(
          'pv_1',
          at(1),
          { codeHmac: 'bb', expiresAt: at(20), lastSentAt: at(4), deliveryStatus: 'queued', lastSendKey: null },
          message('m_4', 'pv_1', 4),
          2,
        ),
      ).rejects.toMatchObject({ hour: '2026-01-01T00:00:00.000Z' });
      expect(await store.verifications.get('ws_1', 'pv_3')).toBeUndefined();
      expect(await store.verifications.get('ws_1', 'pv_1')).toMatchObject({ codeHmac: 'aa', sendCount: 1 });
      expect((await store.outbox.due(at(5), 10)).map((m) => m.id)).toEqual(['m_1', 'm_2']);
      expect(await store.outbox.sendsInHour('ws_1', '2026-01-01T00:00:00.000Z')).toBe(2);
      // A test number sends nothing, so a full hour does not refuse it and it counts no send.
      await store.verifications.create({ ...verification('pv_5', '+56933334444'), testNumber: true }, null, 2);
      expect(await store.verifications.get('ws_1', 'pv_5')).toMatchObject({ status: 'pending', testNumber: true });
      expect(await store.outbox.sendsInHour('ws_1', '2026-01-01T00:00:00.000Z')).toBe(2);
    });

    it('checks a code: blocks at the fifth failed attempt, verifies only a pending unexpired verification of the workspace', async () => {
      const check = (id: string, codeHmac: string, minute = 5) => store.verifications.check('ws_1', id, codeHmac, at(minute), 5);
      await store.verifications.create(verification('pv_1'), null, 100);
      for (let i = 1; i <= 4; i++) {
        expect(await check('pv_1', 'bb')).toEqual({
          outcome: 'failed',
          verification: { status: 'pending', failedAttempts: i, expiresAt: at(10) },
        });
      }
      expect(await check('pv_1', 'bb')).toMatchObject({ outcome: 'failed', verification: { status: 'blocked', failedAttempts: 5 } });
      expect(await check('pv_1', 'aa')).toMatchObject({ outcome: 'none', verification: { status: 'blocked', failedAttempts: 5 } });
      await store.verifications.create(verification('pv_2', '+56987654321'), null, 100);
      // Another workspace's verification is not found, and left alone; an expired one changes no more.
      expect(await store.verifications.check('ws_2', 'pv_2', 'bb', at(5), 5)).toBeUndefined();
      expect(await check('pv_none', 'aa')).toBeUndefined();
      expect(await check('pv_2', 'aa', 10)).toMatchObject({ outcome: 'none', verification: { status: 'pending', failedAttempts: 0 } });
      expect(await check('pv_2', 'aa')).toMatchObject({ outcome: 'verified', verification: { status: 'verified', failedAttempts: 0 } });
      expect(await check('pv_2', 'bb', 6)).toMatchObject({ outcome: 'none', verification: { status: 'verified', failedAttempts: 0 } });
      expect(await store.verifications.get('ws_1', 'pv_2')).toMatchObject({ status: 'verified', verifiedAt: at(5), failedAttempts: 0 });
      expect(await store.verifications.sendState('ws_1', '+56987654321', at(6), at(0), 5)).toEqual({
        pending: undefined,
        recentSendTimes: [],
      });
    });

    it('records a delivery on the message and its verification, and finds it by the provider id', async () => {
      await store.verifications.create(verification('pv_1'), message('m_1', 'pv_1', 1), 100);
      await store.outbox.claim({ id: 'c', now: at(2), until: at(3) }, 10);
      expect(await store.outbox.markSent('m_1', 'c', 'wamid.1', at(2))).toBe(true);
      expect(await store.outbox.due(at(3), 10)).toEqual([]);
      expect((await store.verifications.get('ws_1', 'pv_1'))?.deliveryStatus).toBe('sent');
      expect(await store.outbox.findByProviderMessageId('wamid.1')).toMatchObject({ id: 'm_1', codeSealed: null, status: 'sent' });
    });

    it('decides a device authorization once and spends it once; uses a login link once', async () => {
      const auth = deviceAuthorization();
      await store.deviceAuthorizations.create(auth);
      expect(await store.deviceAuthorizations.spend('dev_1', 'tok_1')).toBe(false);
      expect(await store.deviceAuthorizations.decide('dev_1', 'approved', 'usr_1', at(1))).toBe(true);
      expect(await store.deviceAuthorizations.decide('dev_1', 'denied', 'usr_1', at(2))).toBe(false);
      expect(await store.deviceAuthorizations.spend('dev_1', 'tok_1')).toBe(true);
      expect(await store.deviceAuthorizations.spend('dev_1', 'tok_2')).toBe(false);
      expect(await store.deviceAuthorizations.findByUserCodeHash('uh1')).toMatchObject({ status: 'spent', tokenId: 'tok_1' });

      const link = { id: 'lnk_1', tokenHash: 'lh', email: 'ada@example.com', next: '/', expiresAt: at(15), usedAt: null, createdAt: at(0) };
      await store.loginLinks.create(link, { id: 'mail_1', to: 'ada@example.com', subject: 's', bodySealed: 'b', createdAt: at(0) });
      expect(await store.loginLinks.use('lnk_1', at(1))).toBe(true);
      expect(await store.loginLinks.use('lnk_1', at(2))).toBe(false);
      expect((await store.mails.due(at(1), 10)).map((m) => m.id)).toEqual(['mail_1']);
    });

    it('keeps device authorizations without a user code hash, as earlier versions wrote them, side by side', async () => {
      await store.deviceAuthorizations.create({ ...deviceAuthorization(), userCodeHash: null });
      await store.deviceAuthorizations.create({ ...deviceAuthorization(), id: 'dev_2', deviceCodeHash: 'h2', userCodeHash: null });
      const found = await store.deviceAuthorizations.findByDeviceCodeHash('h2');
      expect(found).toMatchObject({ id: 'dev_2', userCodeHash: null });
      expect(found).not.toHaveProperty('userCode');
    });

    it('numbers versions per workspace, deploys environments, and keeps replays out of the inbox', async () => {
      const { version: v1 } = await store.versions.create({
        id: 'ver_1',
        workspaceId: 'ws_1',
        contentHash: 'sha256:1',
        files: { 'svc.yaml': 'workspace: acme' },
        gitCommit: null,
        gitBranch: null,
        authorId: 'usr_1',
        createdAt: at(1),
      });
      const { version: v2 } = await store.versions.create({
        id: 'ver_2',
        workspaceId: 'ws_1',
        contentHash: 'sha256:2',
        files: {},
        gitCommit: 'c',
        gitBranch: 'b',
        authorId: 'usr_1',
        createdAt: at(2),
      });
      expect([v1.number, v2.number]).toEqual([1, 2]);
      expect((await store.versions.findByHash('ws_1', 'sha256:1'))?.files).toEqual({ 'svc.yaml': 'workspace: acme' });
      await store.environments.deploy('ws_1', 'preview', 'ver_1', at(3));
      await store.environments.deploy('ws_1', 'preview', 'ver_2', at(4));
      expect((await store.environments.get('ws_1', 'preview'))?.version?.id).toBe('ver_2');
      const chat = { workspaceId: 'ws_1', agent: 'support', environment: 'live', versionId: 'ver_1', channel: 'api', createdAt: at(5) };
      await store.chats.create({ ...chat, id: 'chat_1', replay: false });
      await store.chats.create({ ...chat, id: 'chat_2', replay: true });
      expect((await store.chats.inbox('ws_1', {}, { limit: 10 })).items.map((c) => c.id)).toEqual(['chat_1']);
      expect(await store.chats.countConversations('ws_1', 'live')).toBe(1);
    });

    it("keeps an environment's secrets apart from other environments' and workspaces', the newest value of each", async () => {
      await store.workspaces.createWithOwner({ id: 'ws_2', slug: 'globex', name: null, createdAt: at(0) }, 'usr_1');
      for (const workspaceId of ['ws_1', 'ws_2']) {
        const versionId = `ver_${workspaceId}`;
        await store.versions.create({
          id: versionId,
          workspaceId,
          contentHash: `sha256:${workspaceId}`,
          files: {},
          gitCommit: null,
          gitBranch: null,
          authorId: 'usr_1',
          createdAt: at(0),
        });
        for (const environment of ['live', 'preview']) await store.environments.deploy(workspaceId, environment, versionId, at(0));
      }
      await store.secrets.put('ws_1', 'live', 'SHOP_KEY', 'v1.old', at(1));
      await store.secrets.put('ws_1', 'live', 'SHOP_KEY', 'v1.new', at(2));
      await store.secrets.put('ws_1', 'live', 'CRM_KEY', 'v1.crm', at(3));
      await store.secrets.put('ws_1', 'preview', 'SHOP_KEY', 'v1.preview', at(4));
      await store.secrets.put('ws_2', 'live', 'SHOP_KEY', 'v1.other', at(5));
      const byName = (rows: { name: string }[]) => [...rows].sort((a, b) => a.name.localeCompare(b.name));
      expect(byName(await store.secrets.sealed('ws_1', 'live'))).toEqual([
        { name: 'CRM_KEY', valueSealed: 'v1.crm' },
        { name: 'SHOP_KEY', valueSealed: 'v1.new' },
      ]);
      expect(await store.secrets.sealed('ws_1', 'preview')).toEqual([{ name: 'SHOP_KEY', valueSealed: 'v1.preview' }]);
      expect(await store.secrets.sealed('ws_1', 'staging')).toEqual([]);
      expect(await store.secrets.list('ws_1', 'live')).toEqual([
        { name: 'CRM_KEY', updatedAt: at(3) },
        { name: 'SHOP_KEY', updatedAt: at(2) },
      ]);
    });

    it('counts exactly five failed attempts when more arrive at once, and verifies once', async () => {
      await store.verifications.create(verification('pv_1'), null, 100);
      const check = (id: string, codeHmac: string) => store.verifications.check('ws_1', id, codeHmac, at(5), 5);
      const checks = await Promise.all(Array.from({ length: 7 }, () => check('pv_1', 'bb')));
      const counted = checks.filter((checked) => checked?.outcome === 'failed').map((checked) => checked!.verification);
      expect(counted.map((after) => after.failedAttempts).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(counted.filter((after) => after.status === 'blocked').map((after) => after.failedAttempts)).toEqual([5]);
      expect(checks.filter((checked) => checked?.outcome === 'none').map((checked) => checked!.verification.status)).toEqual([
        'blocked',
        'blocked',
      ]);
      expect(await store.verifications.get('ws_1', 'pv_1')).toMatchObject({ status: 'blocked', failedAttempts: 5 });

      await store.verifications.create(verification('pv_2', '+56987654321'), null, 100);
      const [right, again, wrong] = await Promise.all([check('pv_2', 'aa'), check('pv_2', 'aa'), check('pv_2', 'bb')]);
      // Whichever arrives first wins, on a store that runs them at once: one verifies, a failure counts only before.
      expect([right, again].filter((checked) => checked?.outcome === 'verified')).toHaveLength(1);
      const failed = wrong?.outcome === 'failed';
      expect(await store.verifications.get('ws_1', 'pv_2')).toMatchObject({ status: 'verified', failedAttempts: failed ? 1 : 0 });
    });

    it('makes one version of one content however many creates run at once, and numbers the others apart', async () => {
      const version = (id: string, contentHash: string) => ({
        id,
        workspaceId: 'ws_1',
        contentHash,
        files: {},
        gitCommit: null,
        gitBranch: null,
        authorId: 'usr_1',
        createdAt: at(1),
      });
      const same = await Promise.all(['ver_a', 'ver_b', 'ver_c'].map((id) => store.versions.create(version(id, 'sha256:same'))));
      expect(same.filter((result) => result.created)).toHaveLength(1);
      expect(new Set(same.map((result) => result.version.id)).size).toBe(1);
      expect(same.map((result) => result.version.number)).toEqual([1, 1, 1]);
      const others = await Promise.all(['ver_d', 'ver_e'].map((id, i) => store.versions.create(version(id, `sha256:${i}`))));
      // Numbered apart in whichever order they commit.
      expect(others.map((result) => result.created)).toEqual([true, true]);
      expect(others.map((result) => result.version.number).sort()).toEqual([2, 3]);
    });

    it('answers a duplicate key with the domain error conflict, and keeps what was there', async () => {
      const auth = deviceAuthorization();
      const [first, sameUserCode] = await Promise.allSettled([
        store.deviceAuthorizations.create(auth),
        store.deviceAuthorizations.create({ ...auth, id: 'dev_2', deviceCodeHash: 'h2' }),
      ]);
      expect(first.status).toBe('fulfilled');
      expect(sameUserCode).toMatchObject({ status: 'rejected', reason: { name: 'DomainError', code: 'conflict', status: 409 } });
      expect(await store.deviceAuthorizations.findByUserCodeHash('uh1')).toMatchObject({ id: 'dev_1', deviceCodeHash: 'h1' });

      await store.versions.create({
        id: 'ver_1',
        workspaceId: 'ws_1',
        contentHash: 'sha256:1',
        files: {},
        gitCommit: null,
        gitBranch: null,
        authorId: 'usr_1',
        createdAt: at(1),
      });
      const chat = {
        id: 'chat_1',
        workspaceId: 'ws_1',
        agent: 'support',
        environment: 'live',
        versionId: 'ver_1',
        channel: 'api',
        replay: false,
        createdAt: at(2),
      };
      await store.chats.create(chat);
      await expect(store.chats.create({ ...chat, agent: 'other' })).rejects.toMatchObject({ code: 'conflict' });
      expect((await store.chats.get('ws_1', 'chat_1'))?.agent).toBe('support');
    });
  });
}
