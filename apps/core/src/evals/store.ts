import type { RunStatus, RunTrigger, Verdict } from '@svc/domain';
import type { ChatMessage } from '../agents/store.ts';
import type { EvalCaseRecord, FlagChange } from '../flags/store.ts';
import type { Page, PageRequest } from '../platform/page.ts';

/** A run: the environment and the version it pinned when it started, and how its cases are graded. */
export interface EvalRunRecord {
  id: string;
  workspaceId: string;
  environment: string;
  /** The one agent whose cases run, or null for all. */
  agent: string | null;
  version: { id: string; number: number };
  trigger: RunTrigger;
  repeat: number;
  minPass: number;
  /** `deterministic`, or the judge models, comma-separated. */
  grader: string;
  /** The models of the agents replayed. */
  agentModels: string[];
  status: RunStatus;
  /** The latest finished live run when this one started: what its regressions compare with. */
  baselineRunId: string | null;
  /** Cases of agents the environment lacks, with their agent: reported, never run. */
  skipped: { caseId: string; agent: string }[];
  createdBy: string;
  createdAt: string;
  finishedAt: string | null;
  /** Kept as its results land, in the same transaction as each (see `gradeRun` for what they count). */
  counts: EvalRunCounts;
}

/** A run's cases, those whose replays are all done by verdict, its regressions and its agent's tokens. */
export interface EvalRunCounts {
  cases: number;
  done: number;
  passed: number;
  failed: number;
  errors: number;
  regressions: number;
  tokens: { input: number; output: number };
}

/** One replay of one case in a run (attempt 1..repeat). */
export interface EvalExecutionRecord {
  id: string;
  runId: string;
  caseId: string;
  attempt: number;
  /** The agent the case replays against. */
  agent: string;
  /** The judge model for this agent, or null for the deterministic grader. */
  judge: string | null;
  status: 'pending' | 'leased' | 'done' | 'cancelled';
  leaseOwner: string | null;
  /** A fresh id per grant: a report must present the lease it was given. */
  leaseId: string | null;
  leaseUntil: string | null;
  verdict: Verdict | null;
  reasoning: string | null;
  replayChatId: string | null;
  tokens: { input: number; output: number };
  judgeTokens: { input: number; output: number };
  finishedAt: string | null;
  /**
   * Where the report lands in its run's order of reports, null until reported: larger for a later commit, so a
   * reader that saw a report has seen every one below it that is settled (`evalRuns.settledBelow`).
   */
  reportSeq: number | null;
}

export interface EvalOverrideRecord {
  runId: string;
  caseId: string;
  verdict: 'pass' | 'fail';
  by: string;
  at: string;
}

/** How many results people reviewed with this grader's verdict and theirs. */
export interface ReviewTally {
  /** The judge model, or null for the deterministic grader. */
  judge: string | null;
  graded: 'pass' | 'fail';
  person: 'pass' | 'fail';
  reviews: number;
}

/** An open flag that a finished run passed, and that run. */
export type PassedWhileOpen = {
  flagId: string;
  workspaceId: string;
  runId: string;
  versionId: string;
  finishedAt: string;
};

/** What a runner reports for one execution it leased. */
export interface ExecutionReport {
  executionId: string;
  leaseId: string;
  verdict: Verdict;
  reasoning: string;
  tokens: { input: number; output: number };
  judgeTokens: { input: number; output: number };
  /** The replay chat (a replay: never in the inbox), created with its messages in the same transaction. */
  replay: { chatId: string; channel: string; createdAt: string; messages: ChatMessage[] } | null;
  at: string;
}

/** An execution a lease granted: `reclaimed` when it was taken back from a runner whose lease on it had expired. */
export type LeasedExecutionRecord = EvalExecutionRecord & { reclaimed: boolean };

/** The executions of open runs: those waiting for a runner (never leased, or their lease expired) and those under a lease that holds. */
export interface EvalBacklog {
  queued: number;
  leased: number;
}

export type ReportOutcome =
  /**
   * Recorded; `runComplete` when no execution of the run is open once it is: the run is for finishing
   * (`evalRuns.finish`, which only one caller wins). Of the last reports, committed at the same time, at least one
   * says so.
   */
  | { accepted: true; runId: string; runComplete: boolean }
  /** The lease is not this report's any more (expired and granted again, cancelled, or already reported): nothing written. */
  | { accepted: false };

