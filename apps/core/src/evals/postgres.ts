import { and, asc, desc, eq, exists, gte, inArray, isNotNull, isNull, lt, notExists, or, sql, type SQLWrapper } from 'drizzle-orm';
import { newId } from '../platform/ids.ts';
import { FlagMoved, openExecutionStatuses, openRunStatuses, runRow, toExecution, toReviewTally, toRun } from './rows.ts';
import { evalBacklogColumns } from '../platform/backlog.ts';
import {
  baselineVerdictSql,
  passedBy,
  passedWhileOpenSql,
  resultAddingReplay,
  resultOverridden,
  resultRebased,
  reviewTallied,
  runAddingResult,
  runRecounted,
} from './counts.ts';
import type { EvalExecutionRecord, EvalsStore, LeasedExecutionRecord, PassedWhileOpen } from './store.ts';
import { caseRow, toCase } from '../flags/rows.ts';
import { liveCasesOf } from '../flags/where.ts';
import { pageOf } from '../platform/page.ts';
import { messageRow } from '../agents/rows.ts';
import type { PgDb } from '../platform/postgres/database.ts';
import { applyFlagChange } from '../flags/postgres.ts';
import { evalCases, evalExecutions, evalOverrides, evalResults, evalRuns, graderReviews } from '../platform/postgres/schema.ts';
import { type PgTx, statement, type Transact } from '../platform/postgres/transaction.ts';

/**
 * A report in one statement, so one round trip: it locks the execution while its lease ($1, $2) holds, records the
 * replayed chat ($10-$12) and its messages ($13, a JSON array in order) and the verdict, and answers the run.
 * Foreign keys are checked at the statement's end, once the chat is in.
 */
const reportStatement = `
  with found as (
    select e.id, e.run_id, e.agent, r.workspace_id, r.environment, r.version_id
    from eval_executions e join eval_runs r on r.id = e.run_id
    where e.id = $1 and e.lease_id = $2 and e.status = 'leased'
    for update of e
  ),
  chat as (
    insert into chats (id, workspace_id, agent, environment, version_id, channel, replay, created_at)
    select $10::text, workspace_id, agent, environment, version_id, $11::text, true, $12::text from found
    where $10::text is not null
    returning id
  ),
  messages as (
    insert into chat_messages (id, chat_id, role, text, trace, created_at)
    select m.value->>'id', chat.id, m.value->>'role', m.value->>'text', m.value->>'trace', m.value->>'createdAt'
    from chat, jsonb_array_elements($13::jsonb) with ordinality as m(value, n)
    order by m.n
  ),
  reported as (
    update eval_executions e
    set status = 'done', verdict = $3, reasoning = $4, replay_chat_id = (select id from chat),
      input_tokens = $5, output_tokens = $6, judge_input_tokens = $7, judge_output_tokens = $8, finished_at = $9,
      -- The transaction's id: no lock to take, and readers know which ones may still commit (settledBelow).
      report_seq = pg_current_xact_id()::text::bigint
    from found where e.id = found.id
    returning e.run_id, e.case_id
  ),
  result as (
    update eval_results
    set ${resultAddingReplay(`(case when $3 = 'pass' then 1 else 0 end)`, `(case when $3 = 'error' then 1 else 0 end)`)}
    from reported where eval_results.run_id = reported.run_id and eval_results.case_id = reported.case_id
    returning eval_results.run_id, eval_results.verdict, eval_results.regression
  ),
  counted as (
    update eval_runs set ${runAddingResult('result.verdict', 'result.regression', '$5', '$6')}
    from result where eval_runs.id = result.run_id
  )
  select run_id from reported
`;

/** A statement written with `@name` markers, as SQLite's are, with `values` bound in their places. */
const bound = (text: string, values: Record<string, unknown>) =>
  sql.join(text.split(/@(\w+)/).map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql.param(values[part]))));

