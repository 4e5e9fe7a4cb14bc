/** What a model sees of a conversation, provider-neutral; each provider maps it to its wire format. */
export type Step =
  | { kind: 'visitor'; text: string }
  | { kind: 'agent'; text: string }
  | { kind: 'tool_calls'; text?: string; calls: ToolCallRequest[] }
  | { kind: 'tool_result'; id: string; name: string; content: string };

export interface ToolCallRequest {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelTurn {
  text: string;
  toolCalls: ToolCallRequest[];
  usage: { input: number; output: number };
}

export interface ModelRequest {
  system: string;
  steps: Step[];
  tools: ToolDefinition[];
  temperature?: number;
}

export interface ModelProvider {
  /** The model's family (openai, anthropic, meta, ...): a judge must come from another one. */
  family: string;
  model: string;
  next(request: ModelRequest): Promise<ModelTurn>;
}
