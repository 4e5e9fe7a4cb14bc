import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelProvider, ModelRequest, ModelTurn, Step } from '../transcript.ts';
import { withDeadline } from './deadline.ts';
import { clientOptions, modelFamily } from './family.ts';

export interface AnthropicSettings {
  baseURL?: string;
  apiKey?: string;
}

function toMessages(steps: Step[]): MessageParam[] {
  const messages: MessageParam[] = [];
  for (const step of steps) {
    if (step.kind === 'visitor') messages.push({ role: 'user', content: step.text });
    else if (step.kind === 'agent') messages.push({ role: 'assistant', content: step.text });
    else if (step.kind === 'tool_calls') {
      messages.push({
        role: 'assistant',
        content: [
          ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
          ...step.calls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.args })),
        ],
      });
    } else {
      const result = { type: 'tool_result' as const, tool_use_id: step.id, content: step.content };
      const last = messages.at(-1);
      // Results of one round of calls go back together, in one user message.
      if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(result);
      else messages.push({ role: 'user', content: [result] });
    }
  }
  return messages;
}

/** Anthropic's Messages API. `timeoutMs` bounds each call. */
export function anthropicProvider(model: string, settings: AnthropicSettings, timeoutMs: number): ModelProvider {
  const client = new Anthropic(clientOptions(settings, 'not-set', timeoutMs));
  return {
    family: modelFamily('anthropic', model),
    model,
    async next(request: ModelRequest): Promise<ModelTurn> {
      const body = {
        model,
        max_tokens: 1024,
        system: request.system,
        messages: toMessages(request.steps),
        ...(request.tools.length
          ? {
              tools: request.tools.map((t) => ({
                name: t.name,
                description: t.description,
                input_schema: t.parameters as Anthropic.Tool.InputSchema,
              })),
            }
          : {}),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      };
      const message = await withDeadline(`anthropic:${model}`, timeoutMs, (signal) => client.messages.create(body, { signal }));
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      const toolCalls = message.content.flatMap((block) =>
        block.type === 'tool_use' ? [{ id: block.id, name: block.name, args: (block.input ?? {}) as Record<string, unknown> }] : [],
      );
      return { text, toolCalls, usage: { input: message.usage.input_tokens, output: message.usage.output_tokens } };
    },
  };
}
