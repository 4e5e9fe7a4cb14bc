import type { FlagStatus } from '@svc/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EvalCaseRecord, FlagFilter, FlagRecord } from '../src/flags/store.ts';
import type { Page, PageRequest } from '../src/platform/page.ts';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const turn = { tool_calls: [], knowledge: [], tokens: { input: 0, output: 0 } };

/** Every id of a list read a page at a time, with `meanwhile` run after each page but the last. */
async function everyPage<T extends { id: string; createdAt: string }>(
  read: (page: PageRequest<string>) => Promise<Page<T>>,
  limit: number,
  meanwhile: (page: number) => Promise<void> = async () => {},
): Promise<string[]> {
  const ids: string[] = [];
  let after: PageRequest<string>['after'];
  for (let page = 0; ; page++) {
    const { items, more } = await read({ limit, after });
    expect(items.length).toBeLessThanOrEqual(limit);
    ids.push(...items.map((item) => item.id));
    const last = items.at(-1);
    if (!more || !last) return ids;
    after = { key: last.createdAt, id: last.id };
    await meanwhile(page);
  }
}

/** The flags and eval cases lists a page at a time, and the newest flags a digest shows. */
export function describeFlagPagesStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: pages of flags and eval cases`, () => {
    let store: Store;
    let chats = 0;
    beforeEach(async () => {
      store = await open();
      await store.users.create({ id: 'usr_1', email: 'ada@example.com', createdAt: at(0) });
      for (const id of ['ws_1', 'ws_2']) {
        await store.workspaces.createWithOwner({ id, slug: id.replace('_', '-'), name: null, createdAt: at(0) }, 'usr_1');
        const version = { contentHash: 'sha256:a', files: {}, gitCommit: null, gitBranch: null, authorId: 'usr_1', createdAt: at(0) };
        await store.versions.create({ id: `ver_${id}`, workspaceId: id, ...version });
      }
    });
    afterEach(() => store.close());

    /** Flags an agent reply of a new chat of the workspace. */
    async function flagged(id: string, minute: number, changes: Partial<FlagRecord> = {}): Promise<void> {
      const workspaceId = changes.workspaceId ?? 'ws_1';
      const chatId = `chat_${++chats}`;
      const chat = { workspaceId, agent: 'support', environment: 'live', versionId: `ver_${workspaceId}`, channel: 'api' };
      await store.chats.create({ id: chatId, ...chat, replay: false, createdAt: at(minute) });
      await store.chats.addMessages([{ id: `${chatId}_a`, chatId, role: 'agent', text: 'hello', trace: null, createdAt: at(minute) }]);
      const status: FlagStatus = changes.status ?? 'open';
      const flag: FlagRecord = {
        id,
        chatId,
        messageId: `${chatId}_a`,
        note: 'say hi back',
        agent: 'support',
        environment: 'live',
        version: { id: `ver_${workspaceId}`, number: 1 },
        channel: 'api',
        snapshot: { reply: 'hello', conversation: [], turn, turns: ['hi'] },
        evalCaseId: null,
        fixedByVersion: null,
        fixedAt: null,
        createdBy: 'ada@example.com',
        revision: 0,
        createdAt: at(minute),
        updatedAt: at(minute),
        ...changes,
        workspaceId,
        status,
      };
      const event = {
        id: `fev_${id}`,
        flagId: id,
        actor: 'ada@example.com',
        fromStatus: null,
        toStatus: status,
        noteBefore: null,
        noteAfter: null,
      };
      expect(await store.flags.create(flag, { ...event, at: at(minute) })).toEqual({ created: true });
    }

    const flagPages = (filter: FlagFilter, limit: number, meanwhile?: (page: number) => Promise<void>) =>
      everyPage((page) => store.flags.list('ws_1', filter, page), limit, meanwhile);

    it('pages through flags oldest first, ties of time broken by id, in a state and of an agent when asked', async () => {
      await flagged('flag_b', 2);
      await flagged('flag_a', 2);
      await flagged('flag_c', 1, { agent: 'sales' });
      await flagged('flag_d', 3, { status: 'fixed' });
      await flagged('flag_e', 4, { note: null });
      await flagged('flag_x', 1, { workspaceId: 'ws_2' });
      expect(await flagPages({ status: 'open' }, 2)).toEqual(['flag_c', 'flag_a', 'flag_b', 'flag_e']);
      expect(await flagPages({ status: 'all' }, 1)).toEqual(['flag_c', 'flag_a', 'flag_b', 'flag_d', 'flag_e']);
      expect(await flagPages({ status: 'open', agent: 'support' }, 1)).toEqual(['flag_a', 'flag_b', 'flag_e']);
      expect(await flagPages({ status: 'all', agent: 'sales' }, 5)).toEqual(['flag_c']);
      expect(await flagPages({ status: 'fixed' }, 5)).toEqual(['flag_d']);
      expect(await flagPages({ status: 'removed' }, 5)).toEqual([]);
    });

    it('pages through flags with none twice and none skipped while flags are added', async () => {
      for (let i = 0; i < 7; i++) await flagged(`flag_${i}`, 10);
      const paged = await flagPages({ status: 'open' }, 3, (page) => flagged(`flag_new_${page}`, 20 + page));
      // Three pages of three, a flag added after each of the first two: both come after every earlier one.
      expect(paged).toEqual([...Array.from({ length: 7 }, (_, i) => `flag_${i}`), 'flag_new_0', 'flag_new_1']);
    });

    it('reads the newest open flags with a note, as many as asked, and how many there are', async () => {
      for (let i = 1; i <= 5; i++) await flagged(`flag_${i}`, i);
      await flagged('flag_sales', 6, { agent: 'sales' });
      await flagged('flag_quiet', 7, { note: null });
      await flagged('flag_fixed', 8, { status: 'fixed' });
      await flagged('flag_other', 9, { workspaceId: 'ws_2' });
      const newest = async (agent: string | undefined, limit: number) => {
        const { count, newest } = await store.flags.newestInDigest('ws_1', agent, limit);
        return { count, newest: newest.map((f) => f.id) };
      };
      expect(await newest(undefined, 3)).toEqual({ count: 6, newest: ['flag_sales', 'flag_5', 'flag_4'] });
      expect(await newest('support', 2)).toEqual({ count: 5, newest: ['flag_5', 'flag_4'] });
      expect(await newest('billing', 2)).toEqual({ count: 0, newest: [] });
    });

    it("reads a chat's flags and flags by id, of the workspace only", async () => {
      await flagged('flag_1', 1);
      await flagged('flag_2', 2, { status: 'removed' });
      await flagged('flag_3', 3, { workspaceId: 'ws_2' });
      const second = await store.flags.get('ws_1', 'flag_2');
      expect((await store.flags.ofChat('ws_1', second!.chatId)).map((f) => [f.id, f.status])).toEqual([['flag_2', 'removed']]);
      const other = await store.flags.get('ws_2', 'flag_3');
      expect(await store.flags.ofChat('ws_1', other!.chatId)).toEqual([]);
      const many = await store.flags.getMany('ws_1', ['flag_1', 'flag_2', 'flag_3', 'flag_none']);
      expect(many.map((f) => f.id).sort()).toEqual(['flag_1', 'flag_2']);
      expect(await store.flags.getMany('ws_1', [])).toEqual([]);
    });

    const evalCase = (id: string, minute: number, changes: Partial<EvalCaseRecord> = {}): EvalCaseRecord => ({
      id,
      workspaceId: 'ws_1',
      agent: 'support',
      turns: ['hi'],
      expected: 'say hi back',
      originFlagId: null,
      createdBy: 'ada@example.com',
      createdAt: at(minute),
      updatedAt: at(minute),
      deletedAt: null,
      ...changes,
    });
    const casePages = (agent: string | undefined, limit: number, meanwhile?: (page: number) => Promise<void>) =>
      everyPage((page) => store.evalCases.page('ws_1', agent, page), limit, meanwhile);

    it('pages through eval cases oldest first, of an agent when asked, removed ones and other workspaces left out', async () => {
      for (const c of [
        evalCase('case_b', 2),
        evalCase('case_a', 2),
        evalCase('case_c', 1, { agent: 'sales' }),
        evalCase('case_d', 3),
        evalCase('case_gone', 2),
        evalCase('case_x', 1, { workspaceId: 'ws_2' }),
      ])
        await store.evalCases.create(c);
      expect(await store.evalCases.remove('ws_1', 'case_gone', at(4))).toBe(true);
      expect(await casePages(undefined, 2)).toEqual(['case_c', 'case_a', 'case_b', 'case_d']);
      expect(await casePages('support', 1)).toEqual(['case_a', 'case_b', 'case_d']);
      expect(await casePages('sales', 1)).toEqual(['case_c']);
      expect(await casePages('billing', 1)).toEqual([]);
    });

    it('pages through eval cases with none twice and none skipped while cases are added', async () => {
      for (let i = 0; i < 5; i++) await store.evalCases.create(evalCase(`case_${i}`, 10));
      const paged = await casePages('support', 2, (page) => store.evalCases.create(evalCase(`case_new_${page}`, 20 + page)));
      expect(paged).toEqual(['case_0', 'case_1', 'case_2', 'case_3', 'case_4', 'case_new_0', 'case_new_1', 'case_new_2']);
    });
  });
}
