import type { EgressRules } from './egress.ts';
import { KnowledgeIndex, type KnowledgeHit, knowledgeToolName } from './knowledge.ts';
import type { AgentDefinition } from './manifest.ts';
import { anthropicProvider, type AnthropicSettings } from './providers/anthropic.ts';
import { defaultModelTimeoutMs } from './providers/deadline.ts';
import { type ModelCall, type ModelCallObserver, observed } from './providers/observed.ts';
import { openAiProvider, type OpenAiSettings } from './providers/openai.ts';
import { scriptedProvider } from './providers/scripted.ts';
import { callTool, redact, type ToolCallTrace } from './tools.ts';
import type { ModelProvider, Step, ToolDefinition } from './transcript.ts';

export type { ModelCall, ModelCallObserver };

export interface ProviderSettings {
  openai?: OpenAiSettings;
  anthropic?: AnthropicSettings;
  /**
   * How long one model call may take, the client's retries included, before it fails with `ModelTimeout`
   * (SVC_MODEL_TIMEOUT_MS; 60 s unless told).
   */
  timeoutMs?: number;
  /** Told of every model call as it ends (an agent's turn, a judge's grading): what metrics count. */
  onModelCall?: ModelCallObserver;
}

export interface ChatMessage {
  role: 'visitor' | 'agent';
  text: string;
}

export interface TurnTrace {
  model: string;
  family: string;
  tool_calls: ToolCallTrace[];
  knowledge_lookups: { query: string; hits: KnowledgeHit[] }[];
  tokens: { input: number; output: number };
  rounds: number;
}

export interface TurnResult {
  reply: string;
  trace: TurnTrace;
}

/** Rounds of tool calls a turn may take before it must answer. */
const maxRounds = 6;

/**
 * The model named `provider:model` (`openai:gpt-4.1-mini`, `anthropic:claude-sonnet-4-5`), its calls observed for
 * `purpose`; undefined for another provider.
 */
export function modelProvider(
  name: string,
  settings: ProviderSettings,
  purpose: ModelCall['purpose'] = 'agent',
): ModelProvider | undefined {
  const [provider, ...rest] = name.split(':');
  const model = rest.join(':');
  const timeoutMs = settings.timeoutMs ?? defaultModelTimeoutMs;
  if (provider === 'openai')
    return observed(openAiProvider(model, settings.openai ?? {}, timeoutMs), provider, purpose, settings.onModelCall);
  if (provider === 'anthropic')
    return observed(anthropicProvider(model, settings.anthropic ?? {}, timeoutMs), provider, purpose, settings.onModelCall);
  return undefined;
}

export function providerFor(agent: AgentDefinition, settings: ProviderSettings): ModelProvider {
  return (
    modelProvider(agent.manifest.model, settings) ?? observed(scriptedProvider(agent.manifest), 'scripted', 'agent', settings.onModelCall)
  );
}

const knowledgeTool: ToolDefinition = {
  name: knowledgeToolName,
  description: "Search the agent's knowledge files; returns the most relevant passages.",
  parameters: { type: 'object', properties: { query: { type: 'string', description: 'what to look up' } }, required: ['query'] },
};

/** An agent ready to answer: its provider and knowledge index, built once per deployed version. */
export class AgentRunner {
  private readonly knowledge: KnowledgeIndex;
  private readonly provider: ModelProvider;

  constructor(
    readonly agent: AgentDefinition,
    settings: ProviderSettings,
    /** Where its tools may connect. */
    private readonly egress: EgressRules,
  ) {
    this.knowledge = new KnowledgeIndex(agent.knowledge);
    this.provider = providerFor(agent, settings);
  }

  get family(): string {
    return this.provider.family;
  }

  /**
   * One agent turn: the model answers the visitor, calling tools on the customer's backend (with the
   * environment's secrets) and searching the knowledge as it needs. Everything it did is in the trace,
   * with secrets redacted.
   */
  async reply(history: ChatMessage[], text: string, secrets: Record<string, string>): Promise<TurnResult> {
    const tools: ToolDefinition[] = this.agent.manifest.tools.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    }));
    if (!this.knowledge.empty) tools.push(knowledgeTool);
    const steps: Step[] = [...history.map((m): Step => ({ kind: m.role, text: m.text })), { kind: 'visitor', text }];
    const trace: TurnTrace = {
      model: this.agent.manifest.model,
      family: this.provider.family,
      tool_calls: [],
      knowledge_lookups: [],
      tokens: { input: 0, output: 0 },
      rounds: 0,
    };
    for (let round = 0; round < maxRounds; round++) {
      const turn = await this.provider.next({
        system: this.agent.instructions,
        steps,
        tools,
        temperature: this.agent.manifest.temperature,
      });
      trace.rounds += 1;
      trace.tokens.input += turn.usage.input;
      trace.tokens.output += turn.usage.output;
      if (turn.toolCalls.length === 0) return { reply: redact(turn.text, secrets), trace };
      steps.push({ kind: 'tool_calls', text: turn.text, calls: turn.toolCalls });
      for (const call of turn.toolCalls) {
        steps.push({
          kind: 'tool_result',
          id: call.id,
          name: call.name,
          content: await this.runTool(call.name, call.args, secrets, trace),
        });
      }
    }
    return { reply: 'Sorry, I could not finish that. Please try again.', trace };
  }

  private async runTool(name: string, args: Record<string, unknown>, secrets: Record<string, string>, trace: TurnTrace): Promise<string> {
    if (name === knowledgeToolName) {
      const query = typeof args.query === 'string' ? args.query : '';
      const hits = this.knowledge.search(query);
      trace.knowledge_lookups.push({ query, hits });
      return JSON.stringify({ hits });
    }
    const spec = this.agent.manifest.tools.find((t) => t.name === name);
    if (!spec) return JSON.stringify({ error: `no tool named ${name}` });
    const call = await callTool(spec, args, secrets, this.egress);
    trace.tool_calls.push(call);
    // The model sees the backend's answer unredacted only where it has no secret in it: redaction applied.
    return JSON.stringify({ status: call.status, body: call.response, error: call.error });
  }
}
