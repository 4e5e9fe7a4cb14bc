import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError, type EvalResultView, type EvalRunView } from '@svc/domain';
import type { Store } from '../store.ts';
import type { EvalRunService } from './runs.ts';
import type { WorkSignal } from '../platform/work-signal.ts';

/**
 * A run's reads are shared by everyone following it on this core, and made this often at most: a hundred
 * subscribers cost the store what one does, and a burst of reports costs one read.
 */
const minReadIntervalMs = 100;
/** A report landed on another core is not heard here: a follower reads again after this long without news. */
const recheckMs = 1000;
/** Shared reads older than this are dropped when the next one starts. */
const keptMs = 10_000;

export interface RunResultEvent {
  /** The result's place in the run's order of reports: its event id, stable across cores and reads. */
  seq: number;
  result: EvalResultView;
}

export interface RunEvents {
  run: EvalRunView;
  /** The results above the cursor, in the order they landed. */
  results: RunResultEvent[];
  /** The run has ended and every result is in `results` or was before the cursor: nothing follows. */
  ended: boolean;
}

interface Snapshot {
  workspaceId: string;
  run: EvalRunView;
  /** Settled results only (no report below them can still commit), by sequence. */
  results: RunResultEvent[];
  /** Some done case's report may still be committing: the run is not over for a reader yet. */
  unsettled: boolean;
}

interface SharedRead {
  startedAt: number;
  /** The report signal's generation when the read started: it saw every report notified before. */
  generation: number;
  snapshot: Promise<Snapshot>;
}

export interface EvalRunEventsDeps {
  store: Store;
  runs: EvalRunService;
  /** Notified when a report lands or a run ends on this core. */
  reported: WorkSignal;
}

/** What a run's event stream reads: its results after a cursor, waiting for the next ones in a long poll. */
export function createEvalRunEvents({ store, runs, reported }: EvalRunEventsDeps) {
  const reads = new Map<string, SharedRead>();

  async function load(workspaceId: string, runId: string): Promise<Snapshot> {
    // First: every report below it is committed, so the executions read next include them.
    const settledBelow = await store.evalRuns.settledBelow();
    const { run, results, executions } = await runs.progress(workspaceId, runId);
    const seqOf = new Map<string, number>();
    for (const execution of executions) {
      seqOf.set(execution.caseId, Math.max(seqOf.get(execution.caseId) ?? 0, execution.reportSeq ?? 0));
    }
    const ordered = results
      .map((result) => ({ seq: seqOf.get(result.case_id) ?? 0, result }))
      .sort((a, b) => a.seq - b.seq || a.result.case_id.localeCompare(b.result.case_id));
    const settled = ordered.filter((r) => r.seq < settledBelow);
    return { workspaceId, run, results: settled, unsettled: settled.length < ordered.length };
  }

  /** A read of the run that saw every report this core heard of before `since` asked, shared with other followers. */
  async function read(
    workspaceId: string,
    runId: string,
    since: { generation: number; at: number },
  ): Promise<{ snapshot: Snapshot; generation: number }> {
    for (;;) {
      const shared = reads.get(runId);
      if (shared && shared.generation >= since.generation && shared.startedAt >= since.at) {
        const snapshot = await shared.snapshot;
        if (snapshot.workspaceId !== workspaceId) throw new DomainError('eval_run_not_found', `no eval run ${runId} in this workspace`);
        return { snapshot, generation: shared.generation };
      }
      const wait = shared ? shared.startedAt + minReadIntervalMs - Date.now() : 0;
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      const now = Date.now();
      for (const [id, old] of reads) if (old.startedAt < now - keptMs) reads.delete(id);
      const started: SharedRead = { startedAt: now, generation: reported.generation, snapshot: load(workspaceId, runId) };
      // A failed read (an unknown run, the store down) is not kept for others.
      started.snapshot.catch(() => reads.get(runId) === started && reads.delete(runId));
      reads.set(runId, started);
      return { snapshot: await started.snapshot, generation: started.generation };
    }
  }

  return {
    /**
     * The run and its results after `after` (a result's `seq`; null for all) as soon as there are any or the run
     * has ended, or after `waitMs` with none. Reports heard on this core wake it; those of other cores within `recheckMs`.
     */
    async after(workspaceId: string, runId: string, after: number | null, waitMs: number, abort?: AbortSignal): Promise<RunEvents> {
      const deadline = Date.now() + waitMs;
      // A read made a moment ago by another follower will do; one from before a report heard here will not.
      const fresh = () => ({ generation: reported.generation, at: Date.now() - minReadIntervalMs });
      let since = fresh();
      for (;;) {
        const { snapshot, generation } = await read(workspaceId, runId, since);
        const results = after === null ? snapshot.results : snapshot.results.filter((r) => r.seq > after);
        const ended = snapshot.run.finished && !snapshot.unsettled;
        const remaining = deadline - Date.now();
        if (results.length > 0 || ended || remaining <= 0 || reported.closed || abort?.aborted) {
          return { run: snapshot.run, results, ended };
        }
        // A report heard since the read started is read at once; otherwise the next one, or the recheck, wakes it.
        if (reported.generation === generation) await reported.wait(Math.min(remaining, recheckMs), abort);
        since = fresh();
      }
    },
  };
}

export type EvalRunEvents = ReturnType<typeof createEvalRunEvents>;
