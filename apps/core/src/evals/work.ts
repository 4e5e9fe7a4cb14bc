import { DomainError, replayedTurns, type Verdict } from '@svc/domain';
import type { Logger } from '@svc/server-kit';
import type { CoreMetrics } from '../platform/metrics.ts';
import type { EvalExecutionRecord } from './store.ts';
import type { Store } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import type { DeploymentService } from '../agents/deployments.ts';
import type { EvalRunService } from './runs.ts';
import { newId } from '../platform/ids.ts';
import type { WorkSignal } from '../platform/work-signal.ts';

/** The channel replay chats are recorded on. */
export const replayChannel = 'eval';

export interface LeasedExecution {
  id: string;
  lease_id: string;
  lease_until: string;
  run_id: string;
  case_id: string;
  attempt: number;
  workspace_id: string;
  environment: string;
  version_id: string;
  agent: string;
  /** The last turns of the case: what a replay sends. */
  turns: string[];
  expected: string;
  /** The judge model, or null for the deterministic grader. */
  judge: string | null;
  secrets: Record<string, string>;
}

export interface ReplayReport {
  id: string;
  lease_id: string;
  verdict: Verdict;
  reasoning: string;
  tokens: { input: number; output: number };
  judge_tokens: { input: number; output: number };
  messages: { role: 'visitor' | 'agent'; text: string; trace: unknown; created_at: string }[];
}

export interface EvalWorkDeps {
  store: Store;
  deployments: DeploymentService;
  runs: EvalRunService;
  config: { evals: { leaseMs: number } };
  clock: Clock;
  log: Logger;
  work: WorkSignal;
  /** Wakes those following runs (their event streams): a report landed. */
  reported: WorkSignal;
  metrics: Pick<CoreMetrics, 'executionFinished' | 'leasesReclaimed'>;
}

/**
 * What eval runners ask of core: executions to replay (leased with a deadline, fairly across runs), the bundles of
 * versions, lease renewals, and their reports. Core only records; the model calls happen in the runners.
 */
export function createEvalWorkService({ store, deployments, runs, config, clock, log, work, reported, metrics }: EvalWorkDeps) {
  /** What runners need of leased executions: each run, each workspace's cases and each environment's secrets read once. */
  async function describe(executions: EvalExecutionRecord[]): Promise<LeasedExecution[]> {
    const runIds = [...new Set(executions.map((execution) => execution.runId))];
    const runsById = new Map(
      (await Promise.all(runIds.map((id) => store.evalRuns.find(id)))).flatMap((run) => (run ? [[run.id, run]] : [])),
    );
    const caseIds = new Map<string, Set<string>>();
    const environments = new Map<string, { workspaceId: string; environment: string }>();
    for (const execution of executions) {
      const run = runsById.get(execution.runId);
      if (!run) continue;
      caseIds.set(run.workspaceId, (caseIds.get(run.workspaceId) ?? new Set()).add(execution.caseId));
      environments.set(`${run.workspaceId}/${run.environment}`, { workspaceId: run.workspaceId, environment: run.environment });
    }
    const [caseLists, secretValues] = await Promise.all([
      Promise.all([...caseIds].map(([workspaceId, ids]) => store.evalCases.getMany(workspaceId, [...ids]))),
      Promise.all(
        [...environments].map(
          async ([key, { workspaceId, environment }]) => [key, await deployments.secretValues(workspaceId, environment)] as const,
        ),
      ),
    ]);
    const cases = new Map(caseLists.flat().map((evalCase) => [evalCase.id, evalCase]));
    const secrets = new Map(secretValues);
    return executions.flatMap((execution): LeasedExecution[] => {
      const run = runsById.get(execution.runId);
      const evalCase = cases.get(execution.caseId);
      if (!run || !evalCase) return [];
      return [
        {
          id: execution.id,
          lease_id: execution.leaseId ?? '',
          lease_until: execution.leaseUntil ?? '',
          run_id: run.id,
          case_id: evalCase.id,
          attempt: execution.attempt,
          workspace_id: run.workspaceId,
          environment: run.environment,
          version_id: run.version.id,
          agent: execution.agent,
          turns: evalCase.turns.slice(-replayedTurns),
          expected: evalCase.expected,
          judge: execution.judge,
          secrets: secrets.get(`${run.workspaceId}/${run.environment}`) ?? {},
        },
      ];
    });
  }

  return {
    /** Up to `max` executions, as soon as there are any or after `waitMs`; none once the runner has hung up. */
    async lease(
      runner: string,
      max: number,
      waitMs: number,
      abort?: AbortSignal,
    ): Promise<{ lease_ms: number; executions: LeasedExecution[] }> {
      const leased = await work.poll(waitMs, abort, () => {
        const now = clock();
        return store.evalWork.lease(runner, max, now.toISOString(), new Date(now.getTime() + config.evals.leaseMs).toISOString());
      });
      const reclaimed = leased.filter((execution) => execution.reclaimed);
      for (const execution of reclaimed)
        log.warn({ execution: execution.id, run: execution.runId, runner }, 'leased again: the runner that held it let its lease expire');
      metrics.leasesReclaimed(reclaimed.length);
      return { lease_ms: config.evals.leaseMs, executions: await describe(leased) };
    },

    /** Ends every long poll (runners' and run followers'): core is stopping. */
    stop(): void {
      work.close();
      reported.close();
    },

    async bundle(workspaceId: string, versionId: string): Promise<{ files: Record<string, string> }> {
      const version = await store.versions.get(workspaceId, versionId);
      if (!version) throw new DomainError('not_found', `no version ${versionId} in workspace ${workspaceId}`);
      return { files: version.files };
    },

    async renew(leases: { id: string; lease_id: string }[]): Promise<{ renewed: string[] }> {
      const until = new Date(clock().getTime() + config.evals.leaseMs).toISOString();
      const renewed = await store.evalWork.renew(
        leases.map((l) => ({ executionId: l.id, leaseId: l.lease_id })),
        until,
      );
      return { renewed };
    },

    /** Records a replay and its verdict, unless its lease is no longer the runner's; the run's last one finishes it. */
    async report(report: ReplayReport): Promise<{ accepted: boolean }> {
      const at = clock().toISOString();
      const chatId = newId('chat');
      const outcome = await store.evalWork.report({
        executionId: report.id,
        leaseId: report.lease_id,
        verdict: report.verdict,
        reasoning: report.reasoning,
        tokens: report.tokens,
        judgeTokens: report.judge_tokens,
        replay:
          report.messages.length === 0
            ? null
            : {
                chatId,
                channel: replayChannel,
                createdAt: report.messages[0]?.created_at ?? at,
                messages: report.messages.map((m) => ({
                  id: newId('msg'),
                  chatId,
                  role: m.role,
                  text: m.text,
                  trace: m.trace ?? null,
                  createdAt: m.created_at,
                })),
              },
        at,
      });
      if (!outcome.accepted) {
        log.info({ execution: report.id }, "eval report refused: its lease is not the runner's any more");
        return { accepted: false };
      }
      metrics.executionFinished(report.verdict);
      if (outcome.runComplete) {
        await runs.finish(outcome.runId);
        work.notify();
      }
      reported.notify();
      return { accepted: true };
    },
  };
}

export type EvalWorkService = ReturnType<typeof createEvalWorkService>;
