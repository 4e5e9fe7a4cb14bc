import { bigint, boolean, index, integer, primaryKey, sql, table, text, uniqueIndex } from '../platform/tables/define.ts';

// The evals' tables: cases, runs, their executions, results and overrides, and the graders' reviews.
// Written once for both stores: `pnpm db:generate` writes src/store/{sqlite,postgres}/schema.ts from it, then
// the migrations (see src/platform/tables/define.ts).

/**
 * What an eval run replays: the visitor turns, and the outcome expected of the agent. A case made from a flag
 * names it; one added by hand names who added it. Removed cases stay (deleted_at) so runs that used them still
 * read them.
 */
export const evalCases = table('eval_cases', {
  columns: {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    agent: text('agent').notNull(),
    /** JSON array of the visitor's texts, oldest first. */
    turns: text('turns').notNull(),
    expected: text('expected').notNull(),
    originFlagId: text('origin_flag_id').references('flags.id', { onDelete: 'cascade' }),
    createdBy: text('created_by'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    deletedAt: text('deleted_at'),
  },
  indexes: (t) => [
    // Lists page the cases not removed oldest first, ids breaking ties: all of them, or one agent's.
    index('eval_cases_workspace_idx')
      .on(t.workspaceId, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('eval_cases_agent_idx')
      .on(t.workspaceId, t.agent, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    // A flag has at most one live case.
    uniqueIndex('eval_cases_flag_idx')
      .on(t.originFlagId)
      .where(sql`${t.deletedAt} is null and ${t.originFlagId} is not null`),
  ],
});

/**
 * An eval run: the environment and the version it pinned when it started, how its cases are graded, and what it
 * compares with. Its counts are kept as its results land (`eval_results`), in the same transaction as each.
 */
export const evalRuns = table('eval_runs', {
  columns: {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    environment: text('environment').notNull(),
    /** The one agent whose cases run, or null for all. */
    agent: text('agent'),
    versionId: text('version_id').notNull().references('agent_versions.id'),
    versionNumber: integer('version_number').notNull(),
    trigger: text('trigger', { enum: ['manual', 'publish', 'pull_request'] }).notNull(),
    repeat: integer('repeat').notNull(),
    minPass: integer('min_pass').notNull(),
    /** `deterministic`, or the judge models, comma-separated. */
    grader: text('grader').notNull(),
    /** JSON array of the replayed agents' models. */
    agentModels: text('agent_models').notNull(),
    status: text('status', { enum: ['queued', 'running', 'finished', 'cancelled'] }).notNull(),
    baselineRunId: text('baseline_run_id'),
    /** JSON array of `{caseId, agent}`: cases of agents the environment lacks, never run. */
    skipped: text('skipped').notNull(),
    /** An email, or `svc` for a run a publish started. */
    createdBy: text('created_by').notNull(),
    createdAt: text('created_at').notNull(),
    finishedAt: text('finished_at'),
    /** Cases that run; then, of those whose every replay is done, how many and how they came out. */
    cases: integer('cases').notNull().default(0),
    done: integer('done').notNull().default(0),
    passed: integer('passed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    regressions: integer('regressions').notNull().default(0),
    /** The agent's tokens over every replay reported. */
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
  },
  indexes: (t) => [
    index('eval_runs_environment_idx').on(t.workspaceId, t.environment, t.createdAt, t.id),
    index('eval_runs_workspace_idx').on(t.workspaceId, t.createdAt, t.id),
    // Lists page newest first by creation time, ids breaking ties: read in index order.
    // The regression baseline: the latest finished run of an environment.
    index('eval_runs_finished_idx')
      .on(t.workspaceId, t.environment, t.finishedAt, t.id)
      .where(sql`${t.status} = 'finished'`),
    // What leases look at first: the runs still worked on, oldest first.
    index('eval_runs_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    // The runs compared with a run: a person's verdict there moves their regressions.
    index('eval_runs_baseline_idx')
      .on(t.baselineRunId)
      .where(sql`${t.baselineRunId} is not null`),
  ],
});

/** One replay of one case in a run (attempt 1..repeat), leased to one runner at a time. */
export const evalExecutions = table('eval_executions', {
  columns: {
    id: text('id').primaryKey(),
    runId: text('run_id').notNull().references('eval_runs.id', { onDelete: 'cascade' }),
    caseId: text('case_id').notNull().references('eval_cases.id', { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    agent: text('agent').notNull(),
    /** The judge model, or null for the deterministic grader. */
    judge: text('judge'),
    status: text('status', { enum: ['pending', 'leased', 'done', 'cancelled'] }).notNull(),
    leaseOwner: text('lease_owner'),
    /** A fresh id per grant: only a report presenting it is accepted. */
    leaseId: text('lease_id'),
    leaseUntil: text('lease_until'),
    verdict: text('verdict', { enum: ['pass', 'fail', 'error'] }),
    reasoning: text('reasoning'),
    replayChatId: text('replay_chat_id').references('chats.id', { onDelete: 'set null' }),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    judgeInputTokens: integer('judge_input_tokens').notNull().default(0),
    judgeOutputTokens: integer('judge_output_tokens').notNull().default(0),
    finishedAt: text('finished_at'),
    /** The order reports landed in, per run (see EvalExecutionRecord.reportSeq). */
    reportSeq: bigint('report_seq'),
  },
  indexes: (t) => [
    uniqueIndex('eval_executions_run_idx').on(t.runId, t.caseId, t.attempt),
    // Leases read only the executions still to do, in each run's round-robin order; done ones leave the index.
    index('eval_executions_open_idx')
      .on(t.runId, t.attempt, t.id)
      .where(sql`${t.status} in ('pending', 'leased')`),
    // What each run holds: its replays under way, counted to give the runs with the fewest the next slots.
    index('eval_executions_leased_idx')
      .on(t.runId, t.leaseUntil)
      .where(sql`${t.status} = 'leased'`),
  ],
});

/** A person's verdict on a case of a run, in place of the grader's. */
export const evalOverrides = table('eval_overrides', {
  columns: {
    runId: text('run_id').notNull().references('eval_runs.id', { onDelete: 'cascade' }),
    caseId: text('case_id').notNull().references('eval_cases.id', { onDelete: 'cascade' }),
    verdict: text('verdict', { enum: ['pass', 'fail'] }).notNull(),
    /** An email: the record outlives a membership. */
    by: text('by').notNull(),
    at: text('at').notNull(),
  },
  indexes: (t) => [primaryKey(t.runId, t.caseId)],
});

/**
 * A case's result in a run, kept as its replays are reported: how many are done, passed and errored, and once all
 * are, the verdict (a person's override, else the grader's) and whether it is a regression against the run's baseline.
 * The run's counts are the sums of its results, kept on the run in the same transaction.
 */
export const evalResults = table('eval_results', {
  columns: {
    runId: text('run_id').notNull().references('eval_runs.id', { onDelete: 'cascade' }),
    caseId: text('case_id').notNull().references('eval_cases.id', { onDelete: 'cascade' }),
    /** The replays it has (the run's repeat) and how many must pass (its min_pass). */
    total: integer('total').notNull(),
    minPass: integer('min_pass').notNull(),
    /** Its replays reported so far. */
    replays: integer('replays').notNull(),
    passed: integer('passed').notNull(),
    errored: integer('errored').notNull(),
    /** The grader's verdict once every replay is done, else null. */
    graded: text('graded', { enum: ['pass', 'fail', 'error'] }),
    /** The override when there is one, else `graded`. */
    verdict: text('verdict', { enum: ['pass', 'fail', 'error'] }),
    /** Its verdict in the run's baseline, if it ran there. */
    baseline: text('baseline', { enum: ['pass', 'fail', 'error'] }),
    regression: boolean('regression').notNull().default(false),
  },
  indexes: (t) => [
    primaryKey(t.runId, t.caseId),
    // A case's passes across runs: what fixes its flag, read from the case.
    index('eval_results_case_idx')
      .on(t.caseId, t.runId)
      .where(sql`${t.verdict} = 'pass'`),
  ],
});

/**
 * How many results people reviewed, by workspace, UTC day of the review, grader (its judge, '' for the deterministic
 * one), the grader's verdict and the person's: what the graders' agreement sums, whatever the history of runs. A
 * person's verdict adds its review here in the transaction that records it, and one replaced or taken back takes its
 * own away. Results the grader could not grade (errors) are not reviews of it and are not counted.
 */
export const graderReviews = table('grader_reviews', {
  columns: {
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    day: text('day').notNull(),
    grader: text('grader').notNull(),
    graded: text('graded', { enum: ['pass', 'fail'] }).notNull(),
    person: text('person', { enum: ['pass', 'fail'] }).notNull(),
    reviews: integer('reviews').notNull(),
  },
  indexes: (t) => [primaryKey(t.workspaceId, t.day, t.grader, t.graded, t.person)],
});
