import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EvalExecutionRecord, type EvalRunRecord, type ExecutionReport, pendingExecution, newRunCounts } from '../src/evals/store.ts';
import type { EvalCaseRecord } from '../src/flags/store.ts';
import type { Page } from '../src/platform/page.ts';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';

const at = (minute: number, second = 0) => `2026-01-01T00:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')}.000Z`;
const trace = { tool_calls: [], knowledge: [], tokens: { input: 3, output: 4 } };

/** What every Store must do with eval cases, runs, their executions, leases and overrides (run against each implementation). */
export function describeEvalsStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: evals`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
      await store.users.create({ id: 'usr_ada', email: 'ada@example.com', createdAt: at(0) });
      for (const [id, slug] of [
        ['ws_1', 'acme'],
        ['ws_2', 'globex'],
      ] as const) {
        await store.workspaces.createWithOwner({ id, slug, name: null, createdAt: at(0) }, 'usr_ada');
        await store.versions.create({
          id: `ver_${id}`,
          workspaceId: id,
          contentHash: 'sha256:a',
          files: {},
          gitCommit: null,
          gitBranch: null,
          authorId: 'usr_ada',
          createdAt: at(0),
        });
      }
    });
    afterEach(() => store.close());

    const evalCase = (id: string, changes: Partial<EvalCaseRecord> = {}): EvalCaseRecord => ({
      id,
      workspaceId: 'ws_1',
      agent: 'support',
      turns: ['hi', 'where is my order?'],
      expected: 'asks for the "order number"',
      originFlagId: null,
      createdBy: 'ada@example.com',
      createdAt: at(1),
      updatedAt: at(1),
      deletedAt: null,
      ...changes,
    });
    const run = (id: string, changes: Partial<EvalRunRecord> = {}): EvalRunRecord => ({
      id,
      workspaceId: 'ws_1',
      environment: 'preview',
      agent: null,
      version: { id: 'ver_ws_1', number: 1 },
      trigger: 'manual',
      repeat: 1,
      minPass: 1,
      grader: 'deterministic',
      agentModels: ['openai:gpt-4.1-mini'],
      status: 'queued',
      baselineRunId: null,
      skipped: [],
      createdBy: 'ada@example.com',
      createdAt: at(2),
      finishedAt: null,
      counts: newRunCounts(0),
      ...changes,
    });
    const execution = (id: string, runId: string, caseId: string, attempt = 1): EvalExecutionRecord =>
      pendingExecution({ id, runId, caseId, attempt, agent: 'support', judge: null });
    /** A run of `count` cases (made here) replayed once each; its executions are `<run>_<n>`. */
    const startRun = async (id: string, count: number, changes: Partial<EvalRunRecord> = {}) => {
      const cases = Array.from({ length: count }, (_, i) => evalCase(`${id}_case_${i}`, { workspaceId: changes.workspaceId ?? 'ws_1' }));
      for (const c of cases) await store.evalCases.create(c);
      const executions = cases.map((c, i) => execution(`${id}_${String(i).padStart(3, '0')}`, id, c.id));
      await store.evalRuns.create(run(id, changes), executions);
      return executions.map((e) => e.id);
    };
    const report = (leased: EvalExecutionRecord, changes: Partial<ExecutionReport> = {}): ExecutionReport => ({
      executionId: leased.id,
      leaseId: leased.leaseId ?? 'lease_none',
      verdict: 'pass',
      reasoning: 'It asked for the order number.',
      tokens: { input: 10, output: 20 },
      judgeTokens: { input: 0, output: 0 },
      replay: null,
      at: at(9),
      ...changes,
    });

    describe('cases', () => {
      it('creates, reads, changes and lists cases made by hand, oldest first, of one agent when asked', async () => {
        await store.evalCases.create(evalCase('case_b', { createdAt: at(2), updatedAt: at(2) }));
        await store.evalCases.create(evalCase('case_a', { agent: 'sales' }));
        await store.evalCases.create(evalCase('case_c', { workspaceId: 'ws_2' }));
        expect(await store.evalCases.get('ws_1', 'case_b')).toEqual(evalCase('case_b', { createdAt: at(2), updatedAt: at(2) }));
        expect(await store.evalCases.get('ws_2', 'case_b')).toBeUndefined();
        const many = await store.evalCases.getMany('ws_1', ['case_a', 'case_b', 'case_c', 'case_unknown']);
        expect(many.map((c) => c.id).sort()).toEqual(['case_a', 'case_b']);
        expect(many.find((c) => c.id === 'case_b')).toEqual(evalCase('case_b', { createdAt: at(2), updatedAt: at(2) }));
        expect(await store.evalCases.getMany('ws_2', [])).toEqual([]);
        expect((await store.evalCases.list('ws_1')).map((c) => c.id)).toEqual(['case_a', 'case_b']);
        expect((await store.evalCases.list('ws_1', 'sales')).map((c) => c.id)).toEqual(['case_a']);

        const change = { agent: 'sales', turns: ['hello', 'refund please'], expected: 'offers a "refund"', updatedAt: at(5) };
        expect(await store.evalCases.update('ws_1', 'case_b', change)).toBe(true);
        expect(await store.evalCases.get('ws_1', 'case_b')).toEqual({ ...evalCase('case_b', { createdAt: at(2) }), ...change });
        expect((await store.evalCases.list('ws_1', 'sales')).map((c) => c.id)).toEqual(['case_a', 'case_b']);
        // Another workspace's case, or one that does not exist, is not changed.
        expect(await store.evalCases.update('ws_1', 'case_c', change)).toBe(false);
        expect(await store.evalCases.update('ws_1', 'case_unknown', change)).toBe(false);
        expect((await store.evalCases.get('ws_2', 'case_c'))?.agent).toBe('support');
      });

      it('removes a case softly: gone from lists and changes, still readable by the runs that used it', async () => {
        await store.evalCases.create(evalCase('case_1'));
        expect(await store.evalCases.remove('ws_2', 'case_1', at(3))).toBe(false);
        expect(await store.evalCases.remove('ws_1', 'case_1', at(3))).toBe(true);
        expect(await store.evalCases.remove('ws_1', 'case_1', at(4))).toBe(false);
        expect(await store.evalCases.get('ws_1', 'case_1')).toEqual(evalCase('case_1', { deletedAt: at(3), updatedAt: at(3) }));
        expect(await store.evalCases.getMany('ws_1', ['case_1'])).toEqual([evalCase('case_1', { deletedAt: at(3), updatedAt: at(3) })]);
        expect(await store.evalCases.list('ws_1')).toEqual([]);
        expect(await store.evalCases.update('ws_1', 'case_1', { agent: 'support', turns: ['x'], expected: 'y', updatedAt: at(5) })).toBe(
          false,
        );
      });
    });

    describe('runs', () => {
      it('creates a run with its pending executions and reads them back', async () => {
        const skipped = [{ caseId: 'case_x', agent: 'billing' }];
        const ids = await startRun('run_1', 2, { repeat: 1, skipped, baselineRunId: 'run_0', agent: 'support' });
        expect(await store.evalRuns.get('ws_1', 'run_1')).toEqual(run('run_1', { skipped, baselineRunId: 'run_0', agent: 'support' }));
        expect(await store.evalRuns.get('ws_2', 'run_1')).toBeUndefined();
        expect(await store.evalRuns.get('ws_1', 'run_unknown')).toBeUndefined();
        // Runners serve every workspace: they find a run by its id alone.
        expect(await store.evalRuns.find('run_1')).toEqual(await store.evalRuns.get('ws_1', 'run_1'));
        expect(await store.evalRuns.find('run_unknown')).toBeUndefined();
        expect(await store.evalRuns.executions('run_1')).toEqual([
          execution(ids[0]!, 'run_1', 'run_1_case_0'),
          execution(ids[1]!, 'run_1', 'run_1_case_1'),
        ]);
        expect(await store.evalRuns.overrides('run_1')).toEqual([]);
      });

      it('lists a workspace’s runs newest first, of one environment when asked, page after page', async () => {
        await store.evalCases.create(evalCase('case_1'));
        const runs = [
          ['run_a', 'preview', at(2)],
          ['run_c', 'live', at(3)],
          ['run_b', 'live', at(3)],
          ['run_d', 'preview', at(4)],
        ] as const;
        for (const [id, environment, createdAt] of runs)
          await store.evalRuns.create(run(id, { environment, createdAt }), [execution(`${id}_1`, id, 'case_1')]);
        await store.evalRuns.create(run('run_other', { workspaceId: 'ws_2', version: { id: 'ver_ws_2', number: 1 } }), []);

        const ids = (page: Page<EvalRunRecord>) => ({ ids: page.items.map((r) => r.id), more: page.more });
        expect(ids(await store.evalRuns.list('ws_1', undefined, { limit: 10 }))).toEqual({
          ids: ['run_d', 'run_c', 'run_b', 'run_a'],
          more: false,
        });
        expect(ids(await store.evalRuns.list('ws_1', 'live', { limit: 10 }))).toEqual({ ids: ['run_c', 'run_b'], more: false });
        expect(ids(await store.evalRuns.list('ws_1', 'staging', { limit: 10 }))).toEqual({ ids: [], more: false });
        // Two runs share a creation time: the id orders them, and a page ends between them without losing one.
        const first = await store.evalRuns.list('ws_1', undefined, { limit: 2 });
        expect(ids(first)).toEqual({ ids: ['run_d', 'run_c'], more: true });
        const last = first.items.at(-1)!;
        const second = await store.evalRuns.list('ws_1', undefined, { limit: 2, after: { key: last.createdAt, id: last.id } });
        expect(ids(second)).toEqual({ ids: ['run_b', 'run_a'], more: false });
        expect(ids(await store.evalRuns.list('ws_1', 'live', { limit: 1, after: { key: at(3), id: 'run_c' } }))).toEqual({
          ids: ['run_b'],
          more: false,
        });
        expect(ids(await store.evalRuns.list('ws_2', undefined, { limit: 10 }))).toEqual({ ids: ['run_other'], more: false });
      });

      it('names the latest finished run of an environment by finish time, never a running or cancelled one', async () => {
        expect(await store.evalRuns.latestFinished('ws_1', 'live')).toBeUndefined();
        // run_old started first but finishes last; run_new finishes first.
        const [old] = await startRun('run_old', 1, { environment: 'live', createdAt: at(2) });
        const [recent] = await startRun('run_new', 1, { environment: 'live', createdAt: at(3) });
        await startRun('run_running', 1, { environment: 'live', createdAt: at(4) });
        await startRun('run_cancelled', 1, { environment: 'live', createdAt: at(5) });
        await startRun('run_preview', 1, { environment: 'preview', createdAt: at(6) });
        const leased = await store.evalWork.lease('runner_a', 10, at(7), at(8));
        const held = (id: string | undefined) => leased.find((e) => e.id === id)!;
        await store.evalRuns.cancel('ws_1', 'run_cancelled', at(8));
        expect(await store.evalWork.report(report(held(recent), { at: at(8) }))).toEqual({
          accepted: true,
          runId: 'run_new',
          runComplete: true,
        });
        expect(await store.evalRuns.latestFinished('ws_1', 'live')).toBeUndefined();
        expect(await store.evalRuns.finish('run_new', at(8), [])).toBe('finished');
        expect((await store.evalRuns.latestFinished('ws_1', 'live'))?.id).toBe('run_new');
        expect(await store.evalWork.report(report(held(old), { at: at(9) }))).toEqual({
          accepted: true,
          runId: 'run_old',
          runComplete: true,
        });
        expect(await store.evalRuns.finish('run_old', at(9), [])).toBe('finished');
        expect(await store.evalRuns.latestFinished('ws_1', 'live')).toMatchObject({ id: 'run_old', status: 'finished', finishedAt: at(9) });
        expect(await store.evalRuns.latestFinished('ws_1', 'preview')).toBeUndefined();
        expect(await store.evalRuns.latestFinished('ws_2', 'live')).toBeUndefined();
      });

      it('sets, replaces and clears a person’s verdict on a case of a run', async () => {
        await startRun('run_1', 2);
        const ada = { runId: 'run_1', caseId: 'run_1_case_0', verdict: 'pass', by: 'ada@example.com', at: at(5) } as const;
        await store.evalRuns.override('run_1', 'run_1_case_0', ada);
        await store.evalRuns.override('run_1', 'run_1_case_1', { ...ada, caseId: 'run_1_case_1', verdict: 'fail' });
        expect(await store.evalRuns.overrides('run_1')).toEqual([ada, { ...ada, caseId: 'run_1_case_1', verdict: 'fail' }]);
        const bob = { ...ada, verdict: 'fail', by: 'bob@example.com', at: at(6) } as const;
        await store.evalRuns.override('run_1', 'run_1_case_0', bob);
        await store.evalRuns.override('run_1', 'run_1_case_1', null);
        expect(await store.evalRuns.overrides('run_1')).toEqual([bob]);
        // Clearing what is not set changes nothing.
        await store.evalRuns.override('run_1', 'run_1_case_1', null);
        expect(await store.evalRuns.overrides('run_1')).toEqual([bob]);
      });
    });

    describe('reviews', () => {
      /** A run of cases replayed twice, each replay reported with the verdict given, graded by `judge`. */
      const reviewedRun = async (id: string, workspaceId: string, judge: string | null, verdicts: ('pass' | 'fail' | 'error')[][]) => {
        const cases = verdicts.map((_, i) => evalCase(`${id}_case_${i}`, { workspaceId }));
        for (const c of cases) await store.evalCases.create(c);
        const executions = cases.flatMap((c, i) =>
          [1, 2].map((attempt) =>
            pendingExecution({ id: `${id}_${i}_${attempt}`, runId: id, caseId: c.id, attempt, agent: 'support', judge }),
          ),
        );
        await store.evalRuns.create(run(id, { workspaceId, repeat: 2, minPass: 1 }), executions);
        const leased = await store.evalWork.lease('runner_a', executions.length, at(3), at(4));
        for (const e of leased) {
          const [, i, attempt] = e.id.slice(id.length).split('_').map(Number);
          await store.evalWork.report(report(e, { verdict: verdicts[i!]![attempt! - 1]! }));
        }
        return cases.map((c) => c.id);
      };
      const verdict = (runId: string, caseId: string, person: 'pass' | 'fail', at: string) =>
        store.evalRuns.override(runId, caseId, { runId, caseId, verdict: person, by: 'ada@example.com', at });
      const tallies = async (workspaceId: string, sinceDay: string) => {
        const order = (t: { judge: string | null; graded: string; person: string }) => `${t.judge ?? ''} ${t.graded} ${t.person}`;
        return (await store.evalRuns.reviewTallies(workspaceId, sinceDay)).sort((a, b) => (order(a) < order(b) ? -1 : 1));
      };
      const judge = 'anthropic:claude-sonnet-4-6';

      it("tallies the workspace's reviews from a UTC day on, by grader and both verdicts; a verdict replaced or taken back takes its review away", async () => {
        // The third case of run_j is never reviewed: it is not counted.
        const [split, errored] = await reviewedRun('run_j', 'ws_1', judge, [
          ['pass', 'fail'],
          ['error', 'error'],
          ['fail', 'fail'],
        ]);
        const [confirmed, again, overturned, early] = await reviewedRun('run_d', 'ws_1', null, [
          ['pass', 'pass'],
          ['pass', 'fail'],
          ['fail', 'fail'],
          ['fail', 'pass'],
        ]);
        const [elsewhere] = await reviewedRun('run_x', 'ws_2', null, [['pass', 'pass']]);
        await verdict('run_j', split!, 'fail', '2026-01-03T23:59:59.999Z');
        // The grader could not grade it: a person's verdict there is no review of the grader.
        await verdict('run_j', errored!, 'pass', '2026-01-03T00:00:00.000Z');
        await verdict('run_d', confirmed!, 'pass', '2026-01-03T00:00:00.000Z');
        await verdict('run_d', again!, 'pass', '2026-01-04T12:00:00.000Z');
        await verdict('run_d', overturned!, 'pass', '2026-01-04T12:00:00.000Z');
        await verdict('run_d', early!, 'fail', '2026-01-02T23:59:59.999Z');
        await verdict('run_x', elsewhere!, 'fail', '2026-01-03T12:00:00.000Z');
        expect(await tallies('ws_1', '2026-01-03')).toEqual([
          { judge: null, graded: 'fail', person: 'pass', reviews: 1 },
          { judge: null, graded: 'pass', person: 'pass', reviews: 2 },
          { judge, graded: 'pass', person: 'fail', reviews: 1 },
        ]);
        expect(await tallies('ws_1', '2026-01-02')).toContainEqual({ judge: null, graded: 'pass', person: 'fail', reviews: 1 });

        // A verdict taken back is no review; one given again counts on the day it was given, once.
        await store.evalRuns.override('run_d', confirmed!, null);
        await verdict('run_d', early!, 'pass', '2026-01-05T00:00:00.000Z');
        await verdict('run_d', early!, 'pass', '2026-01-05T08:00:00.000Z');
        expect(await tallies('ws_1', '2026-01-01')).toEqual([
          { judge: null, graded: 'fail', person: 'pass', reviews: 1 },
          { judge: null, graded: 'pass', person: 'pass', reviews: 2 },
          { judge, graded: 'pass', person: 'fail', reviews: 1 },
        ]);
        expect(await tallies('ws_1', '2026-01-05')).toEqual([{ judge: null, graded: 'pass', person: 'pass', reviews: 1 }]);
        expect(await tallies('ws_2', '2026-01-04')).toEqual([]);
      });
    });

    describe('leases', () => {
      it('leases pending executions with a fresh lease id each, and the run starts running', async () => {
        const ids = await startRun('run_1', 3);
        const leased = await store.evalWork.lease('runner_a', 2, at(3), at(4));
        expect(leased).toHaveLength(2);
        for (const e of leased) {
          expect(ids).toContain(e.id);
          expect(e).toMatchObject({ runId: 'run_1', status: 'leased', leaseOwner: 'runner_a', leaseUntil: at(4), agent: 'support' });
        }
        expect(new Set(leased.map((e) => e.leaseId)).size).toBe(2);
        expect((await store.evalRuns.get('ws_1', 'run_1'))?.status).toBe('running');
        const rest = await store.evalWork.lease('runner_b', 5, at(3), at(4));
        expect(rest.map((e) => e.id)).toEqual(ids.filter((id) => !leased.some((e) => e.id === id)));
        // Every lease is still held: nothing more to give.
        expect(await store.evalWork.lease('runner_c', 5, at(3, 59), at(5))).toEqual([]);
        expect((await store.evalRuns.executions('run_1')).map((e) => e.status)).toEqual(['leased', 'leased', 'leased']);
      });

      it('replays every case of a run once before any case a second time, and reads replays by case (oldest first) and attempt', async () => {
        await store.evalCases.create(evalCase('case_a', { createdAt: at(1, 30) }));
        await store.evalCases.create(evalCase('case_b'));
        const executions = ['case_b', 'case_a'].flatMap((caseId) =>
          [3, 1, 2].map((attempt) => execution(`exe_${caseId}_${attempt}`, 'run_1', caseId, attempt)),
        );
        await store.evalRuns.create(run('run_1', { repeat: 3, minPass: 2 }), executions);
        expect((await store.evalRuns.executions('run_1')).map((e) => e.id)).toEqual([
          'exe_case_b_1',
          'exe_case_b_2',
          'exe_case_b_3',
          'exe_case_a_1',
          'exe_case_a_2',
          'exe_case_a_3',
        ]);
        // Never leased: nothing to report with.
        expect(await store.evalWork.report(report(executions[0]!))).toEqual({ accepted: false });
        const first = await store.evalWork.lease('runner_a', 3, at(3), at(4));
        expect(first.map((e) => [e.caseId, e.attempt])).toEqual([
          ['case_a', 1],
          ['case_b', 1],
          ['case_a', 2],
        ]);
      });

      it('never gives one execution to two leases asked for at once', async () => {
        const ids = await startRun('run_1', 12);
        await startRun('run_2', 7, { createdAt: at(3) });
        const batches = await Promise.all(
          ['runner_a', 'runner_b', 'runner_c', 'runner_d'].map((owner) => store.evalWork.lease(owner, 6, at(4), at(5))),
        );
        const leased = batches.flat().map((e) => e.id);
        expect(leased).toHaveLength(19);
        expect(new Set(leased).size).toBe(19);
        expect(leased).toEqual(expect.arrayContaining(ids));
        for (const [i, batch] of batches.entries())
          expect(batch.every((e) => e.leaseOwner === ['runner_a', 'runner_b', 'runner_c', 'runner_d'][i])).toBe(true);
      });

      it('takes turns across runs: a small run started later is not stuck behind a large one', async () => {
        await startRun('run_big', 100, { createdAt: at(2) });
        const small = await startRun('run_small', 5, { createdAt: at(3) });
        // Runners serve every workspace: another one's run takes its turn too.
        await startRun('run_other', 1, { createdAt: at(4), workspaceId: 'ws_2', version: { id: 'ver_ws_2', number: 1 } });
        const first = await store.evalWork.lease('runner_a', 3, at(5), at(6));
        expect(first.map((e) => e.runId)).toEqual(['run_big', 'run_small', 'run_other']);
        // Within the next rounds every execution of the small run is handed out.
        const next = await store.evalWork.lease('runner_a', 8, at(5), at(6));
        expect(next.filter((e) => e.runId === 'run_small')).toHaveLength(4);
        expect([...first, ...next].filter((e) => e.runId === 'run_small').map((e) => e.id)).toEqual(small);
        const after = await store.evalWork.lease('runner_a', 8, at(5), at(6));
        expect(after.map((e) => e.runId)).toEqual(Array(8).fill('run_big'));
      });

      it('shares a runner’s slots across runs when it leases one execution at a time as each slot frees', async () => {
        await startRun('run_big', 100, { createdAt: at(2) });
        // A runner with two slots fills them before the small run starts.
        const held = await store.evalWork.lease('runner_a', 2, at(3), at(9));
        expect(held.map((e) => e.runId)).toEqual(['run_big', 'run_big']);
        const small = await startRun('run_small', 5, { createdAt: at(3) });
        const leasedSmall: string[] = [];
        for (let slot = 0; slot < 12; slot++) {
          const done = held.shift()!;
          await store.evalWork.report(report(done, { at: at(4) }));
          const [next] = await store.evalWork.lease('runner_a', 1, at(4), at(9));
          held.push(next!);
          if (next!.runId === 'run_small') leasedSmall.push(next!.id);
        }
        // Every other slot that freed went to the small run, until it had none left.
        expect(leasedSmall).toEqual(small);
      });

      it('takes turns across lease requests too: the run with fewer executions under lease gets the next one', async () => {
        await startRun('run_big', 20, { createdAt: at(2) });
        await startRun('run_small', 3, { createdAt: at(3) });
        // A runner asks for one execution each time a slot frees.
        const next = async () => (await store.evalWork.lease('runner_a', 1, at(4), at(5))).map((e) => e.runId);
        const order = [...(await next()), ...(await next()), ...(await next()), ...(await next())];
        expect(order).toEqual(['run_big', 'run_small', 'run_big', 'run_small']);
        // An expired lease is under lease no more: its run counts as having none.
        const later = await store.evalWork.lease('runner_b', 3, at(5, 1), at(7));
        expect(later.map((e) => e.runId)).toEqual(['run_big', 'run_small', 'run_big']);
      });

      it('grants an expired lease again with a new lease id, and refuses the old holder’s report', async () => {
        const [id] = await startRun('run_1', 1);
        const [old] = await store.evalWork.lease('runner_a', 1, at(3), at(4));
        expect(old?.reclaimed).toBe(false);
        // Still held just before it expires.
        expect(await store.evalWork.lease('runner_b', 1, at(3, 59), at(6))).toEqual([]);
        const [again] = await store.evalWork.lease('runner_b', 1, at(4, 1), at(6));
        // Taken back from the runner whose lease expired.
        expect(again).toMatchObject({ id, leaseOwner: 'runner_b', leaseUntil: at(6), status: 'leased', reclaimed: true });
        expect(again!.leaseId).not.toBe(old!.leaseId);
        expect(await store.evalWork.report(report(old!, { verdict: 'fail' }))).toEqual({ accepted: false });
        expect(await store.evalWork.report(report(again!))).toEqual({ accepted: true, runId: 'run_1', runComplete: true });
        expect(await store.evalRuns.executions('run_1')).toMatchObject([{ id, status: 'done', verdict: 'pass', leaseOwner: 'runner_b' }]);
      });

      it('counts the executions of open runs waiting for a runner, an expired lease’s among them, and those under a lease that holds', async () => {
        expect(await store.evalWork.backlog(at(3))).toEqual({ queued: 0, leased: 0 });
        await startRun('run_1', 4);
        const leased = await store.evalWork.lease('runner_a', 2, at(3), at(4));
        expect(await store.evalWork.backlog(at(3))).toEqual({ queued: 2, leased: 2 });
        await store.evalWork.report(report(leased[0]!, { at: at(3) }));
        // A cancelled run's executions wait for nobody.
        await startRun('run_2', 2, { createdAt: at(3) });
        expect(await store.evalRuns.cancel('ws_1', 'run_2', at(3))).toBe(true);
        expect(await store.evalWork.backlog(at(3))).toEqual({ queued: 2, leased: 1 });
        // Past the leases' end, what they held waits for a runner again.
        expect(await store.evalWork.backlog(at(4, 1))).toEqual({ queued: 3, leased: 0 });
      });

      it('accepts the report of an expired lease that nobody was granted since', async () => {
        await startRun('run_1', 1);
        const [leased] = await store.evalWork.lease('runner_a', 1, at(3), at(4));
        expect(await store.evalWork.report(report(leased!, { at: at(7) }))).toEqual({ accepted: true, runId: 'run_1', runComplete: true });
        expect(await store.evalWork.lease('runner_b', 1, at(8), at(9))).toEqual([]);
      });

      it('counts a report once: the same lease reporting again is refused and changes nothing', async () => {
        await startRun('run_1', 2);
        const [leased] = await store.evalWork.lease('runner_a', 1, at(3), at(4));
        expect(await store.evalWork.report(report(leased!))).toEqual({ accepted: true, runId: 'run_1', runComplete: false });
        expect(await store.evalWork.report(report(leased!, { verdict: 'fail', reasoning: 'again' }))).toEqual({ accepted: false });
        expect(await store.evalWork.report(report(leased!, { leaseId: 'lease_forged' }))).toEqual({ accepted: false });
        expect(await store.evalWork.report(report({ ...leased!, id: 'exe_unknown' }))).toEqual({ accepted: false });
        const done = (await store.evalRuns.executions('run_1')).find((e) => e.id === leased!.id);
        expect(done).toMatchObject({
          status: 'done',
          verdict: 'pass',
          reasoning: 'It asked for the order number.',
          tokens: { input: 10, output: 20 },
          finishedAt: at(9),
        });
        expect((await store.evalRuns.get('ws_1', 'run_1'))?.status).toBe('running');
      });

      it('records the replay chat and its messages with the report, out of the inbox and the conversation count', async () => {
        await startRun('run_1', 1, { environment: 'live' });
        const [leased] = await store.evalWork.lease('runner_a', 1, at(3), at(4));
        const messages = [
          { id: 'msg_1', chatId: 'chat_replay', role: 'visitor', text: 'hi', trace: null, createdAt: at(3, 10) },
          { id: 'msg_2', chatId: 'chat_replay', role: 'agent', text: 'Your order number?', trace, createdAt: at(3, 20) },
        ] as const;
        const outcome = await store.evalWork.report(
          report(leased!, {
            judgeTokens: { input: 5, output: 6 },
            replay: { chatId: 'chat_replay', channel: 'eval', createdAt: at(3, 5), messages: [...messages] },
          }),
        );
        expect(outcome).toEqual({ accepted: true, runId: 'run_1', runComplete: true });
        expect(await store.chats.get('ws_1', 'chat_replay')).toEqual({
          id: 'chat_replay',
          workspaceId: 'ws_1',
          agent: 'support',
          environment: 'live',
          versionId: 'ver_ws_1',
          channel: 'eval',
          replay: true,
          createdAt: at(3, 5),
        });
        expect(await store.chats.messages('chat_replay')).toEqual(messages);
        expect(await store.evalRuns.executions('run_1')).toMatchObject([
          { replayChatId: 'chat_replay', tokens: { input: 10, output: 20 }, judgeTokens: { input: 5, output: 6 } },
        ]);
        expect((await store.chats.inbox('ws_1', {}, { limit: 10 })).items).toEqual([]);
        expect(await store.chats.countConversations('ws_1')).toBe(0);
      });

      it('writes nothing of a refused report, not even its replay chat', async () => {
        await startRun('run_1', 1);
        const [leased] = await store.evalWork.lease('runner_a', 1, at(3), at(4));
        const replay = { chatId: 'chat_late', channel: 'eval', createdAt: at(3), messages: [] };
        expect(await store.evalWork.report(report(leased!, { leaseId: 'lease_other', replay }))).toEqual({ accepted: false });
        expect(await store.chats.get('ws_1', 'chat_late')).toBeUndefined();
      });

      it('says the run is complete when its last executions report at the same time; it finishes once', async () => {
        await startRun('run_1', 6, { repeat: 1 });
        const leased = await store.evalWork.lease('runner_a', 6, at(3), at(4));
        expect(await store.evalWork.report(report(leased[0]!, { at: at(5) }))).toEqual({
          accepted: true,
          runId: 'run_1',
          runComplete: false,
        });
        const outcomes = await Promise.all(leased.slice(1).map((e) => store.evalWork.report(report(e, { at: at(6) }))));
        expect(outcomes.every((o) => o.accepted)).toBe(true);
        // The last to commit sees the others (on PostgreSQL, one committing at the same moment may see it too).
        expect(outcomes.filter((o) => o.accepted && o.runComplete).length).toBeGreaterThanOrEqual(1);
        expect(await store.evalRuns.get('ws_1', 'run_1')).toMatchObject({ status: 'running', finishedAt: null });
        expect(await store.evalRuns.complete()).toEqual(['run_1']);
        const finishes = await Promise.all([store.evalRuns.finish('run_1', at(6), []), store.evalRuns.finish('run_1', at(7), [])]);
        expect(finishes.sort()).toEqual(['finished', 'not_finishable']);
        expect(await store.evalRuns.get('ws_1', 'run_1')).toMatchObject({ status: 'finished' });
        expect(await store.evalRuns.complete()).toEqual([]);
        expect(await store.evalWork.lease('runner_a', 6, at(7), at(8))).toEqual([]);
      });

      it('cancels a run: nothing more is leased, held leases cannot report, and a finished run stays finished', async () => {
        await startRun('run_1', 3);
        const [held] = await store.evalWork.lease('runner_a', 1, at(3), at(4));
        expect(await store.evalRuns.cancel('ws_2', 'run_1', at(5))).toBe(false);
        expect(await store.evalRuns.cancel('ws_1', 'run_1', at(5))).toBe(true);
        expect(await store.evalRuns.cancel('ws_1', 'run_1', at(6))).toBe(false);
        expect(await store.evalRuns.get('ws_1', 'run_1')).toMatchObject({ status: 'cancelled', finishedAt: at(5) });
        expect((await store.evalRuns.executions('run_1')).map((e) => e.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
        expect(await store.evalWork.lease('runner_b', 5, at(9), at(10))).toEqual([]);
        expect(await store.evalWork.report(report(held!))).toEqual({ accepted: false });
        expect(await store.evalWork.renew([{ executionId: held!.id, leaseId: held!.leaseId! }], at(10))).toEqual([]);
        expect((await store.evalRuns.get('ws_1', 'run_1'))?.status).toBe('cancelled');

        await startRun('run_2', 1);
        const [last] = await store.evalWork.lease('runner_a', 1, at(3), at(4));
        await store.evalWork.report(report(last!));
        // Nothing is left to run: it is finishing, no longer cancellable.
        expect(await store.evalRuns.cancel('ws_1', 'run_2', at(10))).toBe(false);
        expect(await store.evalRuns.finish('run_2', at(9), [])).toBe('finished');
        expect(await store.evalRuns.cancel('ws_1', 'run_2', at(10))).toBe(false);
        expect(await store.evalRuns.finish('run_2', at(11), [])).toBe('not_finishable');
        expect(await store.evalRuns.get('ws_1', 'run_2')).toMatchObject({ status: 'finished', finishedAt: at(9) });
      });

      it('lets exactly one of a cancel and the last report arriving together take effect, whichever comes first', async () => {
        for (const [id, cancelFirst] of [
          ['run_1', false],
          ['run_2', true],
        ] as const) {
          await startRun(id, 1);
          const [held] = await store.evalWork.lease('runner_a', 1, at(4), at(5));
          const reporting = () => store.evalWork.report(report(held!, { at: at(6) }));
          const cancelling = () => store.evalRuns.cancel('ws_1', id, at(6));
          const [reported, cancelled] = cancelFirst
            ? await Promise.all([cancelling(), reporting()]).then(([c, r]) => [r, c] as const)
            : await Promise.all([reporting(), cancelling()]);
          const run = await store.evalRuns.get('ws_1', id);
          if (reported.accepted) {
            expect(reported).toEqual({ accepted: true, runId: id, runComplete: true });
            expect(cancelled).toBe(false);
            expect(run?.status).toBe('running');
            expect(await store.evalRuns.finish(id, at(7), [])).toBe('finished');
          } else {
            expect(cancelled).toBe(true);
            expect(run?.status).toBe('cancelled');
            expect(await store.evalRuns.finish(id, at(7), [])).toBe('not_finishable');
            expect((await store.evalRuns.executions(id))[0]).toMatchObject({ status: 'cancelled', verdict: null });
          }
        }
      });

      it('cancels a queued run that nothing leased yet', async () => {
        await startRun('run_1', 2);
        expect(await store.evalRuns.cancel('ws_1', 'run_1', at(3))).toBe(true);
        expect(await store.evalWork.lease('runner_a', 5, at(4), at(5))).toEqual([]);
      });

      it('renews only the leases still held', async () => {
        await startRun('run_1', 3);
        const [a, b, c] = await store.evalWork.lease('runner_a', 3, at(3), at(4));
        await store.evalWork.report(report(c!));
        const renewed = await store.evalWork.renew(
          [
            { executionId: a!.id, leaseId: a!.leaseId! },
            { executionId: b!.id, leaseId: 'lease_forged' },
            { executionId: c!.id, leaseId: c!.leaseId! },
          ],
          at(8),
        );
        expect(renewed).toEqual([a!.id]);
        // The renewed lease holds past its first deadline; the other one is granted again.
        const regranted = await store.evalWork.lease('runner_b', 3, at(5), at(9));
        expect(regranted.map((e) => e.id)).toEqual([b!.id]);
        expect(await store.evalWork.renew([{ executionId: b!.id, leaseId: b!.leaseId! }], at(10))).toEqual([]);
        expect(await store.evalWork.renew([], at(10))).toEqual([]);
        expect((await store.evalRuns.executions('run_1')).find((e) => e.id === a!.id)).toMatchObject({
          leaseUntil: at(8),
          leaseOwner: 'runner_a',
        });
      });
    });
  });
}
