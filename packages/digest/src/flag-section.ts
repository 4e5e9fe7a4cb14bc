import type { FlagView, TurnView } from '@svc/domain';
import { attribute, code, fenced, trimmed, utc } from './markdown.ts';

/** How many characters of each value the digest shows; the note is always shown whole, it is the expected answer. */
export const digestLimits = { message: 2_000, reply: 4_000, toolValue: 2_000, knowledgeHit: 1_000 } as const;

type ToolCall = TurnView['tool_calls'][number];

const label = (role: string) => (role === 'visitor' ? 'Visitor' : 'Agent');

/** The conversation as a transcript: who, when, and what they wrote, indented under them. */
function transcript(conversation: FlagView['conversation']): string {
  if (conversation.length === 0) return '_None: the flagged reply is the first message of the chat._';
  const entries = conversation.map((m) => {
    const text = trimmed(m.text, digestLimits.message).replace(/\r\n?/g, '\n');
    return `${label(m.role)} (${utc(m.created_at)}):\n${text.replace(/^/gm, '  ')}`;
  });
  return fenced(entries.join('\n\n'));
}

/** A value a backend or a model produced: text as it is, anything else as indented JSON. */
function shown(value: unknown): { text: string; info: string } {
  if (typeof value === 'string') return { text: value, info: 'text' };
  return { text: JSON.stringify(value, null, 2) ?? 'null', info: 'json' };
}

function toolCall(call: ToolCall, index: number, count: number): string {
  const facts = [
    code(`${call.request.method} ${call.request.url}`, 500),
    call.status === null ? 'no HTTP status' : `status ${call.status}`,
    `${Math.round(call.duration_ms)} ms`,
  ];
  const args = shown(call.arguments);
  const response = shown(call.response);
  const parts = [
    `**Tool call ${index + 1} of ${count}:** ${code(call.name)}, ${facts.join(', ')}`,
    'Arguments:',
    fenced(trimmed(args.text, digestLimits.toolValue), args.info),
    'Response:',
    call.response === undefined || call.response === null
      ? '_None._'
      : fenced(trimmed(response.text, digestLimits.toolValue), response.info),
  ];
  if (call.error !== null) parts.push('Error:', fenced(trimmed(call.error, digestLimits.toolValue)));
  return parts.join('\n\n');
}

function knowledgeLookup(lookup: TurnView['knowledge'][number], index: number): string {
  const hits = lookup.hits.length;
  const head = `**Knowledge lookup ${index + 1}:** ${code(lookup.query)}, ${hits === 0 ? 'no hits' : `${hits} hit${hits === 1 ? '' : 's'}`}`;
  return [head, ...lookup.hits.map((hit) => `${code(hit.path)}:\n\n${fenced(trimmed(hit.text, digestLimits.knowledgeHit))}`)].join('\n\n');
}

function turn({ tool_calls: calls, knowledge, tokens }: TurnView): string {
  return [
    ...(calls.length === 0 ? ['No tool calls.'] : calls.map((call, i) => toolCall(call, i, calls.length))),
    ...(knowledge.length === 0 ? ['No knowledge lookups.'] : knowledge.map(knowledgeLookup)),
    `Tokens: ${tokens.input} input, ${tokens.output} output.`,
  ].join('\n\n');
}

/** One flag's section, anchored by its id so links to it last as long as the flag. */
export function flagSection(flag: FlagView & { note: string }): string {
  const meta = [
    `Agent ${code(flag.agent)}`,
    `environment ${code(flag.environment)}`,
    `version v${flag.version.number} (${code(flag.version.id)})`,
    `channel ${code(flag.channel)}`,
    `chat ${code(flag.chat_id)}`,
    `flagged by ${code(flag.created_by)}`,
    utc(flag.created_at),
  ];
  return [
    `### <a id="${attribute(flag.id)}"></a>Flag ${code(flag.id)}`,
    `${meta.join(' · ')}`,
    '#### Conversation before the reply',
    transcript(flag.conversation),
    '#### The flagged reply',
    fenced(trimmed(flag.reply, digestLimits.reply)),
    '#### What the agent did on that turn',
    turn(flag.turn),
    '#### What it should have said (the note)',
    fenced(flag.note),
  ].join('\n\n');
}
