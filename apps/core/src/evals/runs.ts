import { parseBundle } from '@svc/agent-runtime';
import {
  caseQuestion,
  DomainError,
  type EvalResultView,
  type EvalRunDetailView,
  type EvalRunView,
  maxPageLimit,
  type PageQuery,
  type RunTrigger,
  type StartRunInput,
} from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import { z } from 'zod';
import { authorize } from '../platform/authorization.ts';
import type { CoreConfig } from '../platform/config.ts';
import { type EvalRunCounts, type EvalRunRecord, newRunCounts, pendingExecution } from './store.ts';
import type { Membership, Store } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import { liveEnvironment } from '../agents/deployments.ts';
import { gradeRun, replaysByCase, resultOf } from './results.ts';
import { type FlagService, systemActor } from '../flags/service.ts';
import { newId } from '../platform/ids.ts';
import { deterministicGrader, judgeFor } from './judges.ts';
import { nextCursorOf, pageRequest } from '../platform/pages.ts';
import type { WorkSignal } from '../platform/work-signal.ts';

/** Open flags the start-up repair reads at a time. */
const repairBatch = 100;

/** Finishing a run is recomputed when a flag changes meanwhile, this many times at most. */
const maxFinishAttempts = 5;

/** The environment a run replays when none is named. */
export const defaultRunEnvironment = 'preview';

const wellKnownEnvironments: readonly string[] = [liveEnvironment, defaultRunEnvironment];

export interface EvalRunDeps {
  store: Store;
  flags: FlagService;
  config: CoreConfig;
  clock: Clock;
  log: Logger;
  /** Wakes runners waiting for work. */
  work: WorkSignal;
  /** Wakes those following runs (their event streams): a run ended. */
  reported?: WorkSignal;
  /** Told of every run that finished or was cancelled (a pull request's preview reports it there). */
  ended?: (runId: string) => Promise<void>;
}

