import type { Verdict } from '@svc/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gradeRun } from '../src/evals/results.ts';
import { type EvalRunRecord, newRunCounts } from '../src/evals/store.ts';
import type { Store } from '../src/store.ts';
import type { OpenStore } from './open-store.ts';
import { evalsWorkspace, startEvalRun } from './records.ts';

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

/**
 * What every Store must keep of a run's counts as its results land: exactly what grading its executions, overrides
 * and baseline gives (`gradeRun`), after every report and every person's verdict, here and in the runs compared with it.
 */
export function describeEvalCountsStoreContract(name: string, open: OpenStore): void {
  describe(`${name} store contract: eval run counts`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
      await evalsWorkspace(store, ['c1', 'c2', 'c3', 'c4', 'c5'], at(1));
    });
    afterEach(() => store.close());

    const startRun = (id: string, cases: string[], changes: Partial<EvalRunRecord> = {}) => startEvalRun(store, id, cases, at(2), changes);

    let leases = 0;
    /**
     * Leases every open execution of the run and reports them with these verdicts, by `<case>_<attempt>`, all at once;
     * the others' leases expire before the next call.
     */
    async function report(runId: string, verdicts: Record<string, Verdict>): Promise<void> {
      leases += 1;
      const leased = await store.evalWork.lease('runner', 100, at(10 + 2 * leases), at(11 + 2 * leases));
      await Promise.all(
        leased
          .filter((e) => e.runId === runId && `${e.caseId}_${e.attempt}` in verdicts)
          .map((e) =>
            store.evalWork.report({
              executionId: e.id,
              leaseId: e.leaseId!,
              verdict: verdicts[`${e.caseId}_${e.attempt}`]!,
              reasoning: 'graded',
              tokens: { input: e.attempt, output: 10 * e.attempt },
              judgeTokens: { input: 0, output: 0 },
              replay: null,
              at: at(4),
            }),
          ),
      );
    }

    /** The run's counts as grading its executions gives them, against its baseline graded the same way. */
    async function derived(runId: string): Promise<EvalRunRecord['counts']> {
      const run = (await store.evalRuns.find(runId))!;
      const baseline = new Map<string, Verdict>();
      if (run.baselineRunId) {
        const base = (await store.evalRuns.find(run.baselineRunId))!;
        const graded = gradeRun(base, await store.evalRuns.executions(base.id), await store.evalRuns.overrides(base.id), new Map());
        for (const result of graded.results) baseline.set(result.case_id, result.verdict);
      }
      return gradeRun(run, await store.evalRuns.executions(runId), await store.evalRuns.overrides(runId), baseline).counts;
    }

    const kept = async (runId: string) => (await store.evalRuns.find(runId))!.counts;

    it('keeps each run’s counts as grading its replays, overrides and baseline gives them, report by report', async () => {
      await startRun('run_base', ['c1', 'c2', 'c3', 'c4', 'c5']);
      await report('run_base', { c1_1: 'pass', c2_1: 'pass', c3_1: 'fail', c4_1: 'pass', c5_1: 'error' });
      expect(await kept('run_base')).toEqual({
        cases: 5,
        done: 5,
        passed: 3,
        failed: 1,
        errors: 1,
        regressions: 0,
        tokens: { input: 5, output: 50 },
      });
      expect(await kept('run_base')).toEqual(await derived('run_base'));
      expect(await store.evalRuns.finish('run_base', at(5), [])).toBe('finished');
      // The run that fixes a case's flag passed it, on the flag's version, by the time it was fixed.
      expect(await store.evalRuns.fixing('ws_1', 'live', 'c1', 'ver_1', at(5))).toBe('run_base');
      expect(await store.evalRuns.fixing('ws_1', 'live', 'c1', 'ver_1', at(4))).toBeUndefined();
      expect(await store.evalRuns.fixing('ws_1', 'live', 'c3', 'ver_1', at(5))).toBeUndefined();
      expect(await store.evalRuns.fixing('ws_1', 'preview', 'c1', 'ver_1', at(5))).toBeUndefined();

      const cases = ['c1', 'c2', 'c3', 'c4', 'c5'];
      await startRun('run_pr', cases, { environment: 'preview', repeat: 3, minPass: 2, baselineRunId: 'run_base' });
      expect(await kept('run_pr')).toEqual(newRunCounts(5));
      // The cases a run replays, read from its results, only in its workspace.
      expect((await store.evalCases.ofRun('ws_1', 'run_pr')).map((c) => c.id).sort()).toEqual(cases);
      expect(await store.evalCases.ofRun('ws_2', 'run_pr')).toEqual([]);
      const baselines = (c2: Verdict) => new Map<string, Verdict>(Object.entries({ c1: 'pass', c2, c3: 'fail', c4: 'pass', c5: 'error' }));
      expect(await store.evalRuns.baselineVerdicts('run_pr')).toEqual(baselines('pass'));
      // A case counts once every replay of it is done.
      await report('run_pr', { c1_1: 'pass', c1_2: 'fail', c2_1: 'fail', c5_1: 'error' });
      expect(await kept('run_pr')).toMatchObject({ done: 0, tokens: { input: 5, output: 50 } });
      expect(await kept('run_pr')).toEqual(await derived('run_pr'));
      await report('run_pr', {
        ...{ c1_3: 'pass', c2_2: 'pass', c2_3: 'fail', c5_2: 'error' },
        ...{ c3_1: 'fail', c3_2: 'fail', c3_3: 'fail', c4_1: 'fail', c4_2: 'fail', c4_3: 'fail' },
      });
      // c1 passes 2 of 3; c2 fails flaky (a replay passed), so it is no regression; c3 failed in the baseline too; c4
      // passed there: a regression.
      expect(await kept('run_pr')).toMatchObject({ done: 4, passed: 1, failed: 3, errors: 0, regressions: 1 });
      expect(await kept('run_pr')).toEqual(await derived('run_pr'));
      await report('run_pr', { c5_3: 'error' });
      expect(await kept('run_pr')).toMatchObject({ done: 5, errors: 1 });
      expect(await kept('run_pr')).toEqual(await derived('run_pr'));

      // A person confirms c2's flaky failure: a regression now. Then passes c3.
      await store.evalRuns.override('run_pr', 'c2', { runId: 'run_pr', caseId: 'c2', verdict: 'fail', by: 'ada@example.com', at: at(6) });
      expect(await kept('run_pr')).toMatchObject({ failed: 3, regressions: 2 });
      await store.evalRuns.override('run_pr', 'c3', { runId: 'run_pr', caseId: 'c3', verdict: 'pass', by: 'ada@example.com', at: at(6) });
      expect(await kept('run_pr')).toMatchObject({ passed: 2, failed: 2, regressions: 2 });
      expect(await kept('run_pr')).toEqual(await derived('run_pr'));

      // A person's verdict in the baseline moves the runs compared with it: c2 failed there after all.
      await store.evalRuns.override('run_base', 'c2', {
        runId: 'run_base',
        caseId: 'c2',
        verdict: 'fail',
        by: 'ada@example.com',
        at: at(7),
      });
      expect(await kept('run_base')).toMatchObject({ passed: 2, failed: 2 });
      expect(await kept('run_pr')).toMatchObject({ regressions: 1 });
      expect(await store.evalRuns.baselineVerdicts('run_pr')).toEqual(baselines('fail'));
      for (const id of ['run_base', 'run_pr']) expect(await kept(id)).toEqual(await derived(id));

      // Given back to the graders, everything is as it was graded.
      await store.evalRuns.override('run_base', 'c2', null);
      await store.evalRuns.override('run_pr', 'c2', null);
      await store.evalRuns.override('run_pr', 'c3', null);
      expect(await kept('run_pr')).toMatchObject({ passed: 1, failed: 3, errors: 1, regressions: 1 });
      for (const id of ['run_base', 'run_pr']) expect(await kept(id)).toEqual(await derived(id));
    });

    it('counts a cancelled run’s done cases only, and its tokens', async () => {
      await startRun('run_1', ['c1', 'c2', 'c3'], { repeat: 2 });
      await report('run_1', { c1_1: 'pass', c1_2: 'pass', c2_1: 'fail' });
      expect(await store.evalRuns.cancel('ws_1', 'run_1', at(5))).toBe(true);
      expect(await kept('run_1')).toEqual({ ...newRunCounts(3), done: 1, passed: 1, tokens: { input: 4, output: 40 } });
      expect(await kept('run_1')).toEqual(await derived('run_1'));
    });
  });
}
