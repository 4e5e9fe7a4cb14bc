import { and, asc, desc, eq, exists, gte, inArray, isNotNull, isNull, lt, notExists, or, sql, type SQLWrapper } from 'drizzle-orm';
import { newId } from '../platform/ids.ts';
import { executionRow, FlagMoved, openExecutionStatuses, openRunStatuses, runRow, toExecution, toReviewTally, toRun } from './rows.ts';
import { evalBacklogColumns } from '../platform/backlog.ts';
import {
  baselineVerdictSql,
  passedBy,
  passedWhileOpenSql,
  resultAddingReplay,
  runAddingResult,
  resultOverridden,
  resultRebased,
  reviewTallied,
  runRecounted,
  type ResultAdded,
} from './counts.ts';
import type { EvalsStore, LeasedExecutionRecord, PassedWhileOpen } from './store.ts';
import { caseRow, toCase } from '../flags/rows.ts';
import { liveCasesOf } from '../flags/where.ts';
import { pageOf } from '../platform/page.ts';
import { messageInserter } from '../agents/sqlite.ts';
import type { SqliteDb } from '../platform/sqlite/database.ts';
import type { Write } from '../platform/sqlite/group-commit.ts';
import { applyFlagChange } from '../flags/sqlite.ts';
import { bound, inJsonArray, p, placeholders } from '../platform/sqlite/prepared.ts';
import { chats, evalCases, evalExecutions, evalOverrides, evalResults, evalRuns, graderReviews } from '../platform/sqlite/schema.ts';