/** Runs, their executions and overrides. Each method is one transaction. */
export interface EvalsStore {
  evalCases: {
    /** A case, removed or not. */
    get(workspaceId: string, id: string): Promise<EvalCaseRecord | undefined>;
    /** The workspace's cases among `ids`, removed or not, in one read (those a lease hands out); unknown ids left out. */
    getMany(workspaceId: string, ids: string[]): Promise<EvalCaseRecord[]>;
    /** Every case of the workspace that is not removed, oldest first; those of one agent when given (a run replays them all). */
    list(workspaceId: string, agent?: string): Promise<EvalCaseRecord[]>;
    /** A page of those cases, oldest first, after a creation time and id. */
    page(workspaceId: string, agent: string | undefined, page: PageRequest<string>): Promise<Page<EvalCaseRecord>>;
    /** The cases a run replays, removed ones too, read from its results (one per case): unknown run, none. */
    ofRun(workspaceId: string, runId: string): Promise<EvalCaseRecord[]>;
    /** Adds a case made by hand. */
    create(evalCase: EvalCaseRecord): Promise<void>;
    /** Changes a case that is not removed; false when there is none. */
    update(workspaceId: string, id: string, change: Pick<EvalCaseRecord, 'agent' | 'turns' | 'expected' | 'updatedAt'>): Promise<boolean>;
    /** Removes a case (soft: runs that used it still read it); false when there is none. */
    remove(workspaceId: string, id: string, at: string): Promise<boolean>;
  };
  evalRuns: {
    /**
     * Inserts the run and its executions (one per case and attempt, all pending), and a result per case that knows its
     * verdict in the baseline.
     */
    create(run: EvalRunRecord, executions: EvalExecutionRecord[]): Promise<void>;
    get(workspaceId: string, id: string): Promise<EvalRunRecord | undefined>;
    /** A run by its id alone: for the runners, which serve every workspace. */
    find(id: string): Promise<EvalRunRecord | undefined>;
    /** The workspace's runs, newest first, of one environment when given; the page's key is the creation time. */
    list(workspaceId: string, environment: string | undefined, page: PageRequest<string>): Promise<Page<EvalRunRecord>>;
    /**
     * The run that fixed a case's flag: the last run on `environment` of `versionId` to pass the case and finish by
     * `by`, read from the case's passes.
     */
    fixing(workspaceId: string, environment: string, caseId: string, versionId: string, by: string): Promise<string | undefined>;
    /** The latest finished run on an environment (by finish time), if any. */
    latestFinished(workspaceId: string, environment: string): Promise<EvalRunRecord | undefined>;
    /**
     * The report sequence below which every report is committed and readable: a report still being written gets a
     * sequence at or above it. Read it before the executions.
     */
    settledBelow(): Promise<number>;
    /** The run's executions in the order its cases were made (then by id), each case's by attempt. */
    executions(runId: string): Promise<EvalExecutionRecord[]>;
    overrides(runId: string): Promise<EvalOverrideRecord[]>;
    /** The verdicts of these cases in these runs, those whose replays are all done. */
    verdictsIn(runIds: string[], caseIds: string[]): Promise<{ runId: string; caseId: string; verdict: Verdict }[]>;
    /** Each case's verdict in the run's baseline (the case left out when it did not run there). */
    baselineVerdicts(runId: string): Promise<Map<string, Verdict>>;
    /**
     * How many of the workspace's results people reviewed from the UTC day `sinceDay` (`YYYY-MM-DD`) on, by grader and
     * the two verdicts, in no order; results the grader could not grade are not counted.
     */
    reviewTallies(workspaceId: string, sinceDay: string): Promise<ReviewTally[]>;
    /**
     * Sets (verdict) or clears (null) a person's verdict on a case of the run, and moves the counts of the run and of
     * the runs that compare with it to match.
     */
    override(runId: string, caseId: string, override: EvalOverrideRecord | null): Promise<void>;
    /**
     * Cancels what is not done and marks the run cancelled; false when it had already finished or been cancelled, or
     * when nothing of it is left to run (it is finishing).
     */
    cancel(workspaceId: string, id: string, at: string): Promise<boolean>;
    /**
     * Marks a run whose executions are all done finished at `at`, with `flagChanges` (what it does to flags) in the same
     * transaction, so no reader sees the one without the other. `not_finishable` when the run is not open or has
     * executions left; `flag_moved` when a flag is no longer at the revision its change was computed from. Either way
     * nothing is written.
     */
    finish(runId: string, at: string, flagChanges: FlagChange[]): Promise<'finished' | 'not_finishable' | 'flag_moved'>;
    /** Open runs whose executions are all done: a core stopped between a run's last report and its finish. */
    complete(): Promise<string[]>;
    /**
     * Open flags with a note whose case passed a finished run on `environment` (live) after the flag last changed, each
     * with the first such run: a core stopped between a run's finish and the flags it fixes left them. A page of
     * `limit` flags by id, after the flag id `after`.
     */
    passedWhileOpen(environment: string, after: string | undefined, limit: number): Promise<PassedWhileOpen[]>;
  };
  evalWork: {
    /**
     * Leases up to `max` executions that are pending or whose lease expired, fairly across runs (round robin by run,
     * oldest run first), to `owner` until `until`: each with a fresh lease id. Queued runs become running.
     */
    lease(owner: string, max: number, now: string, until: string): Promise<LeasedExecutionRecord[]>;
    /** Extends the leases still held (same lease id, not done); returns the ids extended. */
    renew(leases: { executionId: string; leaseId: string }[], until: string): Promise<string[]>;
    /** Records a report; the run stays open until `evalRuns.finish`, however many of its executions are done. */
    report(report: ExecutionReport): Promise<ReportOutcome>;
    /** How many executions wait for a runner at `now`, and how many are under a lease that holds. */
    backlog(now: string): Promise<EvalBacklog>;
  };
}

/** The counts of a run as it is created, with its `cases`: nothing done yet. */
export const newRunCounts = (cases: number): EvalRunCounts => ({
  cases,
  done: 0,
  passed: 0,
  failed: 0,
  errors: 0,
  regressions: 0,
  tokens: { input: 0, output: 0 },
});

/** An execution as its run is created: pending, never leased, not graded. */
export const pendingExecution = (
  execution: Pick<EvalExecutionRecord, 'id' | 'runId' | 'caseId' | 'attempt' | 'agent' | 'judge'>,
): EvalExecutionRecord => ({
  ...execution,
  status: 'pending',
  leaseOwner: null,
  leaseId: null,
  leaseUntil: null,
  verdict: null,
  reasoning: null,
  replayChatId: null,
  tokens: { input: 0, output: 0 },
  judgeTokens: { input: 0, output: 0 },
  finishedAt: null,
  reportSeq: null,
});