/** The results a run is made with, one per case, each with its verdict in the baseline. */
const insertResults = `
  insert into eval_results (run_id, case_id, total, min_pass, replays, passed, errored, baseline)
  select @runId::text, c, @total::int, @minPass::int, 0, 0, 0, ${baselineVerdictSql('@baseline::text', 'c')}
  from unnest(@cases::text[]) as c
`;

/** A person's verdict (null to give the grader's back) on a result, then on the results compared with it, then the runs' counts. */
const overrideStatements = [
  `update eval_results set ${resultOverridden('@override::text')} where run_id = @runId and case_id = @caseId and graded is not null`,
  `update eval_results set ${resultRebased(baselineVerdictSql('@runId::text', '@caseId::text'))}
   where case_id = @caseId and run_id in (select id from eval_runs where baseline_run_id = @runId)`,
  `update eval_runs set ${runRecounted} where id = @runId or baseline_run_id = @runId`,
];

/** An execution a lease may take: pending, or leased until before `now`. */
const leasableAt = (now: string) =>
  or(eq(evalExecutions.status, 'pending'), and(eq(evalExecutions.status, 'leased'), lt(evalExecutions.leaseUntil, now)));

export function createPostgresEvals(db: PgDb, transact: Transact): EvalsStore {
  const runByIdQuery = db
    .select()
    .from(evalRuns)
    .where(eq(evalRuns.id, sql.placeholder('id')))
    .prepare('evals_run_by_id');
  const runById = async (id: string) => (await runByIdQuery.execute({ id }))[0];
  /** The run's executions still to be run or reported. */
  const openExecutionsOf = (tx: PgDb | PgTx, runId: string | SQLWrapper) =>
    tx
      .select({ id: evalExecutions.id })
      .from(evalExecutions)
      .where(and(eq(evalExecutions.runId, runId), inArray(evalExecutions.status, openExecutionStatuses)));
  const caseById = db
    .select()
    .from(evalCases)
    .where(and(eq(evalCases.id, sql.placeholder('id')), eq(evalCases.workspaceId, sql.placeholder('workspaceId'))))
    .prepare('evals_case_by_id');
  const anyOpenExecution = openExecutionsOf(db, sql.placeholder('runId')).limit(1).prepare('evals_any_open');
  const casesByIds = db
    .select()
    .from(evalCases)
    .where(and(eq(evalCases.workspaceId, sql.placeholder('workspaceId')), sql`${evalCases.id} = any(${sql.placeholder('ids')}::text[])`))
    .prepare('evals_cases_by_ids');
  // In the order the cases were made, each case's replays by attempt: the order results are shown in.
  const executionsOfRun = db
    .select({ execution: evalExecutions })
    .from(evalExecutions)
    .innerJoin(evalCases, eq(evalCases.id, evalExecutions.caseId))
    .where(eq(evalExecutions.runId, sql.placeholder('runId')))
    .orderBy(asc(evalCases.createdAt), asc(evalCases.id), asc(evalExecutions.attempt))
    .prepare('evals_executions_of_run');
  const baselineVerdictsOf = db
    .select({ caseId: evalResults.caseId, baseline: evalResults.baseline })
    .from(evalResults)
    .where(and(eq(evalResults.runId, sql.placeholder('runId')), isNotNull(evalResults.baseline)))
    .prepare('evals_baseline_verdicts');
  const overridesOfRun = db
    .select()
    .from(evalOverrides)
    .where(eq(evalOverrides.runId, sql.placeholder('runId')))
    .orderBy(asc(evalOverrides.caseId))
    .prepare('evals_overrides_of_run');

  /**
   * The executions a lease may take, fairly across runs, as on SQLite: a run's place in line is what it holds
   * already (its leases not yet expired) plus its rank among its own waiting executions (by attempt, then id); the
   * runs with the fewest replays under way go first, the oldest run breaking ties. Each run gives at most `max` from
   * its open executions' index. `passed` are left out: those this lease looked at already.
   */
  const leasable = async (tx: PgTx, now: string, max: number, passed: string[]) => {
    const result = await tx.execute<{ id: string }>(sql`
      select id from (
        select e.id, r.created_at as run_created_at, r.id as run_id,
          (
            select count(*) from ${evalExecutions} h
            where h.run_id = r.id and h.status = 'leased' and h.lease_until >= ${now}
          ) + row_number() over (partition by e.run_id order by e.attempt, e.id) as turn
        from ${evalRuns} r
        cross join lateral (
          select o.id, o.run_id, o.attempt from ${evalExecutions} o
          where o.run_id = r.id and o.status in ('pending', 'leased') and (o.status = 'pending' or o.lease_until < ${now})
            ${passed.length > 0 ? sql`and o.id not in ${passed}` : sql``}
          order by o.attempt, o.id
          limit ${max}
        ) e
        where r.status in ('queued', 'running')
      ) turns
      order by turn, run_created_at, run_id
      limit ${max}
    `);
    return result.rows.map((row) => row.id);
  };

  return {
    evalCases: {
      async get(workspaceId, id) {
        const [row] = await caseById.execute({ id, workspaceId });
        return row && toCase(row);
      },
      async getMany(workspaceId, ids) {
        if (ids.length === 0) return [];
        return (await casesByIds.execute({ workspaceId, ids })).map(toCase);
      },
      async list(workspaceId, agent) {
        const rows = await db
          .select()
          .from(evalCases)
          .where(liveCasesOf(evalCases, workspaceId, agent))
          .orderBy(asc(evalCases.createdAt), asc(evalCases.id));
        return rows.map(toCase);
      },
      async page(workspaceId, agent, { limit, after }) {
        const rows = await db
          .select()
          .from(evalCases)
          .where(liveCasesOf(evalCases, workspaceId, agent, after))
          .orderBy(asc(evalCases.createdAt), asc(evalCases.id))
          .limit(limit + 1);
        return pageOf(rows.map(toCase), limit);
      },
      async ofRun(workspaceId, runId) {
        const rows = await db
          .select({ evalCase: evalCases })
          .from(evalResults)
          .innerJoin(evalCases, eq(evalCases.id, evalResults.caseId))
          .where(and(eq(evalResults.runId, runId), eq(evalCases.workspaceId, workspaceId)));
        return rows.map((row) => toCase(row.evalCase));
      },
      async create(evalCase) {
        await transact((tx) => tx.insert(evalCases).values(caseRow(evalCase)));
      },
      async update(workspaceId, id, { agent, turns, expected, updatedAt }) {
        const updated = await transact((tx) =>
          tx
            .update(evalCases)
            .set({ agent, turns: JSON.stringify(turns), expected, updatedAt })
            .where(and(eq(evalCases.id, id), eq(evalCases.workspaceId, workspaceId), isNull(evalCases.deletedAt)))
            .returning({ id: evalCases.id }),
        );
        return updated.length > 0;
      },
      async remove(workspaceId, id, at) {
        const removed = await transact((tx) =>
          tx
            .update(evalCases)
            .set({ deletedAt: at, updatedAt: at })
            .where(and(eq(evalCases.id, id), eq(evalCases.workspaceId, workspaceId), isNull(evalCases.deletedAt)))
            .returning({ id: evalCases.id }),
        );
        return removed.length > 0;
      },
    },
    evalRuns: {
      async create(run, executions) {
        await transact(async (tx) => {
          await tx.insert(evalRuns).values(runRow(run));
          // All pending: one statement of one array per column, however many cases the run has.
          const column = <K extends keyof EvalExecutionRecord>(key: K) => sql.param(executions.map((execution) => execution[key]));
          await tx.execute(sql`
            insert into eval_executions (id, run_id, case_id, attempt, agent, judge, status)
            select *, 'pending' from unnest(${column('id')}::text[], ${column('runId')}::text[], ${column('caseId')}::text[],
              ${column('attempt')}::int[], ${column('agent')}::text[], ${column('judge')}::text[])`);
          const cases = [...new Set(executions.map((execution) => execution.caseId))];
          await tx.execute(
            bound(insertResults, { runId: run.id, total: run.repeat, minPass: run.minPass, baseline: run.baselineRunId, cases }),
          );
        });
      },
      async get(workspaceId, id) {
        const row = await runById(id);
        return row && row.workspaceId === workspaceId ? toRun(row) : undefined;
      },
      async find(id) {
        const row = await runById(id);
        return row && toRun(row);
      },
      async list(workspaceId, environment, { limit, after }) {
        const rows = await db
          .select()
          .from(evalRuns)
          .where(
            and(
              eq(evalRuns.workspaceId, workspaceId),
              environment === undefined ? undefined : eq(evalRuns.environment, environment),
              after ? or(lt(evalRuns.createdAt, after.key), and(eq(evalRuns.createdAt, after.key), lt(evalRuns.id, after.id))) : undefined,
            ),
          )
          .orderBy(desc(evalRuns.createdAt), desc(evalRuns.id))
          .limit(limit + 1);
        return pageOf(rows.map(toRun), limit);
      },
      async fixing(workspaceId, environment, caseId, versionId, by) {
        const [row] = await db
          .select({ id: evalRuns.id })
          .from(evalResults)
          .innerJoin(evalRuns, eq(evalRuns.id, evalResults.runId))
          .where(passedBy({ results: evalResults, runs: evalRuns }, { workspaceId, environment, caseId, versionId, by }))
          .orderBy(desc(evalRuns.finishedAt), desc(evalRuns.id))
          .limit(1);
        return row?.id;
      },
      async latestFinished(workspaceId, environment) {
        const [row] = await db
          .select()
          .from(evalRuns)
          .where(and(eq(evalRuns.workspaceId, workspaceId), eq(evalRuns.environment, environment), eq(evalRuns.status, 'finished')))
          .orderBy(desc(evalRuns.finishedAt), desc(evalRuns.id))
          .limit(1);
        return row && toRun(row);
      },
      async settledBelow() {
        // A report's sequence is its transaction's id; every transaction below the snapshot's xmin has ended.
        const result = await db.execute<{ xmin: string }>(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`);
        return Number(result.rows[0]!.xmin);
      },
      async executions(runId) {
        return (await executionsOfRun.execute({ runId })).map((row) => toExecution(row.execution));
      },
      async overrides(runId) {
        return overridesOfRun.execute({ runId });
      },
      async verdictsIn(runIds, caseIds) {
        if (runIds.length === 0 || caseIds.length === 0) return [];
        const rows = await db
          .select({ runId: evalResults.runId, caseId: evalResults.caseId, verdict: evalResults.verdict })
          .from(evalResults)
          .where(and(inArray(evalResults.runId, runIds), inArray(evalResults.caseId, caseIds), isNotNull(evalResults.verdict)));
        return rows.map((row) => ({ ...row, verdict: row.verdict! }));
      },
      async baselineVerdicts(runId) {
        const rows = await baselineVerdictsOf.execute({ runId });
        return new Map(rows.map((row) => [row.caseId, row.baseline!]));
      },
      async reviewTallies(workspaceId, sinceDay) {
        const rows = await db
          .select({
            grader: graderReviews.grader,
            graded: graderReviews.graded,
            person: graderReviews.person,
            reviews: sql<number>`sum(${graderReviews.reviews})`.mapWith(Number),
          })
          .from(graderReviews)
          .where(and(eq(graderReviews.workspaceId, workspaceId), gte(graderReviews.day, sinceDay)))
          .groupBy(graderReviews.grader, graderReviews.graded, graderReviews.person)
          // A verdict taken back leaves its day's tally at 0 rather than delete it.
          .having(sql`sum(${graderReviews.reviews}) > 0`);
        return rows.map(toReviewTally);
      },
      async override(runId, caseId, override) {
        await transact(async (tx) => {
          // The result first: people giving verdicts on one case at once take turns, each taking back the review of
          // the verdict it replaces, as committed by the one before.
          await tx
            .select({ caseId: evalResults.caseId })
            .from(evalResults)
            .where(and(eq(evalResults.runId, runId), eq(evalResults.caseId, caseId)))
            .for('update');
          await tx.execute(bound(reviewTallied(-1, '@runId::text', '@caseId::text'), { runId, caseId }));
          if (override === null) {
            await tx.delete(evalOverrides).where(and(eq(evalOverrides.runId, runId), eq(evalOverrides.caseId, caseId)));
          } else {
            const { verdict, by, at } = override;
            await tx
              .insert(evalOverrides)
              .values({ runId, caseId, verdict, by, at })
              .onConflictDoUpdate({ target: [evalOverrides.runId, evalOverrides.caseId], set: { verdict, by, at } });
          }
          for (const statement of overrideStatements)
            await tx.execute(bound(statement, { runId, caseId, override: override?.verdict ?? null }));
          await tx.execute(bound(reviewTallied(1, '@runId::text', '@caseId::text'), { runId, caseId }));
        });
      },
      async cancel(workspaceId, id, at) {
        // The executions first, then the run: the order a report locks them in, so the two never wait on each other.
        return transact(async (tx) => {
          const open = and(eq(evalRuns.id, id), eq(evalRuns.workspaceId, workspaceId), inArray(evalRuns.status, openRunStatuses));
          const cancelled = await tx
            .update(evalExecutions)
            .set({ status: 'cancelled' })
            .where(
              and(
                eq(evalExecutions.runId, id),
                inArray(evalExecutions.status, openExecutionStatuses),
                exists(tx.select({ id: evalRuns.id }).from(evalRuns).where(open)),
              ),
            )
            .returning({ id: evalExecutions.id });
          if (cancelled.length === 0) return false;
          await tx.update(evalRuns).set({ status: 'cancelled', finishedAt: at }).where(open);
          return true;
        });
      },
      async finish(runId, at, flagChanges) {
        try {
          return await transact(async (tx) => {
            const finished = await tx
              .update(evalRuns)
              .set({ status: 'finished', finishedAt: at })
              .where(and(eq(evalRuns.id, runId), inArray(evalRuns.status, openRunStatuses), notExists(openExecutionsOf(tx, runId))))
              .returning({ id: evalRuns.id });
            if (finished.length === 0) return 'not_finishable' as const;
            for (const change of flagChanges) if (!(await applyFlagChange(tx, change))) throw new FlagMoved();
            return 'finished' as const;
          });
        } catch (error) {
          if (error instanceof FlagMoved) return 'flag_moved';
          throw error;
        }
      },
      async complete() {
        const rows = await db
          .select({ id: evalRuns.id })
          .from(evalRuns)
          .where(and(inArray(evalRuns.status, openRunStatuses), notExists(openExecutionsOf(db, evalRuns.id))));
        return rows.map((row) => row.id);
      },
      async passedWhileOpen(environment, after, limit) {
        const result = await db.execute<PassedWhileOpen>(
          bound(passedWhileOpenSql('@environment', '@after', '@limit'), { environment, after: after ?? '', limit }),
        );
        return result.rows;
      },
    },
    evalWork: {
      /**
       * Takes the executions `leasable` names, locking each with `for update skip locked`: one another lease holds
       * is passed over, never waited for nor granted twice, and the next ones in line are read in its place, so
       * concurrent leases from several cores together hand out everything there is.
       */
      async lease(owner, max, now, until) {
        return transact(
          async (tx) => {
            const leased: LeasedExecutionRecord[] = [];
            const passed: string[] = [];
            while (leased.length < max) {
              const wanted = await leasable(tx, now, max - leased.length, passed);
              if (wanted.length === 0) break;
              const locked = await tx
                .select({ id: evalExecutions.id, status: evalExecutions.status })
                .from(evalExecutions)
                .where(and(inArray(evalExecutions.id, wanted), leasableAt(now)))
                .for('update', { skipLocked: true });
              // What each was when locked: leased means its lease expired, and it is taken back.
              const free = new Map(locked.map((row) => [row.id, row.status]));
              passed.push(...wanted);
              const ids = wanted.filter((id) => free.has(id));
              if (ids.length > 0) {
                // One statement for all of them, each with a lease id of its own; taken in the order `leasable` gave.
                const leaseIds = sql.join(
                  ids.map((id) => sql`when ${id} then ${newId('lease')}`),
                  sql` `,
                );
                const rows = await tx
                  .update(evalExecutions)
                  .set({
                    status: 'leased',
                    leaseOwner: owner,
                    leaseId: sql`(case ${evalExecutions.id} ${leaseIds} end)`,
                    leaseUntil: until,
                  })
                  .where(inArray(evalExecutions.id, ids))
                  .returning();
                const byId = new Map(rows.map((row) => [row.id, row]));
                for (const id of ids) {
                  const row = byId.get(id);
                  if (row) leased.push(Object.assign(toExecution(row), { reclaimed: free.get(id) === 'leased' }));
                }
              }
              if (free.size === wanted.length) break;
            }
            const runIds = [...new Set(leased.map((e) => e.runId))];
            if (runIds.length > 0)
              await tx
                .update(evalRuns)
                .set({ status: 'running' })
                .where(and(inArray(evalRuns.id, runIds), eq(evalRuns.status, 'queued')));
            return leased;
          },
          { isolation: 'read committed' },
        );
      },
      async renew(leases, until) {
        if (leases.length === 0) return [];
        const renewed = await transact(
          (tx) =>
            tx
              .update(evalExecutions)
              .set({ leaseUntil: until })
              .where(
                and(
                  eq(evalExecutions.status, 'leased'),
                  or(
                    ...leases.map(({ executionId, leaseId }) =>
                      and(eq(evalExecutions.id, executionId), eq(evalExecutions.leaseId, leaseId)),
                    ),
                  ),
                ),
              )
              .returning({ id: evalExecutions.id }),
          { isolation: 'read committed' },
        );
        const ids = new Set(renewed.map((row) => row.id));
        return leases.flatMap(({ executionId }) => (ids.has(executionId) ? [executionId] : []));
      },
      async report(report) {
        const { replay } = report;
        const messages = replay?.messages.map((message) => messageRow(Object.assign({}, message, { chatId: replay.chatId }))) ?? [];
        const values = [
          report.executionId,
          report.leaseId,
          report.verdict,
          report.reasoning,
          report.tokens.input,
          report.tokens.output,
          report.judgeTokens.input,
          report.judgeTokens.output,
          report.at,
          replay?.chatId ?? null,
          replay?.channel ?? null,
          replay?.createdAt ?? null,
          JSON.stringify(messages),
        ];
        const { rows } = await statement(() =>
          db.$client.query<{ run_id: string }>({ name: 'evals_report', text: reportStatement, values }),
        );
        const [done] = rows;
        if (!done) return { accepted: false as const };
        // Asked once the report is committed: of reports committing together, the last sees the others, and so the run
        // complete (the first may too; the run's finish is taken once).
        const [left] = await anyOpenExecution.execute({ runId: done.run_id });
        return { accepted: true as const, runId: done.run_id, runComplete: !left };
      },
      async backlog(now) {
        const [backlog] = await db
          .select(evalBacklogColumns(evalExecutions, now))
          .from(evalExecutions)
          .where(inArray(evalExecutions.status, openExecutionStatuses));
        return backlog!;
      },
    },
  };
}