export function createSqliteEvals(db: SqliteDb, write: Write): EvalsStore {
  const insertMessages = messageInserter(db);
  // The statements of a case's lease, renewal and report, prepared once: each case runs them.
  const runByIdQuery = db
    .select()
    .from(evalRuns)
    .where(eq(evalRuns.id, p('id')))
    .prepare();
  const runById = (id: string) => runByIdQuery.get({ id });
  const casesByIds = db
    .select()
    .from(evalCases)
    .where(and(eq(evalCases.workspaceId, p('workspaceId')), inJsonArray(evalCases.id, 'ids')))
    .prepare();
  // In the order the cases were made, each case's replays by attempt: the order results are shown in.
  const executionsOfRun = db
    .select({ execution: evalExecutions })
    .from(evalExecutions)
    .innerJoin(evalCases, eq(evalCases.id, evalExecutions.caseId))
    .where(eq(evalExecutions.runId, p('runId')))
    .orderBy(asc(evalCases.createdAt), asc(evalCases.id), asc(evalExecutions.attempt))
    .prepare();
  const overridesOfRun = db
    .select()
    .from(evalOverrides)
    .where(eq(evalOverrides.runId, p('runId')))
    .orderBy(asc(evalOverrides.caseId))
    .prepare();
  const takeExecution = db
    .update(evalExecutions)
    .set({ status: 'leased', leaseOwner: bound('owner'), leaseId: bound('leaseId'), leaseUntil: bound('until') })
    .where(
      and(
        eq(evalExecutions.id, p('id')),
        or(eq(evalExecutions.status, 'pending'), and(eq(evalExecutions.status, 'leased'), lt(evalExecutions.leaseUntil, p('now')))),
      ),
    )
    .returning()
    .prepare();
  const renewLease = db
    .update(evalExecutions)
    .set({ leaseUntil: bound('until') })
    .where(and(eq(evalExecutions.id, p('id')), eq(evalExecutions.leaseId, p('leaseId')), eq(evalExecutions.status, 'leased')))
    .prepare();
  const leasedExecution = db
    .select()
    .from(evalExecutions)
    .where(and(eq(evalExecutions.id, p('id')), eq(evalExecutions.leaseId, p('leaseId')), eq(evalExecutions.status, 'leased')))
    .prepare();
  const caseById = db
    .select()
    .from(evalCases)
    .where(and(eq(evalCases.id, p('id')), eq(evalCases.workspaceId, p('workspaceId'))))
    .prepare();
  const insertChat = db.insert(chats).values(placeholders(chats)).prepare();
  // A run's executions, hundreds at its start: one statement built once, not one per execution.
  const insertExecution = db.insert(evalExecutions).values(placeholders(evalExecutions)).prepare();
  const finishExecution = db
    .update(evalExecutions)
    .set({
      status: 'done',
      verdict: bound('verdict'),
      reasoning: bound('reasoning'),
      replayChatId: bound('replayChatId'),
      inputTokens: bound('inputTokens'),
      outputTokens: bound('outputTokens'),
      judgeInputTokens: bound('judgeInputTokens'),
      judgeOutputTokens: bound('judgeOutputTokens'),
      finishedAt: bound('finishedAt'),
      // Writes are serial: one more than the run's last.
      reportSeq: sql`(select coalesce(max(report_seq), 0) + 1 from eval_executions where run_id = ${p('runId')})`,
    })
    .where(eq(evalExecutions.id, p('id')))
    .prepare();
  /** The run's executions still to be run or reported. */
  const openExecutionsOf = (runId: string | SQLWrapper) =>
    db
      .select({ id: evalExecutions.id })
      .from(evalExecutions)
      .where(and(eq(evalExecutions.runId, runId), inArray(evalExecutions.status, openExecutionStatuses)));
  const anyOpenExecution = openExecutionsOf(p('runId')).limit(1).prepare();
  const insertResults = db.$client.prepare<{ runId: string; cases: string; total: number; minPass: number; baseline: string | null }>(`
    insert into eval_results (run_id, case_id, total, min_pass, replays, passed, errored, baseline)
    select @runId, value, @total, @minPass, 0, 0, 0, ${baselineVerdictSql('@baseline', 'value')} from json_each(@cases)
  `);
  const addReplay = db.$client.prepare<{ runId: string; caseId: string; pass: number; error: number }, ResultAdded>(
    `update eval_results set ${resultAddingReplay('@pass', '@error')} where run_id = @runId and case_id = @caseId returning verdict, regression`,
  );
  const addResult = db.$client.prepare<{ runId: string; verdict: string | null; regression: number; input: number; output: number }>(
    `update eval_runs set ${runAddingResult('@verdict', '@regression', '@input', '@output')} where id = @runId`,
  );
  const overrideResult = db.$client.prepare<{ runId: string; caseId: string; override: string | null }>(
    `update eval_results set ${resultOverridden('@override')} where run_id = @runId and case_id = @caseId and graded is not null`,
  );
  const rebaseResults = db.$client.prepare<{ runId: string; caseId: string }>(`
    update eval_results set ${resultRebased(baselineVerdictSql('@runId', '@caseId'))}
    where case_id = @caseId and run_id in (select id from eval_runs where baseline_run_id = @runId)
  `);
  const recountRuns = db.$client.prepare<{ runId: string }>(
    `update eval_runs set ${runRecounted} where id = @runId or baseline_run_id = @runId`,
  );
  const untallyReview = db.$client.prepare<{ runId: string; caseId: string }>(reviewTallied(-1, '@runId', '@caseId'));
  const tallyReview = db.$client.prepare<{ runId: string; caseId: string }>(reviewTallied(1, '@runId', '@caseId'));
  const baselineVerdictsOf = db
    .select({ caseId: evalResults.caseId, baseline: evalResults.baseline })
    .from(evalResults)
    .where(and(eq(evalResults.runId, p('runId')), isNotNull(evalResults.baseline)))
    .prepare();
  const passedWhileOpenQuery = db.$client.prepare<{ environment: string; after: string; limit: number }, PassedWhileOpen>(
    passedWhileOpenSql('@environment', '@after', '@limit'),
  );

  /**
   * The executions a lease may take, fairly across runs. A run's place in line is what it holds already (its leases
   * not yet expired) plus its rank among its own waiting executions (by attempt, then id): the runs with the fewest
   * replays under way go first, the oldest run breaking ties. So runners asking for one execution at a time as each
   * slot frees share their slots across runs, and one large lease hands out each run's first, then each run's
   * second, and so on. Each run gives at most `max` from its open executions' index, so a lease reads (open runs ×
   * max) rows however many executions wait.
   */
  const leasableQuery = db.$client.prepare<{ now: string; max: number }, { id: string; status: 'pending' | 'leased' }>(`
    select id, status from (
      select e.id, e.status, r.created_at as run_created_at, r.id as run_id,
        (
          select count(*) from eval_executions h
          where h.run_id = r.id and h.status = 'leased' and h.lease_until >= @now
        ) + row_number() over (partition by e.run_id order by e.attempt, e.id) as turn
      from eval_runs r
      join eval_executions e on e.id in (
        select o.id from eval_executions o
        where o.run_id = r.id and o.status in ('pending', 'leased') and (o.status = 'pending' or o.lease_until < @now)
        order by o.attempt, o.id
        limit @max
      )
      where r.status in ('queued', 'running')
    )
    order by turn, run_created_at, run_id
    limit @max
  `);
  const leasable = (now: string, max: number) => leasableQuery.all({ now, max });

  return {
    evalCases: {
      async get(workspaceId, id) {
        const row = caseById.get({ id, workspaceId });
        return row && toCase(row);
      },
      async getMany(workspaceId, ids) {
        if (ids.length === 0) return [];
        return casesByIds.all({ workspaceId, ids: JSON.stringify(ids) }).map(toCase);
      },
      async list(workspaceId, agent) {
        return db
          .select()
          .from(evalCases)
          .where(liveCasesOf(evalCases, workspaceId, agent))
          .orderBy(asc(evalCases.createdAt), asc(evalCases.id))
          .all()
          .map(toCase);
      },
      async page(workspaceId, agent, { limit, after }) {
        const rows = db
          .select()
          .from(evalCases)
          .where(liveCasesOf(evalCases, workspaceId, agent, after))
          .orderBy(asc(evalCases.createdAt), asc(evalCases.id))
          .limit(limit + 1)
          .all();
        return pageOf(rows.map(toCase), limit);
      },
      async ofRun(workspaceId, runId) {
        const rows = await db
          .select({ evalCase: evalCases })
          .from(evalResults)
          .innerJoin(evalCases, eq(evalCases.id, evalResults.caseId))
          .where(and(eq(evalResults.runId, runId), eq(evalCases.workspaceId, workspaceId)))
          .all();
        return rows.map((row) => toCase(row.evalCase));
      },
      async create(evalCase) {
        await write(() => db.insert(evalCases).values(caseRow(evalCase)).run());
      },
      async update(workspaceId, id, { agent, turns, expected, updatedAt }) {
        const result = await write(() =>
          db
            .update(evalCases)
            .set({ agent, turns: JSON.stringify(turns), expected, updatedAt })
            .where(and(eq(evalCases.id, id), eq(evalCases.workspaceId, workspaceId), isNull(evalCases.deletedAt)))
            .run(),
        );
        return result.changes > 0;
      },
      async remove(workspaceId, id, at) {
        const result = await write(() =>
          db
            .update(evalCases)
            .set({ deletedAt: at, updatedAt: at })
            .where(and(eq(evalCases.id, id), eq(evalCases.workspaceId, workspaceId), isNull(evalCases.deletedAt)))
            .run(),
        );
        return result.changes > 0;
      },
    },
    evalRuns: {
      async create(run, executions) {
        const cases = JSON.stringify([...new Set(executions.map((execution) => execution.caseId))]);
        await write(() => {
          db.insert(evalRuns).values(runRow(run)).run();
          for (const execution of executions) insertExecution.run(executionRow(execution));
          insertResults.run({ runId: run.id, cases, total: run.repeat, minPass: run.minPass, baseline: run.baselineRunId });
        });
      },
      async get(workspaceId, id) {
        const row = runById(id);
        return row && row.workspaceId === workspaceId ? toRun(row) : undefined;
      },
      async find(id) {
        const row = runById(id);
        return row && toRun(row);
      },
      async list(workspaceId, environment, { limit, after }) {
        const rows = db
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
          .limit(limit + 1)
          .all();
        return pageOf(rows.map(toRun), limit);
      },
      async fixing(workspaceId, environment, caseId, versionId, by) {
        const row = db
          .select({ id: evalRuns.id })
          .from(evalResults)
          .innerJoin(evalRuns, eq(evalRuns.id, evalResults.runId))
          .where(passedBy({ results: evalResults, runs: evalRuns }, { workspaceId, environment, caseId, versionId, by }))
          .orderBy(desc(evalRuns.finishedAt), desc(evalRuns.id))
          .limit(1)
          .get();
        return row?.id;
      },
      async latestFinished(workspaceId, environment) {
        const row = db
          .select()
          .from(evalRuns)
          .where(and(eq(evalRuns.workspaceId, workspaceId), eq(evalRuns.environment, environment), eq(evalRuns.status, 'finished')))
          .orderBy(desc(evalRuns.finishedAt), desc(evalRuns.id))
          .limit(1)
          .get();
        return row && toRun(row);
      },
      async settledBelow() {
        // Writes are serial and a reader sees only what is committed (or its own group's): all of it is settled.
        return Number.MAX_SAFE_INTEGER;
      },
      async executions(runId) {
        return executionsOfRun.all({ runId }).map((row) => toExecution(row.execution));
      },
      async overrides(runId) {
        return overridesOfRun.all({ runId });
      },
      async verdictsIn(runIds, caseIds) {
        if (runIds.length === 0 || caseIds.length === 0) return [];
        const rows = await db
          .select({ runId: evalResults.runId, caseId: evalResults.caseId, verdict: evalResults.verdict })
          .from(evalResults)
          .where(and(inArray(evalResults.runId, runIds), inArray(evalResults.caseId, caseIds), isNotNull(evalResults.verdict)))
          .all();
        return rows.map((row) => ({ ...row, verdict: row.verdict! }));
      },
      async baselineVerdicts(runId) {
        return new Map(baselineVerdictsOf.all({ runId }).map((row) => [row.caseId, row.baseline!]));
      },
      async reviewTallies(workspaceId, sinceDay) {
        const rows = db
          .select({
            grader: graderReviews.grader,
            graded: graderReviews.graded,
            person: graderReviews.person,
            reviews: sql<number>`sum(${graderReviews.reviews})`,
          })
          .from(graderReviews)
          .where(and(eq(graderReviews.workspaceId, workspaceId), gte(graderReviews.day, sinceDay)))
          .groupBy(graderReviews.grader, graderReviews.graded, graderReviews.person)
          // A verdict taken back leaves its day's tally at 0 rather than delete it.
          .having(sql`sum(${graderReviews.reviews}) > 0`)
          .all();
        return rows.map(toReviewTally);
      },
      async override(runId, caseId, override) {
        await write(() => {
          untallyReview.run({ runId, caseId });
          if (override === null) {
            db.delete(evalOverrides)
              .where(and(eq(evalOverrides.runId, runId), eq(evalOverrides.caseId, caseId)))
              .run();
          } else {
            const { verdict, by, at } = override;
            db.insert(evalOverrides)
              .values({ runId, caseId, verdict, by, at })
              .onConflictDoUpdate({ target: [evalOverrides.runId, evalOverrides.caseId], set: { verdict, by, at } })
              .run();
          }
          overrideResult.run({ runId, caseId, override: override?.verdict ?? null });
          rebaseResults.run({ runId, caseId });
          recountRuns.run({ runId });
          tallyReview.run({ runId, caseId });
        });
      },
      async cancel(workspaceId, id, at) {
        return write(() => {
          const cancelled = db
            .update(evalRuns)
            .set({ status: 'cancelled', finishedAt: at })
            .where(
              and(
                eq(evalRuns.id, id),
                eq(evalRuns.workspaceId, workspaceId),
                inArray(evalRuns.status, openRunStatuses),
                exists(openExecutionsOf(id)),
              ),
            )
            .run();
          if (cancelled.changes === 0) return false;
          db.update(evalExecutions)
            .set({ status: 'cancelled' })
            .where(and(eq(evalExecutions.runId, id), inArray(evalExecutions.status, openExecutionStatuses)))
            .run();
          return true;
        });
      },
      async finish(runId, at, flagChanges) {
        try {
          return await write(() => {
            const finished = db
              .update(evalRuns)
              .set({ status: 'finished', finishedAt: at })
              .where(and(eq(evalRuns.id, runId), inArray(evalRuns.status, openRunStatuses), notExists(openExecutionsOf(runId))))
              .run();
            if (finished.changes === 0) return 'not_finishable' as const;
            for (const change of flagChanges) if (!applyFlagChange(db, change)) throw new FlagMoved();
            return 'finished' as const;
          });
        } catch (error) {
          if (error instanceof FlagMoved) return 'flag_moved';
          throw error;
        }
      },
      async complete() {
        const rows = db
          .select({ id: evalRuns.id })
          .from(evalRuns)
          .where(and(inArray(evalRuns.status, openRunStatuses), notExists(openExecutionsOf(evalRuns.id))))
          .all();
        return rows.map((row) => row.id);
      },
      async passedWhileOpen(environment, after, limit) {
        return passedWhileOpenQuery.all({ environment, after: after ?? '', limit });
      },
    },
    evalWork: {
      async lease(owner, max, now, until) {
        return write(() => {
          const leased: LeasedExecutionRecord[] = [];
          for (const { id, status } of leasable(now, max)) {
            const row = takeExecution.get({ id, owner, leaseId: newId('lease'), until, now });
            if (row) leased.push(Object.assign(toExecution(row), { reclaimed: status === 'leased' }));
          }
          const runIds = [...new Set(leased.map((e) => e.runId))];
          if (runIds.length > 0)
            db.update(evalRuns)
              .set({ status: 'running' })
              .where(and(inArray(evalRuns.id, runIds), eq(evalRuns.status, 'queued')))
              .run();
          return leased;
        });
      },
      async renew(leases, until) {
        return write(() =>
          leases.flatMap(({ executionId, leaseId }) => {
            const renewed = renewLease.run({ id: executionId, leaseId, until });
            return renewed.changes > 0 ? [executionId] : [];
          }),
        );
      },
      async report(report) {
        return write(() => {
          const execution = leasedExecution.get({ id: report.executionId, leaseId: report.leaseId });
          if (!execution) return { accepted: false as const };
          const run = runById(execution.runId);
          if (!run) throw new Error(`run ${execution.runId} of execution ${execution.id} vanished`);
          const { replay } = report;
          if (replay) {
            insertChat.run({
              id: replay.chatId,
              workspaceId: run.workspaceId,
              agent: execution.agent,
              environment: run.environment,
              versionId: run.versionId,
              channel: replay.channel,
              replay: true,
              createdAt: replay.createdAt,
            });
            insertMessages(replay.messages.map((message) => Object.assign({}, message, { chatId: replay.chatId })));
          }
          finishExecution.run({
            id: execution.id,
            runId: run.id,
            verdict: report.verdict,
            reasoning: report.reasoning,
            replayChatId: replay?.chatId ?? null,
            inputTokens: report.tokens.input,
            outputTokens: report.tokens.output,
            judgeInputTokens: report.judgeTokens.input,
            judgeOutputTokens: report.judgeTokens.output,
            finishedAt: report.at,
          });
          const result = addReplay.get({
            runId: run.id,
            caseId: execution.caseId,
            pass: report.verdict === 'pass' ? 1 : 0,
            error: report.verdict === 'error' ? 1 : 0,
          });
          if (!result) throw new Error(`run ${run.id} has no result for case ${execution.caseId}`);
          addResult.run({ runId: run.id, ...result, input: report.tokens.input, output: report.tokens.output });
          const left = anyOpenExecution.get({ runId: run.id });
          return { accepted: true as const, runId: run.id, runComplete: !left };
        });
      },
      async backlog(now) {
        return db
          .select(evalBacklogColumns(evalExecutions, now))
          .from(evalExecutions)
          .where(inArray(evalExecutions.status, openExecutionStatuses))
          .get()!;
      },
    },
  };
}
