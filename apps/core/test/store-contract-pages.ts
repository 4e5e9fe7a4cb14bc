import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Chat } from '../src/agents/store.ts';
import type { FlagStatus } from '@svc/domain';
import type { FlagRecord } from '../src/flags/store.ts';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

/** The pages of the lists that grow (see store-contract.ts): keyset pages that inserts never shift. */
export function describePageStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: pages`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
      await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at(0) });
      await store.workspaces.createWithOwner({ id: 'ws_1', slug: 'acme', name: null, createdAt: at(0) }, 'usr_1');
      await store.workspaces.createWithOwner({ id: 'ws_2', slug: 'other', name: null, createdAt: at(0) }, 'usr_1');
    });
    afterEach(() => store.close());

    const version = (id: string, workspaceId = 'ws_1') => ({
      id,
      workspaceId,
      contentHash: `sha256:${id}`,
      files: { 'svc.yaml': `workspace: ${id}` },
      gitCommit: null,
      gitBranch: null,
      authorId: 'usr_1',
      createdAt: at(1),
    });

    it("pages through a workspace's versions newest first, after the number last seen", async () => {
      for (const id of ['ver_1', 'ver_2', 'ver_3', 'ver_4', 'ver_5']) await store.versions.create(version(id));
      await store.versions.create(version('ver_x', 'ws_2'));
      const first = await store.versions.list('ws_1', { limit: 2 });
      expect([first.items.map((v) => [v.number, v.id]), first.more]).toEqual([
        [
          [5, 'ver_5'],
          [4, 'ver_4'],
        ],
        true,
      ]);
      expect(first.items[0]?.files).toEqual({ 'svc.yaml': 'workspace: ver_5' });
      await store.versions.create(version('ver_6'));
      const second = await store.versions.list('ws_1', { limit: 2, after: { key: 4, id: 'ver_4' } });
      expect(second.items.map((v) => v.number)).toEqual([3, 2]);
      const last = await store.versions.list('ws_1', { limit: 2, after: { key: 2, id: 'ver_2' } });
      expect([last.items.map((v) => v.number), last.more]).toEqual([[1], false]);
    });

    it('pages through the inbox newest first, ties of time broken by id, replays and other workspaces left out', async () => {
      await store.versions.create(version('ver_1'));
      await store.versions.create(version('ver_x', 'ws_2'));
      const chat = (id: string, minute: number, extra: Partial<Chat> = {}): Chat => ({
        id,
        workspaceId: 'ws_1',
        agent: 'support',
        environment: 'live',
        versionId: 'ver_1',
        channel: 'api',
        replay: false,
        createdAt: at(minute),
        ...extra,
      });
      for (const c of [chat('chat_a', 1), chat('chat_b', 2), chat('chat_c', 2), chat('chat_d', 3), chat('chat_r', 2, { replay: true })])
        await store.chats.create(c);
      await store.chats.create(chat('chat_o', 2, { workspaceId: 'ws_2', versionId: 'ver_x' }));
      const first = await store.chats.inbox('ws_1', {}, { limit: 2 });
      expect([first.items.map((c) => c.id), first.more]).toEqual([['chat_d', 'chat_c'], true]);
      // A chat started meanwhile is newer than every one listed: it shifts no later page.
      await store.chats.create(chat('chat_n', 4));
      const second = await store.chats.inbox('ws_1', {}, { limit: 2, after: { key: at(2), id: 'chat_c' } });
      expect([second.items.map((c) => c.id), second.more]).toEqual([['chat_b', 'chat_a'], false]);
    });

    it("narrows the inbox to an agent, an environment or both, and pages within what's left", async () => {
      await store.versions.create(version('ver_1'));
      const chat = (id: string, minute: number, agent: string, environment: string): Chat => ({
        id,
        workspaceId: 'ws_1',
        agent,
        environment,
        versionId: 'ver_1',
        channel: 'api',
        replay: false,
        createdAt: at(minute),
      });
      const all = [
        chat('chat_1', 1, 'support', 'live'),
        chat('chat_2', 2, 'sales', 'live'),
        chat('chat_3', 3, 'support', 'preview'),
        chat('chat_4', 4, 'support', 'live'),
        chat('chat_5', 5, 'sales', 'preview'),
        chat('chat_6', 6, 'support', 'live'),
      ];
      for (const c of all) await store.chats.create(c);
      await store.chats.create({ ...chat('chat_r', 7, 'support', 'live'), replay: true });
      const ids = async (filter: { agent?: string; environment?: string }) =>
        (await store.chats.inbox('ws_1', filter, { limit: 10 })).items.map((c) => c.id);
      expect(await ids({ agent: 'support' })).toEqual(['chat_6', 'chat_4', 'chat_3', 'chat_1']);
      expect(await ids({ environment: 'preview' })).toEqual(['chat_5', 'chat_3']);
      expect(await ids({ agent: 'support', environment: 'live' })).toEqual(['chat_6', 'chat_4', 'chat_1']);
      expect(await ids({ agent: 'nobody' })).toEqual([]);
      const first = await store.chats.inbox('ws_1', { agent: 'support', environment: 'live' }, { limit: 2 });
      expect([first.items.map((c) => c.id), first.more]).toEqual([['chat_6', 'chat_4'], true]);
      const second = await store.chats.inbox(
        'ws_1',
        { agent: 'support', environment: 'live' },
        { limit: 2, after: { key: at(4), id: 'chat_4' } },
      );
      expect([second.items.map((c) => c.id), second.more]).toEqual([['chat_1'], false]);
    });

    it('narrows the inbox to chats with an open flag, and pages within them', async () => {
      await store.versions.create(version('ver_1'));
      const ids = ['chat_1', 'chat_2', 'chat_3', 'chat_4', 'chat_5'];
      for (const [i, id] of ids.entries()) {
        const chat: Chat = {
          id,
          workspaceId: 'ws_1',
          agent: 'support',
          environment: 'live',
          versionId: 'ver_1',
          channel: 'api',
          replay: false,
          createdAt: at(i + 1),
        };
        await store.chats.create(chat);
        await store.chats.addMessages([{ id: `${id}_a`, chatId: id, role: 'agent', text: 'hello', trace: null, createdAt: at(i + 1) }]);
      }
      const flag = (id: string, chatId: string, status: FlagStatus): FlagRecord => ({
        id,
        workspaceId: 'ws_1',
        chatId,
        messageId: `${chatId}_a`,
        status,
        note: null,
        agent: 'support',
        environment: 'live',
        version: { id: 'ver_1', number: 1 },
        channel: 'api',
        snapshot: { reply: 'hello', conversation: [], turn: { tool_calls: [], knowledge: [], tokens: { input: 0, output: 0 } }, turns: [] },
        evalCaseId: null,
        fixedByVersion: status === 'fixed' ? { id: 'ver_1', number: 1 } : null,
        fixedAt: status === 'fixed' ? at(9) : null,
        createdBy: 'ada@example.com',
        revision: 0,
        createdAt: at(9),
        updatedAt: at(9),
      });
      const event = (flagId: string, toStatus: FlagStatus) => ({
        id: `fev_${flagId}`,
        flagId,
        actor: 'ada@example.com',
        fromStatus: null,
        toStatus,
        noteBefore: null,
        noteAfter: null,
        at: at(9),
      });
      // Open flags on chats 1, 2 and 4; chat 3's flag was removed, chat 5's fixed.
      for (const [id, chatId, status] of [
        ['flag_1', 'chat_1', 'open'],
        ['flag_2', 'chat_2', 'open'],
        ['flag_3', 'chat_3', 'removed'],
        ['flag_4', 'chat_4', 'open'],
        ['flag_5', 'chat_5', 'fixed'],
      ] as const)
        expect(await store.flags.create(flag(id, chatId, status), event(id, status))).toEqual({ created: true });
      const first = await store.chats.inbox('ws_1', { flagged: true }, { limit: 2 });
      expect([first.items.map((c) => c.id), first.more]).toEqual([['chat_4', 'chat_2'], true]);
      const second = await store.chats.inbox('ws_1', { flagged: true }, { limit: 2, after: { key: at(2), id: 'chat_2' } });
      expect([second.items.map((c) => c.id), second.more]).toEqual([['chat_1'], false]);
      expect((await store.chats.inbox('ws_1', { flagged: true, agent: 'sales' }, { limit: 10 })).items).toEqual([]);
      expect((await store.chats.inbox('ws_1', {}, { limit: 10 })).items).toHaveLength(5);
    });

    it("shows each inbox chat's version number, the visitor's first message and the count of messages", async () => {
      await store.versions.create(version('ver_1'));
      const { version: second } = await store.versions.create(version('ver_2'));
      const chat = (id: string, minute: number, versionId: string): Chat => ({
        id,
        workspaceId: 'ws_1',
        agent: 'support',
        environment: 'live',
        versionId,
        channel: 'whatsapp',
        replay: false,
        createdAt: at(minute),
      });
      await store.chats.create(chat('chat_talk', 1, 'ver_2'));
      await store.chats.create(chat('chat_quiet', 2, 'ver_1'));
      const message = (id: string, role: 'visitor' | 'agent', text: string, minute: number) => ({
        id,
        chatId: 'chat_talk',
        role,
        text,
        trace: role === 'agent' ? { tool_calls: [] } : null,
        createdAt: at(minute),
      });
      // Visitor messages of one moment keep the order they were added in.
      await store.chats.addMessages([message('msg_1', 'visitor', 'where is my order?', 3), message('msg_2', 'agent', 'Which one?', 3)]);
      await store.chats.addMessages([message('msg_3', 'visitor', 'A-1001', 3), message('msg_4', 'agent', 'Shipped.', 3)]);
      const { items } = await store.chats.inbox('ws_1', {}, { limit: 10 });
      expect(items.map((c) => [c.id, c.versionNumber, c.firstVisitorText, c.messageCount, c.channel])).toEqual([
        ['chat_quiet', 1, null, 0, 'whatsapp'],
        ['chat_talk', second.number, 'where is my order?', 4, 'whatsapp'],
      ]);
    });
  });
}
