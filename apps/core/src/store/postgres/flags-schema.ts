import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { chats, workspaces } from './schema.ts';

/**
 * A flagged agent reply. What the flag shows of the chat (agent, environment, version, channel, the messages before
 * the reply, the reply and its turn) is frozen at flag time, so later deployments or chat growth change nothing.
 */
export const flags = pgTable(
  'flags',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    status: text('status', { enum: ['open', 'fixed', 'removed'] }).notNull(),
    note: text('note'),
    agent: text('agent').notNull(),
    environment: text('environment').notNull(),
    versionId: text('version_id').notNull(),
    versionNumber: integer('version_number').notNull(),
    channel: text('channel').notNull(),
    /** JSON: the reply, the messages before it, its turn and the visitor turns an eval case replays. */
    snapshot: text('snapshot').notNull(),
    evalCaseId: text('eval_case_id'),
    fixedByVersionId: text('fixed_by_version_id'),
    fixedByVersionNumber: integer('fixed_by_version_number'),
    fixedAt: text('fixed_at'),
    /** Emails, not user ids: the record outlives a membership and reads the same after it. */
    createdBy: text('created_by').notNull(),
    /** Bumped by every change: a change computed from an older state is refused and recomputed. */
    revision: integer('revision').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  // One live (not removed) flag per reply, whatever requests arrive at once.
  (t) => [
    uniqueIndex('flags_live_message_idx')
      .on(t.messageId)
      .where(sql`${t.status} <> 'removed'`),
    // Lists page oldest first by creation time, ids breaking ties: of a state, of any, of an agent's in a state.
    index('flags_workspace_idx').on(t.workspaceId, t.status, t.createdAt, t.id),
    index('flags_created_idx').on(t.workspaceId, t.createdAt, t.id),
    index('flags_agent_idx').on(t.workspaceId, t.agent, t.status, t.createdAt, t.id),
    index('flags_chat_idx').on(t.chatId),
    // The open flags alone, by id: what a start-up repair looks through, however many flags were fixed or removed.
    index('flags_open_idx')
      .on(t.id)
      .where(sql`${t.status} = 'open'`),
  ],
);

/** Every change of a flag: who, from which state to which, the note before and after, when. */
export const flagEvents = pgTable(
  'flag_events',
  {
    id: text('id').primaryKey(),
    /** Insertion order: a flag's history is read back in the order it was written. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    flagId: text('flag_id')
      .notNull()
      .references(() => flags.id, { onDelete: 'cascade' }),
    actor: text('actor').notNull(),
    fromStatus: text('from_status', { enum: ['open', 'fixed', 'removed'] }),
    toStatus: text('to_status', { enum: ['open', 'fixed', 'removed'] }).notNull(),
    noteBefore: text('note_before'),
    noteAfter: text('note_after'),
    at: text('at').notNull(),
  },
  (t) => [index('flag_events_flag_idx').on(t.flagId, t.seq)],
);

/**
 * What an eval run replays: the visitor turns, and the outcome expected of the agent. A case made from a flag
 * names it; one added by hand names who added it. Removed cases stay (deleted_at) so runs that used them still
 * read them.
 */
export const evalCases = pgTable(
  'eval_cases',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    agent: text('agent').notNull(),
    /** JSON array of the visitor's texts, oldest first. */
    turns: text('turns').notNull(),
    expected: text('expected').notNull(),
    originFlagId: text('origin_flag_id').references(() => flags.id, { onDelete: 'cascade' }),
    createdBy: text('created_by'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    deletedAt: text('deleted_at'),
  },
  (t) => [
    // Lists page the cases not removed oldest first, ids breaking ties: all of them, or one agent's.
    index('eval_cases_workspace_idx')
      .on(t.workspaceId, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('eval_cases_agent_idx')
      .on(t.workspaceId, t.agent, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    // A flag has at most one live case.
    uniqueIndex('eval_cases_flag_idx')
      .on(t.originFlagId)
      .where(sql`${t.deletedAt} is null and ${t.originFlagId} is not null`),
  ],
);
