import {
  AgentRunner,
  AgentRunnerCache,
  type Bundle,
  type ChatMessage,
  deterministicGrader,
  type EgressRules,
  type Grader,
  judge,
  parseBundle,
  type ProviderSettings,
  type TurnTrace,
} from '@svc/agent-runtime';
import type { AppRouter } from '@svc/core-client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { LRUCache } from 'lru-cache';

export type LeasedExecution = inferRouterOutputs<AppRouter>['evalWork']['lease']['executions'][number];
export type ExecutionReport = inferRouterInputs<AppRouter>['evalWork']['report'];

interface ReplayedMessage {
  role: 'visitor' | 'agent';
  text: string;
  trace: TurnTrace | null;
  created_at: string;
}

const now = () => new Date().toISOString();
const failure = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Replays leased executions: the agent of the pinned version answers each visitor turn in order, the history
 * growing with each reply, then the grader reads the replay. Bundles and agents are fetched and built once per
 * version; judges once per model.
 */
export function createReplayer({
  bundle,
  providers,
  egress,
}: {
  /** Core's copy of a version's files. */
  bundle: (workspaceId: string, versionId: string) => Promise<Record<string, string>>;
  providers: ProviderSettings;
  egress: EgressRules;
}) {
  const bundles = new LRUCache<string, Promise<Bundle>>({ max: 64 });
  const agents = new AgentRunnerCache();
  const judges = new Map<string, Grader>();

  const bundleOf = (workspaceId: string, versionId: string) => {
    let parsed = bundles.get(versionId);
    if (!parsed) {
      parsed = bundle(workspaceId, versionId).then(parseBundle);
      parsed.catch(() => bundles.delete(versionId)); // asked again next time
      bundles.set(versionId, parsed);
    }
    return parsed;
  };

  const agentOf = (execution: LeasedExecution) =>
    agents.get(`${execution.version_id}:${execution.agent}`, async () => {
      const agent = (await bundleOf(execution.workspace_id, execution.version_id)).agents.find((a) => a.slug === execution.agent);
      if (!agent) throw new Error(`agent "${execution.agent}" is not in version ${execution.version_id}`);
      return new AgentRunner(agent, providers, egress);
    });

  const graderOf = (model: string | null): Grader => {
    if (!model) return deterministicGrader;
    let grader = judges.get(model);
    if (!grader) judges.set(model, (grader = judge(model, providers)));
    return grader;
  };

  /** Replays one execution and grades it: what to report. A failing agent turn makes the case an error with its message. */
  async function replay(execution: LeasedExecution): Promise<ExecutionReport> {
    const messages: ReplayedMessage[] = [];
    const history: ChatMessage[] = [];
    const tokens = { input: 0, output: 0 };
    const report = (grade: Pick<ExecutionReport, 'verdict' | 'reasoning' | 'judge_tokens'>): ExecutionReport => ({
      id: execution.id,
      lease_id: execution.lease_id,
      ...grade,
      tokens,
      messages,
    });
    const noJudgeTokens = { input: 0, output: 0 };
    let agent: AgentRunner;
    try {
      agent = await agentOf(execution);
    } catch (error) {
      return report({ verdict: 'error', reasoning: `the agent could not be loaded: ${failure(error)}`, judge_tokens: noJudgeTokens });
    }
    for (const text of execution.turns) {
      messages.push({ role: 'visitor', text, trace: null, created_at: now() });
      try {
        const { reply, trace } = await agent.reply(history, text, execution.secrets);
        tokens.input += trace.tokens.input;
        tokens.output += trace.tokens.output;
        messages.push({ role: 'agent', text: reply, trace, created_at: now() });
        history.push({ role: 'visitor', text }, { role: 'agent', text: reply });
      } catch (error) {
        return report({ verdict: 'error', reasoning: `the agent's model failed: ${failure(error)}`, judge_tokens: noJudgeTokens });
      }
    }
    const grade = await graderOf(execution.judge).grade({ messages: history, expected: execution.expected });
    return report({ verdict: grade.verdict, reasoning: grade.reasoning, judge_tokens: grade.tokens });
  }

  return { replay };
}