/** Eval runs: started on an environment's version, graded from their replays, read while and after they run. */
export function createEvalRunService({ store, flags, config, clock, log, work, reported, ended = async () => {} }: EvalRunDeps) {
  /** What follows a run's end must not undo it: a failure there is logged, the run stays ended. */
  async function announceEnd(runId: string): Promise<void> {
    try {
      await ended(runId);
    } catch (error) {
      log.error({ run: runId, err: error }, 'an ended eval run could not be announced');
    }
  }

  async function found(workspaceId: string, id: string): Promise<EvalRunRecord> {
    const run = await store.evalRuns.get(workspaceId, id);
    if (!run) throw new DomainError('eval_run_not_found', `no eval run ${id} in this workspace`);
    return run;
  }

  /** The run's cases named by their first visitor turn, read in one go. */
  async function questionsOf(run: EvalRunRecord, caseIds: string[]): Promise<Map<string, string>> {
    const cases = await store.evalCases.getMany(run.workspaceId, caseIds);
    return new Map(cases.map((c) => [c.id, caseQuestion(c.turns)]));
  }

  async function graded(run: EvalRunRecord) {
    const [executions, overrides, baseline] = await Promise.all([
      store.evalRuns.executions(run.id),
      store.evalRuns.overrides(run.id),
      store.evalRuns.baselineVerdicts(run.id),
    ]);
    const questions = await questionsOf(run, [...replaysByCase(executions).keys()]);
    // The moment the last replay was reported: when the run is done, whenever its finish is written.
    const reportedAt = executions.reduce<string | null>(
      (latest, e) => (e.finishedAt && (!latest || e.finishedAt > latest) ? e.finishedAt : latest),
      null,
    );
    return { ...gradeRun(run, executions, overrides, baseline, questions), reportedAt, executions };
  }

  /** A run as lists show it, with its counts as stored, or as graded from its executions when given. */
  function view(run: EvalRunRecord, counts: EvalRunCounts = run.counts): EvalRunView {
    return {
      id: run.id,
      environment: run.environment,
      agent: run.agent,
      version: run.version,
      trigger: run.trigger,
      status: run.status,
      repeat: run.repeat,
      min_pass: run.minPass,
      ...counts,
      skipped: run.skipped.length,
      finished: run.status === 'finished' || run.status === 'cancelled',
      grader: run.grader,
      agent_models: run.agentModels,
      created_by: run.createdBy,
      created_at: run.createdAt,
      finished_at: run.finishedAt,
    };
  }

  async function detail(run: EvalRunRecord): Promise<EvalRunDetailView> {
    const { results, counts } = await graded(run);
    return {
      ...view(run, counts),
      baseline_run_id: run.baselineRunId,
      results,
      skipped_cases: run.skipped.map((s) => ({ case_id: s.caseId, agent: s.agent })),
    };
  }

  /**
   * A person's verdict on a case of a finished run on live: a pass fixes the case's open flag, and a fail opens again
   * the flag this run's version fixed.
   */
  async function overrideFlag(run: EvalRunRecord, result: EvalResultView, actor: string): Promise<void> {
    if (run.environment !== liveEnvironment || run.status !== 'finished') return;
    const flag = await flags.originOf(run.workspaceId, result.case_id);
    if (!flag) return;
    try {
      if (result.verdict === 'pass' && flag.status === 'open' && flag.note) {
        await flags.markFixed(flag.id, run.version.id, clock().toISOString(), actor);
      } else if (result.verdict !== 'pass' && flag.status === 'fixed') {
        await flags.markUnfixed(run.workspaceId, flag.id, run.version.id, actor);
      }
    } catch (error) {
      // A flag that changed meanwhile (removed, its note cleared) keeps the state a member gave it.
      if (!(error instanceof DomainError)) throw error;
      log.info({ run: run.id, flag: flag.id, reason: error.message }, 'an override left a flag as it was');
    }
  }

  /**
   * Finishes a run whose executions are all done. On live, its passes fix their flags in the same transaction, so
   * whoever reads the run finished sees its flags fixed. Recomputed when a flag changes meanwhile.
   */
  async function finish(runId: string): Promise<void> {
    for (let attempt = 1; attempt <= maxFinishAttempts; attempt++) {
      const run = await store.evalRuns.find(runId);
      if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
      const { results, counts, reportedAt } = await graded(run);
      const at = reportedAt ?? clock().toISOString();
      const passed = results.filter((r) => r.verdict === 'pass').map((r) => r.case_id);
      const fixes = run.environment === liveEnvironment ? await flags.fixesBy(run.workspaceId, passed, run.version, at) : [];
      const outcome = await store.evalRuns.finish(run.id, at, fixes);
      if (outcome === 'flag_moved') continue;
      if (outcome === 'finished') {
        log.info({ run: run.id, environment: run.environment, ...counts, flags_fixed: fixes.length }, 'eval run finished');
        await announceEnd(run.id);
      }
      return;
    }
    // Left complete but open: the next core to start finishes it.
    log.warn({ run: runId }, 'eval run not finished: its flags kept changing while it finished');
  }

  /** Starts a run of the workspace's cases (one agent's, when named) on an environment's current version. */
  async function start(
    membership: Membership,
    createdBy: string,
    input: StartRunInput,
    trigger: RunTrigger = 'manual',
  ): Promise<EvalRunView> {
    if (trigger === 'manual') authorize(membership, 'runEvals');
    const name = input.environment ?? defaultRunEnvironment;
    const environment = await store.environments.get(membership.id, name);
    // Live and preview are every workspace's from the start: before a push or a publish they hold nothing yet.
    if (!environment && !wellKnownEnvironments.includes(name)) {
      throw new DomainError('environment_not_found', `no environment "${name}": deploy to it first (svc push)`);
    }
    const version = environment?.version;
    if (!version) throw new DomainError('nothing_deployed', `nothing is deployed to "${name}" yet`);
    const models = new Map(parseBundle(version.files).agents.map((a) => [a.slug, a.manifest.model]));
    if (input.agent && !models.has(input.agent)) {
      throw new DomainError('agent_not_found', `no agent "${input.agent}" in ${name} (version v${version.number})`);
    }
    const cases = await store.evalCases.list(membership.id, input.agent);
    if (cases.length === 0) {
      throw new DomainError(
        'no_eval_cases',
        `no eval cases${input.agent ? ` for ${input.agent}` : ''}: flag a reply with a note, or add one`,
      );
    }
    const matched = cases.filter((c) => models.has(c.agent));
    if (matched.length === 0) {
      const lacking = [...new Set(cases.map((c) => c.agent))].join(', ');
      throw new DomainError('no_eval_cases', `${name} (v${version.number}) has none of the agents the cases are for (${lacking})`);
    }
    const judges = new Map<string, string | null>();
    for (const agent of new Set(matched.map((c) => c.agent))) judges.set(agent, judgeFor(models.get(agent) ?? '', config.evals.judges));
    const judgeModels = [...new Set([...judges.values()].filter((j): j is string => j !== null))];
    const repeat = input.repeat ?? 1;
    const at = clock().toISOString();
    const baseline = await store.evalRuns.latestFinished(membership.id, liveEnvironment);
    const run: EvalRunRecord = {
      id: newId('run'),
      workspaceId: membership.id,
      environment: name,
      agent: input.agent ?? null,
      version: { id: version.id, number: version.number },
      trigger,
      repeat,
      minPass: input.min_pass ?? repeat,
      grader: judgeModels.length > 0 ? judgeModels.join(',') : deterministicGrader,
      agentModels: [...new Set(matched.map((c) => models.get(c.agent) ?? ''))],
      status: 'queued',
      baselineRunId: baseline?.id ?? null,
      skipped: cases.filter((c) => !models.has(c.agent)).map((c) => ({ caseId: c.id, agent: c.agent })),
      createdBy,
      createdAt: at,
      finishedAt: null,
      counts: newRunCounts(matched.length),
    };
    const executions = matched.flatMap((c) =>
      Array.from({ length: repeat }, (_, i) =>
        pendingExecution({
          id: newId('exe'),
          runId: run.id,
          caseId: c.id,
          attempt: i + 1,
          agent: c.agent,
          judge: judges.get(c.agent) ?? null,
        }),
      ),
    );
    await store.evalRuns.create(run, executions);
    work.notify();
    log.info({ workspace: membership.slug, run: run.id, environment: name, cases: matched.length, trigger }, 'eval run started');
    // Just made, nothing in it graded yet: its counts are what it was made with, not read back.
    return view(run);
  }

  return {
    start,

    async list(workspaceId: string, environment: string | undefined, query: PageQuery) {
      const page = await store.evalRuns.list(workspaceId, environment, pageRequest(query, z.iso.datetime()));
      const runs = page.items.map((run) => view(run));
      return { runs, next_cursor: nextCursorOf(page, (run) => ({ key: run.createdAt, id: run.id })) };
    },

    /**
     * Each of these cases' verdicts in live's last `runs` finished runs with cases, oldest run first: a case's strip of
     * live results, read from those runs' results, not their replays.
     */
    async liveHistories(workspaceId: string, caseIds: string[], runs: number) {
      const page = await store.evalRuns.list(workspaceId, liveEnvironment, { limit: maxPageLimit });
      const finished = page.items.filter((run) => run.status === 'finished' && run.counts.cases > 0).slice(0, runs);
      const version = new Map(finished.map((run) => [run.id, run.version.number]));
      const verdicts = await store.evalRuns.verdictsIn([...version.keys()], caseIds);
      const order = new Map(finished.map((run, i) => [run.id, -i]));
      verdicts.sort((a, b) => order.get(a.runId)! - order.get(b.runId)!);
      return {
        histories: caseIds.map((caseId) => ({
          case_id: caseId,
          results: verdicts
            .filter((v) => v.caseId === caseId)
            .map((v) => ({ run_id: v.runId, version: version.get(v.runId)!, verdict: v.verdict })),
        })),
      };
    },

    async get(workspaceId: string, id: string): Promise<EvalRunDetailView> {
      return detail(await found(workspaceId, id));
    },

    /** A run as it stands, with the results of its done cases and the executions they come from. */
    async progress(workspaceId: string, id: string) {
      const run = await found(workspaceId, id);
      const { results, counts, executions } = await graded(run);
      return { run: view(run, counts), results, executions };
    },

    async cancel(membership: Membership, id: string): Promise<EvalRunView> {
      authorize(membership, 'runEvals');
      const run = await found(membership.id, id);
      if (!(await store.evalRuns.cancel(membership.id, id, clock().toISOString()))) {
        throw new DomainError('run_finished', `eval run ${id} is ${run.status === 'cancelled' ? 'cancelled' : 'finished'} already`);
      }
      reported?.notify();
      await announceEnd(id);
      return view(await found(membership.id, id));
    },

    /** A person's pass or fail replaces the grader's for one case; null gives the grader's back. */
    async override(
      membership: Membership,
      email: string,
      id: string,
      caseId: string,
      verdict: 'pass' | 'fail' | null,
    ): Promise<EvalResultView> {
      authorize(membership, 'overrideVerdicts');
      const run = await found(membership.id, id);
      const replays = replaysByCase(await store.evalRuns.executions(run.id)).get(caseId);
      if (!replays) throw new DomainError('eval_case_not_found', `eval case ${caseId} is not in run ${id}`);
      if (!replays.every((r) => r.status === 'done')) {
        throw new DomainError('result_pending', `eval case ${caseId} has not finished in run ${id}; override it once it has`);
      }
      const at = clock().toISOString();
      await store.evalRuns.override(run.id, caseId, verdict ? { runId: run.id, caseId, verdict, by: email, at } : null);
      const overrides = await store.evalRuns.overrides(run.id);
      const result = resultOf(run, replays, {
        override: overrides.find((o) => o.caseId === caseId),
        baseline: (await store.evalRuns.baselineVerdicts(run.id)).get(caseId) ?? null,
        question: (await questionsOf(run, [caseId])).get(caseId) ?? '',
      });
      await overrideFlag(run, result, email);
      return result;
    },

    /**
     * A publish to live replays every case there: the run that fixes flags and is the next baseline. None when the
     * workspace has no case for live's agents, or when no judge may grade them (the publish itself stands).
     */
    async afterPublish(membership: Membership): Promise<EvalRunView | undefined> {
      if ((await store.evalCases.page(membership.id, undefined, { limit: 1 })).items.length === 0) return undefined;
      try {
        return await start(membership, systemActor, { environment: liveEnvironment }, 'publish');
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        log.warn({ workspace: membership.slug, code: error.code, reason: error.message }, 'publish started no eval run');
        return undefined;
      }
    },

    finish,

    /**
     * What a core that stopped at the wrong moment left undone: runs whose executions were all reported but that were
     * not finished, and open flags that a finished run on live passed after they last changed (an earlier version
     * fixed flags after the finish, so a stop in between left them open). Reads only what is pending (open runs, open
     * flags), in batches, and stops between batches once `signal` aborts. Answers how many of each it finished and fixed.
     */
    async finishLeftOver(signal?: AbortSignal): Promise<{ runs: number; flags: number }> {
      const complete = await store.evalRuns.complete();
      for (const id of complete) await finish(id);
      let fixed = 0;
      let after: string | undefined;
      while (!signal?.aborted) {
        const batch = await store.evalRuns.passedWhileOpen(liveEnvironment, after, repairBatch);
        for (const { flagId, runId, versionId, finishedAt } of batch) {
          try {
            await flags.markFixed(flagId, versionId, finishedAt);
            fixed += 1;
          } catch (error) {
            // Changed since (removed, its note cleared): it keeps the state a member gave it.
            if (!(error instanceof DomainError)) throw error;
            log.info({ run: runId, flag: flagId, reason: error.message }, 'a finished run left a flag as it was');
          }
        }
        if (batch.length < repairBatch) break;
        after = batch.at(-1)?.flagId;
      }
      return { runs: complete.length, flags: fixed };
    },

    detail,
  };
}

export type EvalRunService = ReturnType<typeof createEvalRunService>;
