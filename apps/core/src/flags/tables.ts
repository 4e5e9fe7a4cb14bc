import { bigserial, index, integer, sql, table, text, uniqueIndex } from '../platform/tables/define.ts';

// The flags' tables: flagged replies and their history.
// Written once for both stores: `pnpm db:generate` writes src/store/{sqlite,postgres}/schema.ts from it, then
// the migrations (see src/platform/tables/define.ts).

/**
 * A flagged agent reply. What the flag shows of the chat (agent, environment, version, channel, the messages before
 * the reply, the reply and its turn) is frozen at flag time, so later deployments or chat growth change nothing.
 */
export const flags = table('flags', {
  columns: {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    chatId: text('chat_id').notNull().references('chats.id', { onDelete: 'cascade' }),
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
  indexes: (t) => [
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
});

/** Every change of a flag: who, from which state to which, the note before and after, when. */
export const flagEvents = table('flag_events', {
  columns: {
    id: text('id').primaryKey(),
    /** Insertion order: a flag's history is read back in the order it was written. */
    seq: bigserial('seq').notNull().only('postgres'),
    flagId: text('flag_id').notNull().references('flags.id', { onDelete: 'cascade' }),
    actor: text('actor').notNull(),
    fromStatus: text('from_status', { enum: ['open', 'fixed', 'removed'] }),
    toStatus: text('to_status', { enum: ['open', 'fixed', 'removed'] }).notNull(),
    noteBefore: text('note_before'),
    noteAfter: text('note_after'),
    at: text('at').notNull(),
  },
  indexes: (t) => [
    // A flag's history by time: SQLite reads it in rowid order, the order it was written.
    index('flag_events_flag_idx').on(t.flagId, t.at).only('sqlite'),
    // PostgreSQL has no rowid: it reads a flag's history in seq order.
    index('flag_events_flag_idx').on(t.flagId, t.seq).only('postgres'),
  ],
});
