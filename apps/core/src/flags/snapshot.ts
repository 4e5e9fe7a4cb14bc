import {
  type ConversationMessage,
  evalCaseMaxTurns,
  flagContextMessages,
  knowledgeLookup,
  toolCallTrace,
  type TurnView,
} from '@svc/domain';
import { z } from 'zod';
import type { ChatMessage } from '../agents/store.ts';
import type { FlagSnapshot } from './store.ts';

/** A turn as the agent runtime traces it; its tool calls and lookups are already redacted of secrets. */
const storedTrace = z.object({
  tool_calls: z.array(toolCallTrace).default([]),
  knowledge_lookups: z.array(knowledgeLookup).default([]),
  tokens: z.object({ input: z.number().int(), output: z.number().int() }).default({ input: 0, output: 0 }),
});

export function turnOf(trace: unknown): TurnView {
  const parsed = storedTrace.parse(trace ?? {});
  return { tool_calls: parsed.tool_calls, knowledge: parsed.knowledge_lookups, tokens: parsed.tokens };
}

/**
 * What a flag keeps of its chat: the reply, the last messages before it (fewer at the start of a chat), its turn,
 * and the visitor's turns up to the one it answered (the last ones a case can hold).
 */
export function snapshotOf(messages: ChatMessage[], reply: ChatMessage): FlagSnapshot {
  const before = messages.slice(
    0,
    messages.findIndex((m) => m.id === reply.id),
  );
  const conversation: ConversationMessage[] = before
    .slice(-flagContextMessages)
    .map((m) => ({ role: m.role, text: m.text, created_at: m.createdAt }));
  const turns = before
    .filter((m) => m.role === 'visitor')
    .map((m) => m.text)
    .slice(-evalCaseMaxTurns);
  return { reply: reply.text, conversation, turn: turnOf(reply.trace), turns };
}
