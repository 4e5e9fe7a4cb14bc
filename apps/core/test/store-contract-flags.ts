import type { Verdict } from '@svc/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pendingExecution, newRunCounts } from '../src/evals/store.ts';
import type { EvalCaseRecord, FlagChange, FlagEventRecord, FlagRecord } from '../src/flags/store.ts';
import type { Store } from '../src/store.ts';
import type { FlagStatus } from '@svc/domain';
import type { OpenStore } from './open-store.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const turn = { tool_calls: [], knowledge: [], tokens: { input: 1, output: 2 } };

/** What every Store must do with flags, their events and their eval cases (run against each implementation). */
export function describeFlagsStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: flags`, () => {
    let store: Store;
    let ids = 0;
    beforeEach(async () => {
      store = await open();
      await store.users.create({ id: 'usr_ada', email: 'ada@example.com', createdAt: at(0) });
      for (const [id, slug] of [
        ['ws_1', 'acme'],
        ['ws_2', 'globex'],
      ] as const)
        await store.workspaces.createWithOwner({ id, slug, name: null, createdAt: at(0) }, 'usr_ada');
      for (const ws of ['ws_1', 'ws_2'])
        await store.versions.create({
          id: `ver_${ws}`,
          workspaceId: ws,
          contentHash: 'sha256:a',
          files: {},
          gitCommit: null,
          gitBranch: null,
          authorId: 'usr_ada',
          createdAt: at(0),
        });
      // Version 2 of ws_1, published after its replies were given: the version whose runs fix their flags.
      await store.versions.create({
        id: 'ver_ws_1_2',
        workspaceId: 'ws_1',
        contentHash: 'sha256:b',
        files: {},
        gitCommit: null,
        gitBranch: null,
        authorId: 'usr_ada',
        createdAt: at(0),
      });
      for (const [chat, ws] of [
        ['chat_1', 'ws_1'],
        ['chat_2', 'ws_1'],
        ['chat_3', 'ws_2'],
      ] as const) {
        await store.chats.create({
          id: chat,
          workspaceId: ws,
          agent: 'support',
          environment: 'live',
          versionId: `ver_${ws}`,
          channel: 'web',
          replay: false,
          createdAt: at(1),
        });
        await store.chats.addMessages([
          { id: `${chat}_v`, chatId: chat, role: 'visitor', text: 'hi', trace: null, createdAt: at(1) },
          { id: `${chat}_a`, chatId: chat, role: 'agent', text: 'hello', trace: { tokens: { input: 1, output: 2 } }, createdAt: at(1) },
        ]);
      }
    });
    afterEach(() => store.close());

    /** The workspace's flags in a state, on one page as long as the longest list. */
    const listed = async (workspaceId: string, status: FlagStatus | 'all') =>
      (await store.flags.list(workspaceId, { status }, { limit: 100 })).items;

    const flag = (id: string, messageId = 'chat_1_a', changes: Partial<FlagRecord> = {}): FlagRecord => ({
      id,
      workspaceId: 'ws_1',
      chatId: messageId.replace(/_[av]$/, ''),
      messageId,
      status: 'open',
      note: null,
      agent: 'support',
      environment: 'live',
      version: { id: 'ver_ws_1', number: 1 },
      channel: 'web',
      snapshot: { reply: 'hello', conversation: [{ role: 'visitor', text: 'hi', created_at: at(1) }], turn, turns: ['hi'] },
      evalCaseId: null,
      fixedByVersion: null,
      fixedAt: null,
      createdBy: 'ada@example.com',
      revision: 0,
      createdAt: at(2),
      updatedAt: at(2),
      ...changes,
    });
    const event = (flagId: string, changes: Partial<FlagEventRecord> = {}): FlagEventRecord => ({
      id: `fev_${++ids}`,
      flagId,
      actor: 'ada@example.com',
      fromStatus: null,
      toStatus: 'open',
      noteBefore: null,
      noteAfter: null,
      at: at(2),
      ...changes,
    });
    const evalCase = (id: string, flagId: string, expected = 'say hi back'): EvalCaseRecord => ({
      id,
      workspaceId: 'ws_1',
      agent: 'support',
      turns: ['hi'],
      expected,
      originFlagId: flagId,
      createdBy: null,
      createdAt: at(2),
      updatedAt: at(2),
      deletedAt: null,
    });
    const change = (flagId: string, revision: number, changes: Partial<FlagChange> = {}): FlagChange => ({
      flagId,
      revision,
      status: 'open',
      note: null,
      evalCaseId: null,
      fixedByVersion: null,
      fixedAt: null,
      updatedAt: at(3),
      event: event(flagId, { fromStatus: 'open', at: at(3) }),
      ...changes,
    });

    /** A run on `environment` of these cases whose every replay passed (or `verdict`) and was reported: complete, not finished. */
    const completeRun = async (
      id: string,
      caseIds: string[],
      environment = 'live',
      verdict: Verdict = 'pass',
      version = { id: 'ver_ws_1_2', number: 2 },
    ) => {
      const executions = caseIds.map((caseId, i) =>
        pendingExecution({ id: `${id}_exe_${i}`, runId: id, caseId, attempt: 1, agent: 'support', judge: null }),
      );
      await store.evalRuns.create(
        {
          id,
          workspaceId: 'ws_1',
          environment,
          agent: null,
          version,
          trigger: 'publish',
          repeat: 1,
          minPass: 1,
          grader: 'deterministic',
          agentModels: ['scripted'],
          status: 'queued',
          baselineRunId: null,
          skipped: [],
          createdBy: 'svc',
          createdAt: at(4),
          finishedAt: null,
          counts: newRunCounts(caseIds.length),
        },
        executions,
      );
      for (const leased of await store.evalWork.lease('runner', caseIds.length, at(4), at(9))) {
        const reported = {
          executionId: leased.id,
          leaseId: leased.leaseId!,
          verdict,
          reasoning: 'ok',
          replay: null,
          at: at(5),
        };
        await store.evalWork.report({ ...reported, tokens: { input: 0, output: 0 }, judgeTokens: { input: 0, output: 0 } });
      }
    };
    /** The change that fixes an open flag with a note by version 2 (or `version`). */
    const fix = (
      flagId: string,
      revision: number,
      note: string,
      evalCaseId: string,
      version = { id: 'ver_ws_1_2', number: 2 },
    ): FlagChange =>
      change(flagId, revision, {
        status: 'fixed',
        note,
        evalCaseId,
        fixedByVersion: version,
        fixedAt: at(6),
        updatedAt: at(6),
        event: event(flagId, { actor: 'svc', fromStatus: 'open', toStatus: 'fixed', noteBefore: note, noteAfter: note, at: at(6) }),
      });

    /** flag_1 ("say hi back", case_1) and flag_2 ("greet", case_2): open, with a note and its case. */
    const openFlagsWithCases = async () => {
      for (const [id, message, note, caseId] of [
        ['flag_1', 'chat_1_a', 'say hi back', 'case_1'],
        ['flag_2', 'chat_2_a', 'greet', 'case_2'],
      ] as const) {
        await store.flags.create(flag(id, message, { note, evalCaseId: caseId }), event(id), evalCase(caseId, id, note));
      }
    };

    it('finishes a run with its flag fixes in one transaction; a flag that moved on meanwhile leaves both unwritten', async () => {
      await openFlagsWithCases();
      await completeRun('run_1', ['case_1', 'case_2']);
      // A member edits flag_2's note after the fixes were computed from its revision 0.
      expect(await store.flags.change(change('flag_2', 0, { note: 'greet by name', evalCaseId: 'case_2' }))).toBe(true);

      expect(
        await store.evalRuns.finish('run_1', at(6), [fix('flag_1', 0, 'say hi back', 'case_1'), fix('flag_2', 0, 'greet', 'case_2')]),
      ).toBe('flag_moved');
      expect(await store.evalRuns.get('ws_1', 'run_1')).toMatchObject({ status: 'running', finishedAt: null });
      expect(await store.flags.get('ws_1', 'flag_1')).toMatchObject({ status: 'open', fixedByVersion: null, revision: 0 });
      expect(await store.flags.history('flag_1')).toHaveLength(1);

      expect(
        await store.evalRuns.finish('run_1', at(6), [
          fix('flag_1', 0, 'say hi back', 'case_1'),
          fix('flag_2', 1, 'greet by name', 'case_2'),
        ]),
      ).toBe('finished');
      expect(await store.evalRuns.get('ws_1', 'run_1')).toMatchObject({ status: 'finished', finishedAt: at(6) });
      for (const id of ['flag_1', 'flag_2']) {
        expect(await store.flags.get('ws_1', id)).toMatchObject({
          status: 'fixed',
          fixedByVersion: { id: 'ver_ws_1_2', number: 2 },
          fixedAt: at(6),
        });
        expect((await store.flags.history(id)).at(-1)).toMatchObject({ actor: 'svc', fromStatus: 'open', toStatus: 'fixed' });
      }
      expect(await store.evalRuns.finish('run_1', at(7), [])).toBe('not_finishable');
    });

    it('never fixes a flag by the version that gave its reply, in a finish or in a change', async () => {
      await openFlagsWithCases();
      const flagged = { id: 'ver_ws_1', number: 1 };
      await completeRun('run_flagged', ['case_1'], 'live', 'pass', flagged);
      expect(await store.evalRuns.finish('run_flagged', at(6), [fix('flag_1', 0, 'say hi back', 'case_1', flagged)])).toBe('flag_moved');
      expect(await store.evalRuns.get('ws_1', 'run_flagged')).toMatchObject({ status: 'running' });
      expect(await store.flags.change(fix('flag_1', 0, 'say hi back', 'case_1', flagged))).toBe(false);
      expect(await store.flags.get('ws_1', 'flag_1')).toMatchObject({ status: 'open', fixedByVersion: null, revision: 0 });
      expect(await store.flags.history('flag_1')).toHaveLength(1);
      // Finished without the fix, its pass is none the repair after a restart would fix the flag by.
      expect(await store.evalRuns.finish('run_flagged', at(6), [])).toBe('finished');
      expect(await store.evalRuns.passedWhileOpen('live', undefined, 10)).toEqual([]);
    });

    it('names the open flags whose case passed a finished run on live after they last changed, with the first such run', async () => {
      await openFlagsWithCases();
      await completeRun('run_live', ['case_1']);
      await completeRun('run_preview', ['case_2'], 'preview');
      await completeRun('run_open', ['case_2']);
      await completeRun('run_failed', ['case_2'], 'live', 'fail');
      const passed = () => store.evalRuns.passedWhileOpen('live', undefined, 10);
      expect(await passed()).toEqual([]);
      await store.evalRuns.finish('run_failed', at(5), []);
      // A failure fixes nothing.
      expect(await passed()).toEqual([]);
      await store.evalRuns.finish('run_live', at(6), []);
      await store.evalRuns.finish('run_preview', at(6), []);
      const byRun = (flagId: string, runId: string, finishedAt: string) => ({
        flagId,
        workspaceId: 'ws_1',
        runId,
        versionId: 'ver_ws_1_2',
        finishedAt,
      });
      expect(await passed()).toEqual([byRun('flag_1', 'run_live', at(6))]);
      // Changed after the run finished: what the run graded is not what the flag asks for now.
      await store.flags.change(change('flag_1', 0, { note: 'say hello back', evalCaseId: 'case_1', updatedAt: at(7) }));
      expect(await passed()).toEqual([]);
      await store.evalRuns.finish('run_open', at(8), []);
      expect(await passed()).toEqual([byRun('flag_2', 'run_open', at(8))]);
      // A page at a time, by flag id.
      await store.flags.change(change('flag_1', 1, { note: 'say hello back', evalCaseId: 'case_1', updatedAt: at(1) }));
      expect(await store.evalRuns.passedWhileOpen('live', undefined, 1)).toEqual([byRun('flag_1', 'run_live', at(6))]);
      expect(await store.evalRuns.passedWhileOpen('live', 'flag_1', 1)).toEqual([byRun('flag_2', 'run_open', at(8))]);
      expect(await store.evalRuns.passedWhileOpen('live', 'flag_2', 1)).toEqual([]);
    });

    it("reads one chat's flags, only in the chat's workspace", async () => {
      await openFlagsWithCases();
      expect((await store.flags.ofChat('ws_1', 'chat_1')).map((f) => f.id)).toEqual(['flag_1']);
      expect((await store.flags.ofChat('ws_1', 'chat_2')).map((f) => f.id)).toEqual(['flag_2']);
      expect(await store.flags.ofChat('ws_2', 'chat_1')).toEqual([]);
    });

    it("finds a message with its chat only in the chat's workspace", async () => {
      const found = await store.flags.findMessage('ws_1', 'chat_1_a');
      expect(found).toMatchObject({
        chat: { id: 'chat_1', agent: 'support', versionId: 'ver_ws_1', replay: false },
        message: { id: 'chat_1_a', role: 'agent', text: 'hello', trace: { tokens: { input: 1, output: 2 } } },
      });
      expect(await store.flags.findMessage('ws_2', 'chat_1_a')).toBeUndefined();
      expect(await store.flags.findMessage('ws_1', 'msg_unknown')).toBeUndefined();
    });

    it('creates a flag with its event and case, and reads them back', async () => {
      const created = flag('flag_1', 'chat_1_a', { note: 'say hi back', evalCaseId: 'case_1' });
      expect(await store.flags.create(created, event('flag_1'), evalCase('case_1', 'flag_1'))).toEqual({ created: true });
      expect(await store.flags.get('ws_1', 'flag_1')).toEqual(created);
      expect(await store.flags.get('ws_2', 'flag_1')).toBeUndefined();
      expect(await store.flags.workspaceOf('flag_1')).toBe('ws_1');
      expect(await store.flags.workspaceOf('flag_unknown')).toBeUndefined();
      expect(await store.flags.history('flag_1')).toMatchObject([{ flagId: 'flag_1', toStatus: 'open', fromStatus: null }]);
      expect(await store.evalCases.get('ws_1', 'case_1')).toEqual(evalCase('case_1', 'flag_1'));
      expect(await store.evalCases.get('ws_2', 'case_1')).toBeUndefined();
    });

    it('keeps one live flag per reply, whatever creates arrive at once, and names it', async () => {
      const outcomes = await Promise.all(['flag_a', 'flag_b', 'flag_c'].map((id) => store.flags.create(flag(id), event(id))));
      const created = outcomes.filter((o) => o.created);
      expect(created).toHaveLength(1);
      const winner = ['flag_a', 'flag_b', 'flag_c'][outcomes.indexOf(created[0]!)];
      expect(outcomes.filter((o) => !o.created)).toEqual([
        { created: false, flagId: winner },
        { created: false, flagId: winner },
      ]);
      expect(await listed('ws_1', 'all')).toHaveLength(1);
    });

    it('lets a removed flag be followed by a new one on the same reply', async () => {
      await store.flags.create(flag('flag_1'), event('flag_1'));
      expect(await store.flags.change(change('flag_1', 0, { status: 'removed' }))).toBe(true);
      expect(await store.flags.create(flag('flag_2', 'chat_1_a', { createdAt: at(4) }), event('flag_2'))).toEqual({ created: true });
      expect((await listed('ws_1', 'all')).map((f) => [f.id, f.status])).toEqual([
        ['flag_1', 'removed'],
        ['flag_2', 'open'],
      ]);
    });

    it('lists a workspace’s flags by state, oldest first', async () => {
      await store.flags.create(flag('flag_b', 'chat_2_a', { createdAt: at(5) }), event('flag_b'));
      await store.flags.create(flag('flag_a', 'chat_1_a', { createdAt: at(4) }), event('flag_a'));
      await store.flags.create(
        flag('flag_c', 'chat_3_a', { workspaceId: 'ws_2', version: { id: 'ver_ws_2', number: 1 } }),
        event('flag_c'),
      );
      await store.flags.change(change('flag_b', 0, { status: 'fixed', fixedByVersion: { id: 'ver_ws_1_2', number: 2 }, fixedAt: at(6) }));
      expect((await listed('ws_1', 'open')).map((f) => f.id)).toEqual(['flag_a']);
      expect(await listed('ws_1', 'fixed')).toMatchObject([
        { id: 'flag_b', fixedByVersion: { id: 'ver_ws_1_2', number: 2 }, fixedAt: at(6), revision: 1 },
      ]);
      expect((await listed('ws_1', 'all')).map((f) => f.id)).toEqual(['flag_a', 'flag_b']);
      expect(await listed('ws_1', 'removed')).toEqual([]);
    });

    it('applies a change only to the revision it was computed from, with its event and its case change', async () => {
      await store.flags.create(flag('flag_1'), event('flag_1'));
      const noted = change('flag_1', 0, {
        note: 'say hi back',
        evalCaseId: 'case_1',
        evalCase: { op: 'create', evalCase: evalCase('case_1', 'flag_1') },
      });
      expect(await store.flags.change(noted)).toBe(true);
      // The same change again was computed from revision 0: refused, nothing written.
      expect(await store.flags.change({ ...noted, event: event('flag_1') })).toBe(false);
      expect(await store.flags.history('flag_1')).toHaveLength(2);
      expect(await store.evalCases.list('ws_1')).toHaveLength(1);

      await store.flags.change(
        change('flag_1', 1, { note: 'wave', evalCaseId: 'case_1', evalCase: { op: 'update', id: 'case_1', expected: 'wave' } }),
      );
      expect(await store.evalCases.get('ws_1', 'case_1')).toMatchObject({ expected: 'wave', updatedAt: at(3), deletedAt: null });
      await store.flags.change(change('flag_1', 2, { status: 'removed', evalCase: { op: 'delete', id: 'case_1' } }));
      expect(await store.flags.get('ws_1', 'flag_1')).toMatchObject({ status: 'removed', note: null, evalCaseId: null, revision: 3 });
      expect(await store.evalCases.get('ws_1', 'case_1')).toMatchObject({ deletedAt: at(3) });
      expect(await store.evalCases.list('ws_1')).toEqual([]);
      expect((await store.flags.history('flag_1')).map((e) => e.id)).toHaveLength(4);
    });

    it('lists live eval cases, oldest first, of one agent when asked', async () => {
      await store.flags.create(flag('flag_1', 'chat_1_a', { evalCaseId: 'case_1' }), event('flag_1'), evalCase('case_1', 'flag_1'));
      await store.flags.create(flag('flag_2', 'chat_2_a', { evalCaseId: 'case_2', agent: 'sales' }), event('flag_2'), {
        ...evalCase('case_2', 'flag_2'),
        agent: 'sales',
        createdAt: at(3),
      });
      expect((await store.evalCases.list('ws_1')).map((c) => c.id)).toEqual(['case_1', 'case_2']);
      expect((await store.evalCases.list('ws_1', 'sales')).map((c) => c.id)).toEqual(['case_2']);
      expect(await store.evalCases.list('ws_2')).toEqual([]);
    });

    it('says which chats have an open flag', async () => {
      await store.flags.create(flag('flag_1', 'chat_1_a'), event('flag_1'));
      await store.flags.create(flag('flag_2', 'chat_2_a'), event('flag_2'));
      await store.flags.change(change('flag_2', 0, { status: 'removed' }));
      expect(await store.flags.openIn('ws_1', ['chat_1', 'chat_2', 'chat_3'])).toEqual(new Set(['chat_1']));
      expect(await store.flags.openIn('ws_2', ['chat_1'])).toEqual(new Set());
      expect(await store.flags.openIn('ws_1', [])).toEqual(new Set());
    });
    it('counts the open flags with a note created in a time window, and reads the oldest of them', async () => {
      await store.flags.create(flag('flag_a', 'chat_1_a', { note: 'say hi back', createdAt: at(2) }), event('flag_a'));
      await store.flags.create(flag('flag_b', 'chat_1_v', { note: null, createdAt: at(3) }), event('flag_b'));
      await store.flags.create(flag('flag_c', 'chat_2_v', { note: 'gone', status: 'removed', createdAt: at(4) }), event('flag_c'));
      await store.flags.create(flag('flag_d', 'chat_2_a', { note: 'greet by name', createdAt: at(5) }), event('flag_d'));
      await store.flags.create(
        flag('flag_e', 'chat_3_a', { workspaceId: 'ws_2', chatId: 'chat_3', note: 'other workspace', createdAt: at(5) }),
        event('flag_e'),
      );
      const window = async (after: string | null, upTo: string, limit: number) => {
        const { count, oldest } = await store.flags.createdBetween('ws_1', after, upTo, limit);
        return { count, oldest: oldest.map((f) => f.id) };
      };
      expect(await window(null, at(9), 10)).toEqual({ count: 2, oldest: ['flag_a', 'flag_d'] });
      expect(await window(null, at(9), 1)).toEqual({ count: 2, oldest: ['flag_a'] });
      expect(await window(at(2), at(9), 10)).toEqual({ count: 1, oldest: ['flag_d'] });
      expect(await window(null, at(4), 10)).toEqual({ count: 1, oldest: ['flag_a'] });
      expect(await window(at(5), at(9), 10)).toEqual({ count: 0, oldest: [] });
    });
  });
}
