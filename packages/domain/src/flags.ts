import { z } from 'zod';
import { agentSlug } from './agents.ts';
import { nextCursor, pageQuery } from './pagination.ts';

/** A supervisor's note: what the agent should have said. */
export const flagNote = z.string().max(10_000);

/** The most messages before a flagged reply that a flag keeps. */
export const flagContextMessages = 10;

export const flagStatus = z.enum(['open', 'fixed', 'removed']);
export type FlagStatus = z.infer<typeof flagStatus>;

export const versionRef = z.object({ id: z.string(), number: z.number().int().min(1) }).meta({ id: 'VersionRef' });

export const toolCallTrace = z
  .object({
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    request: z.object({ method: z.string(), url: z.string() }).meta({ description: 'Secrets show as [secret:NAME]' }),
    status: z.number().int().nullable(),
    response: z.unknown().meta({ description: "What the customer's backend answered, secrets redacted" }),
    error: z.string().nullable(),
    duration_ms: z.number(),
  })
  .meta({ id: 'ToolCallTrace' });

export const knowledgeLookup = z
  .object({
    query: z.string(),
    hits: z.array(z.object({ path: z.string(), text: z.string() })),
  })
  .meta({ id: 'KnowledgeLookup' });

/** What the agent did on one turn: each tool call, each knowledge lookup, and the tokens spent. */
export const turnTrace = z
  .object({
    tool_calls: z.array(toolCallTrace),
    knowledge: z.array(knowledgeLookup),
    tokens: z.object({ input: z.number().int(), output: z.number().int() }),
  })
  .meta({ id: 'Turn' });
export type TurnView = z.infer<typeof turnTrace>;

export const conversationMessage = z
  .object({ role: z.enum(['visitor', 'agent']), text: z.string(), created_at: z.iso.datetime() })
  .meta({ id: 'ConversationMessage' });
export type ConversationMessage = z.infer<typeof conversationMessage>;

/** A flag as the API shows it: a frozen view of the flagged reply, taken when it was flagged. */
export const flag = z
  .object({
    id: z.string(),
    status: flagStatus,
    agent: z.string(),
    environment: z.string(),
    version: versionRef,
    channel: z.string(),
    chat_id: z.string(),
    message_id: z.string(),
    reply: z.string().meta({ description: 'The flagged agent reply' }),
    note: z.string().nullable().meta({ description: 'What the agent should have said; a flag without one is in no digest' }),
    conversation: z.array(conversationMessage).meta({ description: 'The last 10 messages before the reply, oldest first' }),
    turn: turnTrace,
    eval_case_id: z.string().nullable(),
    fixed_by_version: versionRef.nullable(),
    fixed_at: z.iso.datetime().nullable(),
    created_by: z.string().meta({ description: 'The email of who flagged the reply' }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Flag' });
export type FlagView = z.infer<typeof flag>;

export const flagList = z.object({ flags: z.array(flag), next_cursor: nextCursor }).meta({ id: 'FlagList' });

/** One change of a flag: who, from which state to which, the note before and after, when. */
export const flagEvent = z
  .object({
    actor: z.string().meta({ description: 'The email of the member who made the change, or `svc` when an eval run on live fixed it' }),
    from_status: flagStatus.nullable(),
    to_status: flagStatus,
    note_before: z.string().nullable(),
    note_after: z.string().nullable(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'FlagEvent' });

export const flagWithHistory = flag.extend({ history: z.array(flagEvent) }).meta({ id: 'FlagWithHistory' });
export type FlagWithHistoryView = z.infer<typeof flagWithHistory>;

export const createFlagInput = z
  .object({ message_id: z.string().min(1).max(100), note: flagNote.nullish() })
  .meta({ id: 'CreateFlagRequest' });
export type CreateFlagInput = z.infer<typeof createFlagInput>;

/** What a flag may not do as its author means it; the flag is made all the same. */
export const flagWarning = z
  .object({
    code: z.enum(['reply_already_passes']).meta({
      description:
        'reply_already_passes: the reply already meets the note (the judge a live run would use passes it, or, with no judge, it says every phrase the note quotes), so its eval case passes as it is',
    }),
    message: z.string(),
  })
  .meta({ id: 'FlagWarning' });
export type FlagWarning = z.infer<typeof flagWarning>;

/** A flag as made or edited, with a warning when the note asks for what the reply already says. */
export const flagWithWarning = flag
  .extend({ warning: flagWarning.optional().meta({ description: 'Present when the reply already meets the note' }) })
  .meta({ id: 'FlagWithWarning' });

export const updateFlagInput = z
  .object({ note: flagNote.nullable().meta({ description: 'null or "" clears the note (and removes its eval case)' }) })
  .meta({ id: 'UpdateFlagRequest' });

const flagsOfAgent = agentSlug.optional().meta({ description: "Only this agent's flags" });

/** A page of the flags in a state (or all), oldest first, narrowed to an agent when asked. */
export const flagListQuery = pageQuery.extend({
  status: z.enum(['open', 'fixed', 'removed', 'all']).default('open'),
  agent: flagsOfAgent,
});
export type FlagListQuery = z.infer<typeof flagListQuery>;

/** The most flags a digest shows: the newest open flags with a note; `svc flags --all` prints every one. */
export const flagsDigestCap = 50;

export const flagsDigestQuery = z.object({ agent: flagsOfAgent });
