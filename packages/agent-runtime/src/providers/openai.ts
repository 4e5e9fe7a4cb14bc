import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ModelProvider, ModelRequest, ModelTurn, Step } from '../transcript.ts';
import { withDeadline } from './deadline.ts';
import { clientOptions, modelFamily } from './family.ts';

export interface OpenAiSettings {
  baseURL?: string;
  apiKey?: string;
}

function toMessages(system: string, steps: Step[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  for (const step of steps) {
    if (step.kind === 'visitor') messages.push({ role: 'user', content: step.text });
    else if (step.kind === 'agent') messages.push({ role: 'assistant', content: step.text });
    else if (step.kind === 'tool_calls') {
      messages.push({
        role: 'assistant',
        content: step.text || null,
        tool_calls: step.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })),
      });
    } else messages.push({ role: 'tool', tool_call_id: step.id, content: step.content });
  }
  return messages;
}

/** Any OpenAI-compatible chat completions server: OpenAI, vLLM, Ollama, llama.cpp server. `timeoutMs` bounds each call. */
export function openAiProvider(model: string, settings: OpenAiSettings, timeoutMs: number): ModelProvider {
  const client = new OpenAI(clientOptions(settings, 'not-needed', timeoutMs));
  return {
    family: modelFamily('openai', model),
    model,
    async next(request: ModelRequest): Promise<ModelTurn> {
      const body = {
        model,
        messages: toMessages(request.system, request.steps),
        ...(request.tools.length
          ? {
              tools: request.tools.map((t) => ({
                type: 'function' as const,
                function: { name: t.name, description: t.description, parameters: t.parameters },
              })),
            }
          : {}),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      };
      const completion = await withDeadline(`openai:${model}`, timeoutMs, (signal) => client.chat.completions.create(body, { signal }));
      const message = completion.choices[0]?.message;
      const calls = (message?.tool_calls ?? []).flatMap((call) =>
        call.type === 'function' ? [{ id: call.id, name: call.function.name, args: parseArgs(call.function.arguments) }] : [],
      );
      return {
        text: message?.content ?? '',
        toolCalls: calls,
        usage: { input: completion.usage?.prompt_tokens ?? 0, output: completion.usage?.completion_tokens ?? 0 },
      };
    },
  };
}

function parseArgs(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
