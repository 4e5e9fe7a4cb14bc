import { bigserial, boolean, index, integer, primaryKey, table, text, uniqueIndex } from '../platform/tables/define.ts';

// The agents' tables: deployed versions, environments and their secrets, chats and their messages.
// Written once for both stores: `pnpm db:generate` writes src/store/{sqlite,postgres}/schema.ts from it, then
// the migrations (see src/platform/tables/define.ts).

/** An immutable deployed version of a workspace's agents: the manifest files as pushed. */
export const agentVersions = table('agent_versions', {
  columns: {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    /** v1, v2, ... per workspace. */
    number: integer('number').notNull(),
    contentHash: text('content_hash').notNull(),
    /** The bundle's files as JSON `{path: content}`. */
    files: text('files').notNull(),
    gitCommit: text('git_commit'),
    gitBranch: text('git_branch'),
    authorId: text('author_id').notNull(),
    createdAt: text('created_at').notNull(),
  },
  // One version per content and per number in a workspace, whatever pushes run at once.
  indexes: (t) => [
    uniqueIndex('agent_versions_hash_idx').on(t.workspaceId, t.contentHash),
    uniqueIndex('agent_versions_number_idx').on(t.workspaceId, t.number),
  ],
});

export const environments = table('environments', {
  columns: {
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    name: text('name').notNull(),
    versionId: text('version_id').references('agent_versions.id'),
    updatedAt: text('updated_at').notNull(),
    createdAt: text('created_at').notNull(),
  },
  indexes: (t) => [primaryKey(t.workspaceId, t.name)],
});

export const environmentSecrets = table('environment_secrets', {
  columns: {
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    environment: text('environment').notNull(),
    name: text('name').notNull(),
    valueSealed: text('value_sealed').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  indexes: (t) => [primaryKey(t.workspaceId, t.environment, t.name)],
});

export const chats = table('chats', {
  columns: {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    agent: text('agent').notNull(),
    environment: text('environment').notNull(),
    versionId: text('version_id').notNull().references('agent_versions.id'),
    channel: text('channel').notNull(),
    /** Made by an eval run: never in the inbox, never counted as a conversation. */
    replay: boolean('replay').notNull(),
    createdAt: text('created_at').notNull(),
  },
  indexes: (t) => [index('chats_inbox_idx').on(t.workspaceId, t.replay, t.createdAt)],
});

export const chatMessages = table('chat_messages', {
  columns: {
    id: text('id').primaryKey(),
    /** Insertion order: a chat's messages are read back in the order they were written. */
    seq: bigserial('seq').notNull().only('postgres'),
    chatId: text('chat_id').notNull().references('chats.id', { onDelete: 'cascade' }),
    role: text('role', { enum: ['visitor', 'agent'] }).notNull(),
    text: text('text').notNull(),
    /** The agent turn's trace as JSON (tool calls, knowledge lookups, tokens), secrets redacted. */
    trace: text('trace'),
    createdAt: text('created_at').notNull(),
  },
  indexes: (t) => [
    // A chat's messages by time: SQLite reads them in rowid order, the order they were written.
    index('chat_messages_chat_idx').on(t.chatId, t.createdAt).only('sqlite'),
    // PostgreSQL has no rowid: it reads a chat's messages in seq order.
    index('chat_messages_chat_idx').on(t.chatId, t.seq).only('postgres'),
  ],
});
