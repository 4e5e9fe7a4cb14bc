// Generated from the tables of src/<domain>/tables.ts by `pnpm db:generate` (scripts/generate-schema.ts): edit those,
// then generate. The SQLite store's tables; timestamps are ISO 8601 UTC strings, which sort as text.

import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// platform: src/platform/tables.ts

/** Mails to send, written in the same transaction as what they announce. */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    /** Text and HTML bodies, encrypted: they carry sign-in links. Cleared once sent. */
    bodySealed: text('body_sealed'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    sentAt: text('sent_at'),
    /** Until when the mail is worth sending, when its link outlives a sign-in link's 15 minutes (an invitation). */
    deliverUntil: text('deliver_until'),
    /** Who is sending it and until when, as for messages. */
    claimId: text('claim_id'),
    claimedUntil: text('claimed_until'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    // Retention: the mails done with, by age.
    index('mail_outbox_finished_idx')
      .on(t.createdAt)
      .where(sql`${t.status} <> 'pending'`),
  ],
);

/** Local mode's dev mailbox: mails kept instead of sent when no SMTP_URL is set. */
export const devMails = sqliteTable('dev_mails', {
  id: text('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  createdAt: text('created_at').notNull(),
});

// identity: src/identity/tables.ts

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  createdAt: text('created_at').notNull(),
});

export const developerTokens = sqliteTable(
  'developer_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SHA-256 of the whole token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: text('created_at').notNull(),
    lastUsedAt: text('last_used_at'),
    revokedAt: text('revoked_at'),
  },
  (t) => [index('developer_tokens_user_idx').on(t.userId)],
);

export const deviceAuthorizations = sqliteTable('device_authorizations', {
  id: text('id').primaryKey(),
  /** SHA-256 of the device code (256 random bits); the code itself is never stored. */
  deviceCodeHash: text('device_code_hash').notNull().unique(),
  /**
   * HMAC of the user code (the 8 letters, without the dash) under the key derived from SVC_SECRET_KEY: whoever has the
   * code can approve the sign-in, so the code itself is never stored. Null only in rows of earlier versions.
   */
  userCodeHash: text('user_code_hash').unique(),
  /**
   * The user code in the clear, as earlier versions wrote it; nothing writes or reads it now. Their rows, looked up by
   * hash only, cannot be approved: they expire within the 15 minutes a sign-in request lasts (start again), and
   * retention deletes them. The column stays while cores of an earlier version may still run beside these.
   */
  userCode: text('user_code').unique(),
  status: text('status', { enum: ['pending', 'approved', 'denied', 'spent'] }).notNull(),
  intervalSeconds: integer('interval_seconds').notNull(),
  lastPolledAt: text('last_polled_at'),
  expiresAt: text('expires_at').notNull(),
  clientName: text('client_name').notNull(),
  clientHostname: text('client_hostname'),
  clientIp: text('client_ip'),
  clientUserAgent: text('client_user_agent'),
  email: text('email'),
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  tokenId: text('token_id'),
  decidedAt: text('decided_at'),
  createdAt: text('created_at').notNull(),
});

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    /** SHA-256 of the cookie value. */
    tokenHash: text('token_hash').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The CSRF token of the session's forms. */
    csrfToken: text('csrf_token').notNull(),
    expiresAt: text('expires_at').notNull(),
    createdAt: text('created_at').notNull(),
  },
  // Retention: expired sessions, by expiry.
  (t) => [index('sessions_expiry_idx').on(t.expiresAt)],
);

/** Magic sign-in links: only a human's POST redeems one, once. */
export const loginLinks = sqliteTable('login_links', {
  id: text('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  email: text('email').notNull(),
  /** Where the browser lands once signed in (a path of ours). */
  next: text('next').notNull(),
  expiresAt: text('expires_at').notNull(),
  usedAt: text('used_at'),
  createdAt: text('created_at').notNull(),
});

// workspaces: src/workspaces/tables.ts

export const workspaces = sqliteTable('workspaces', {
  id: text('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name'),
  createdAt: text('created_at').notNull(),
});

export const memberships = sqliteTable(
  'memberships',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'developer', 'supervisor'] }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

/** Invitations to join a workspace; only the hash of the mailed link's token is kept. */
export const invitations = sqliteTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'developer', 'supervisor'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'accepted', 'revoked'] }).notNull(),
    expiresAt: text('expires_at').notNull(),
    createdAt: text('created_at').notNull(),
    decidedAt: text('decided_at'),
  },
  // One pending invitation per address and workspace: a new one replaces it.
  (t) => [
    uniqueIndex('invitations_pending_idx')
      .on(t.workspaceId, t.email)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** Every change of a workspace's members and invitations: who, what, when. */
export const membershipEvents = sqliteTable(
  'membership_events',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    action: text('action', { enum: ['invited', 'invitation_revoked', 'joined', 'role_changed', 'removed', 'left'] }).notNull(),
    /** Emails, not user ids: the record outlives a membership and reads the same after it. */
    actorEmail: text('actor_email').notNull(),
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'developer', 'supervisor'] }),
    previousRole: text('previous_role', { enum: ['owner', 'developer', 'supervisor'] }),
    at: text('at').notNull(),
  },
  (t) => [index('membership_events_workspace_idx').on(t.workspaceId, t.at)],
);

// verification: src/verification/tables.ts

export const senders = sqliteTable('senders', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['whatsapp_cloud', 'twilio_whatsapp', 'dev'] }).notNull(),
  /** The configuration without its secrets, as JSON. */
  config: text('config').notNull(),
  /** The secret fields as JSON, encrypted (AES-256-GCM). */
  secretsSealed: text('secrets_sealed'),
  updatedAt: text('updated_at').notNull(),
});

export const testNumbers = sqliteTable(
  'test_numbers',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    /** The fixed code, encrypted: each verification HMACs it with its own id. */
    codeSealed: text('code_sealed').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.phoneNumber] })],
);

export const phoneVerifications = sqliteTable(
  'phone_verifications',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    /** HMAC of `<id>:<code>`; the code itself is never stored in the clear. */
    codeHmac: text('code_hmac').notNull(),
    status: text('status', { enum: ['pending', 'verified', 'blocked'] }).notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    sendCount: integer('send_count').notNull().default(1),
    testNumber: integer('test_number', { mode: 'boolean' }).notNull().default(false),
    expiresAt: text('expires_at').notNull(),
    lastSentAt: text('last_sent_at').notNull(),
    verifiedAt: text('verified_at'),
    deliveryStatus: text('delivery_status', { enum: ['queued', 'sent', 'delivered', 'read', 'failed', 'not_sent'] }).notNull(),
    deliveryError: text('delivery_error'),
    deliveryUpdatedAt: text('delivery_updated_at').notNull(),
    /**
     * A digest of the Idempotency-Key its last send was asked with, if any: a retry of that create, made after the
     * answer was lost, gets the same answer rather than a refused resend.
     */
    lastSendKey: text('last_send_key'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('phone_verifications_number_idx').on(t.workspaceId, t.phoneNumber, t.status)],
);

/** Messages to send, written in the same transaction as the state change they announce. */
export const messageOutbox = sqliteTable(
  'message_outbox',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    verificationId: text('verification_id')
      .notNull()
      .references(() => phoneVerifications.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    /** The code to deliver, encrypted; cleared once the message is sent or given up on. */
    codeSealed: text('code_sealed'),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'superseded'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Sends that got no answer from the provider: they may have arrived, so a second such send is the last. */
    unanswered: integer('unanswered').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastError: text('last_error'),
    providerMessageId: text('provider_message_id'),
    createdAt: text('created_at').notNull(),
    sentAt: text('sent_at'),
    /** Who is sending it and until when: no other core takes it before then, and a core that died leaves it to the next. */
    claimId: text('claim_id'),
    claimedUntil: text('claimed_until'),
  },
  // Partial indexes keep only the rows their queries look for: a sent message leaves the due index and a
  // queued one has no provider id yet, so each send and each delivery touches fewer B-trees.
  (t) => [
    index('message_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('message_outbox_number_idx').on(t.workspaceId, t.phoneNumber, t.createdAt),
    index('message_outbox_verification_idx').on(t.verificationId),
    index('message_outbox_provider_idx')
      .on(t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
    // Retention: the messages done with, by age; a pass that deletes nothing probes it once.
    index('message_outbox_finished_idx')
      .on(t.createdAt)
      .where(sql`${t.status} <> 'pending'`),
  ],
);

/** What the `dev` sender "sent": local mode's outbox page. */
export const devMessages = sqliteTable('dev_messages', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id').notNull(),
  to: text('to').notNull(),
  body: text('body').notNull(),
  verificationId: text('verification_id').notNull(),
  createdAt: text('created_at').notNull(),
});

/** The first answer to a request with an Idempotency-Key, replayed to its retries for 24 hours. */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    operation: text('operation').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** The final answer; null while the request that claimed the key runs. */
    response: text('response'),
    createdAt: text('created_at').notNull(),
    /** The request running under the key, and until when the key is its own: a core that died leaves it to a retry. */
    claimId: text('claim_id'),
    claimedUntil: text('claimed_until'),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.operation, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** Sends per workspace per clock hour as cores before `hourly_send_shards` counted them: read, and purged, no longer written. */
export const hourlySends = sqliteTable(
  'hourly_sends',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    hour: text('hour').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.hour] })],
);

/**
 * Sends per workspace per clock hour, counted by each core in a row of its own (`shard`): creates in several cores
 * never queue on one row. The cap sums a workspace's rows of the hour, with its row in `hourly_sends` (counted there
 * by cores of earlier versions, while they still run beside these).
 */
export const hourlySendShards = sqliteTable(
  'hourly_send_shards',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    hour: text('hour').notNull(),
    shard: integer('shard').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.hour, t.shard] })],
);

// agents: src/agents/tables.ts

/** An immutable deployed version of a workspace's agents: the manifest files as pushed. */
export const agentVersions = sqliteTable(
  'agent_versions',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
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
  (t) => [
    uniqueIndex('agent_versions_hash_idx').on(t.workspaceId, t.contentHash),
    uniqueIndex('agent_versions_number_idx').on(t.workspaceId, t.number),
  ],
);

export const environments = sqliteTable(
  'environments',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    versionId: text('version_id').references(() => agentVersions.id),
    updatedAt: text('updated_at').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.name] })],
);

export const environmentSecrets = sqliteTable(
  'environment_secrets',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    environment: text('environment').notNull(),
    name: text('name').notNull(),
    valueSealed: text('value_sealed').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.environment, t.name] })],
);

export const chats = sqliteTable(
  'chats',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    agent: text('agent').notNull(),
    environment: text('environment').notNull(),
    versionId: text('version_id')
      .notNull()
      .references(() => agentVersions.id),
    channel: text('channel').notNull(),
    /** Made by an eval run: never in the inbox, never counted as a conversation. */
    replay: integer('replay', { mode: 'boolean' }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('chats_inbox_idx').on(t.workspaceId, t.replay, t.createdAt)],
);

export const chatMessages = sqliteTable(
  'chat_messages',
  {
    id: text('id').primaryKey(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['visitor', 'agent'] }).notNull(),
    text: text('text').notNull(),
    /** The agent turn's trace as JSON (tool calls, knowledge lookups, tokens), secrets redacted. */
    trace: text('trace'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    // A chat's messages by time: SQLite reads them in rowid order, the order they were written.
    index('chat_messages_chat_idx').on(t.chatId, t.createdAt),
  ],
);

// flags: src/flags/tables.ts

/**
 * A flagged agent reply. What the flag shows of the chat (agent, environment, version, channel, the messages before
 * the reply, the reply and its turn) is frozen at flag time, so later deployments or chat growth change nothing.
 */
export const flags = sqliteTable(
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
export const flagEvents = sqliteTable(
  'flag_events',
  {
    id: text('id').primaryKey(),
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
  (t) => [
    // A flag's history by time: SQLite reads it in rowid order, the order it was written.
    index('flag_events_flag_idx').on(t.flagId, t.at),
  ],
);

// evals: src/evals/tables.ts

/**
 * What an eval run replays: the visitor turns, and the outcome expected of the agent. A case made from a flag
 * names it; one added by hand names who added it. Removed cases stay (deleted_at) so runs that used them still
 * read them.
 */
export const evalCases = sqliteTable(
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

/**
 * An eval run: the environment and the version it pinned when it started, how its cases are graded, and what it
 * compares with. Its counts are kept as its results land (`eval_results`), in the same transaction as each.
 */
export const evalRuns = sqliteTable(
  'eval_runs',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    environment: text('environment').notNull(),
    /** The one agent whose cases run, or null for all. */
    agent: text('agent'),
    versionId: text('version_id')
      .notNull()
      .references(() => agentVersions.id),
    versionNumber: integer('version_number').notNull(),
    trigger: text('trigger', { enum: ['manual', 'publish', 'pull_request'] }).notNull(),
    repeat: integer('repeat').notNull(),
    minPass: integer('min_pass').notNull(),
    /** `deterministic`, or the judge models, comma-separated. */
    grader: text('grader').notNull(),
    /** JSON array of the replayed agents' models. */
    agentModels: text('agent_models').notNull(),
    status: text('status', { enum: ['queued', 'running', 'finished', 'cancelled'] }).notNull(),
    baselineRunId: text('baseline_run_id'),
    /** JSON array of `{caseId, agent}`: cases of agents the environment lacks, never run. */
    skipped: text('skipped').notNull(),
    /** An email, or `svc` for a run a publish started. */
    createdBy: text('created_by').notNull(),
    createdAt: text('created_at').notNull(),
    finishedAt: text('finished_at'),
    /** Cases that run; then, of those whose every replay is done, how many and how they came out. */
    cases: integer('cases').notNull().default(0),
    done: integer('done').notNull().default(0),
    passed: integer('passed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    regressions: integer('regressions').notNull().default(0),
    /** The agent's tokens over every replay reported. */
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
  },
  (t) => [
    index('eval_runs_environment_idx').on(t.workspaceId, t.environment, t.createdAt, t.id),
    index('eval_runs_workspace_idx').on(t.workspaceId, t.createdAt, t.id),
    // Lists page newest first by creation time, ids breaking ties: read in index order.
    // The regression baseline: the latest finished run of an environment.
    index('eval_runs_finished_idx')
      .on(t.workspaceId, t.environment, t.finishedAt, t.id)
      .where(sql`${t.status} = 'finished'`),
    // What leases look at first: the runs still worked on, oldest first.
    index('eval_runs_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    // The runs compared with a run: a person's verdict there moves their regressions.
    index('eval_runs_baseline_idx')
      .on(t.baselineRunId)
      .where(sql`${t.baselineRunId} is not null`),
  ],
);

/** One replay of one case in a run (attempt 1..repeat), leased to one runner at a time. */
export const evalExecutions = sqliteTable(
  'eval_executions',
  {
    id: text('id').primaryKey(),
    runId: text('run_id')
      .notNull()
      .references(() => evalRuns.id, { onDelete: 'cascade' }),
    caseId: text('case_id')
      .notNull()
      .references(() => evalCases.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    agent: text('agent').notNull(),
    /** The judge model, or null for the deterministic grader. */
    judge: text('judge'),
    status: text('status', { enum: ['pending', 'leased', 'done', 'cancelled'] }).notNull(),
    leaseOwner: text('lease_owner'),
    /** A fresh id per grant: only a report presenting it is accepted. */
    leaseId: text('lease_id'),
    leaseUntil: text('lease_until'),
    verdict: text('verdict', { enum: ['pass', 'fail', 'error'] }),
    reasoning: text('reasoning'),
    replayChatId: text('replay_chat_id').references(() => chats.id, { onDelete: 'set null' }),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    judgeInputTokens: integer('judge_input_tokens').notNull().default(0),
    judgeOutputTokens: integer('judge_output_tokens').notNull().default(0),
    finishedAt: text('finished_at'),
    /** The order reports landed in, per run (see EvalExecutionRecord.reportSeq). */
    reportSeq: integer('report_seq'),
  },
  (t) => [
    uniqueIndex('eval_executions_run_idx').on(t.runId, t.caseId, t.attempt),
    // Leases read only the executions still to do, in each run's round-robin order; done ones leave the index.
    index('eval_executions_open_idx')
      .on(t.runId, t.attempt, t.id)
      .where(sql`${t.status} in ('pending', 'leased')`),
    // What each run holds: its replays under way, counted to give the runs with the fewest the next slots.
    index('eval_executions_leased_idx')
      .on(t.runId, t.leaseUntil)
      .where(sql`${t.status} = 'leased'`),
  ],
);

/** A person's verdict on a case of a run, in place of the grader's. */
export const evalOverrides = sqliteTable(
  'eval_overrides',
  {
    runId: text('run_id')
      .notNull()
      .references(() => evalRuns.id, { onDelete: 'cascade' }),
    caseId: text('case_id')
      .notNull()
      .references(() => evalCases.id, { onDelete: 'cascade' }),
    verdict: text('verdict', { enum: ['pass', 'fail'] }).notNull(),
    /** An email: the record outlives a membership. */
    by: text('by').notNull(),
    at: text('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.caseId] })],
);

/**
 * A case's result in a run, kept as its replays are reported: how many are done, passed and errored, and once all
 * are, the verdict (a person's override, else the grader's) and whether it is a regression against the run's baseline.
 * The run's counts are the sums of its results, kept on the run in the same transaction.
 */
export const evalResults = sqliteTable(
  'eval_results',
  {
    runId: text('run_id')
      .notNull()
      .references(() => evalRuns.id, { onDelete: 'cascade' }),
    caseId: text('case_id')
      .notNull()
      .references(() => evalCases.id, { onDelete: 'cascade' }),
    /** The replays it has (the run's repeat) and how many must pass (its min_pass). */
    total: integer('total').notNull(),
    minPass: integer('min_pass').notNull(),
    /** Its replays reported so far. */
    replays: integer('replays').notNull(),
    passed: integer('passed').notNull(),
    errored: integer('errored').notNull(),
    /** The grader's verdict once every replay is done, else null. */
    graded: text('graded', { enum: ['pass', 'fail', 'error'] }),
    /** The override when there is one, else `graded`. */
    verdict: text('verdict', { enum: ['pass', 'fail', 'error'] }),
    /** Its verdict in the run's baseline, if it ran there. */
    baseline: text('baseline', { enum: ['pass', 'fail', 'error'] }),
    regression: integer('regression', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.caseId] }),
    // A case's passes across runs: what fixes its flag, read from the case.
    index('eval_results_case_idx')
      .on(t.caseId, t.runId)
      .where(sql`${t.verdict} = 'pass'`),
  ],
);

/**
 * How many results people reviewed, by workspace, UTC day of the review, grader (its judge, '' for the deterministic
 * one), the grader's verdict and the person's: what the graders' agreement sums, whatever the history of runs. A
 * person's verdict adds its review here in the transaction that records it, and one replaced or taken back takes its
 * own away. Results the grader could not grade (errors) are not reviews of it and are not counted.
 */
export const graderReviews = sqliteTable(
  'grader_reviews',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    grader: text('grader').notNull(),
    graded: text('graded', { enum: ['pass', 'fail'] }).notNull(),
    person: text('person', { enum: ['pass', 'fail'] }).notNull(),
    reviews: integer('reviews').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.day, t.grader, t.graded, t.person] })],
);

// github: src/github/tables.ts

/** A repository linked to a workspace: `owner/name` as the member gave it, one workspace per repository whatever the case. */
export const githubLinks = sqliteTable(
  'github_links',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    repository: text('repository').notNull(),
    /** An email: the record outlives a membership. */
    createdBy: text('created_by').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('github_links_repository_idx').on(sql`lower(${t.repository})`),
    index('github_links_workspace_idx').on(t.workspaceId),
  ],
);

/** The repositories the GitHub App is installed on, as its installation webhooks said. */
export const githubInstallations = sqliteTable(
  'github_installations',
  {
    repository: text('repository').notNull(),
    installationId: integer('installation_id').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('github_installations_repository_idx').on(sql`lower(${t.repository})`),
    index('github_installations_installation_idx').on(t.installationId),
  ],
);

/** Webhook deliveries already taken, by `X-GitHub-Delivery`: a redelivery does nothing twice. */
export const githubDeliveries = sqliteTable(
  'github_deliveries',
  {
    id: text('id').primaryKey(),
    receivedAt: text('received_at').notNull(),
  },
  // Retention: deliveries past GitHub's redeliveries, by age.
  (t) => [index('github_deliveries_received_idx').on(t.receivedAt)],
);

/** The pull request a preview's run reports to. */
export const previewTargets = sqliteTable('preview_targets', {
  runId: text('run_id')
    .primaryKey()
    .references(() => evalRuns.id, { onDelete: 'cascade' }),
  workspaceId: text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  repository: text('repository').notNull(),
  pullNumber: integer('pull_number').notNull(),
  installationId: integer('installation_id').notNull(),
  headSha: text('head_sha').notNull(),
  createdAt: text('created_at').notNull(),
});

/** What the GitHub App must do, kept until it says done; claimed with a deadline, so a claimer that died loses it. */
export const eventOutbox = sqliteTable(
  'event_outbox',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['run_finished', 'flags_issue'] }).notNull(),
    key: text('key').notNull(),
    /** JSON. */
    payload: text('payload').notNull(),
    availableAt: text('available_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    claimId: text('claim_id'),
    claimedUntil: text('claimed_until'),
    doneAt: text('done_at'),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('event_outbox_key_idx').on(t.kind, t.key),
    // Claims read only the events not done, the first available first; done ones leave the index.
    index('event_outbox_open_idx')
      .on(t.availableAt, t.id)
      .where(sql`${t.doneAt} is null`),
  ],
);

// digest: src/digest/tables.ts

/**
 * The daily digest's claims: one row per workspace and day (in the digest's time zone), inserted before anything is
 * sent, so the day's mail goes out at most once whatever number of cores run the schedule.
 */
export const digestDays = sqliteTable(
  'digest_days',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** `YYYY-MM-DD` in the digest's time zone. */
    day: text('day').notNull(),
    claimedAt: text('claimed_at').notNull(),
    /** When the day's mail went to the mail outbox; null when there was nothing new to mail. */
    mailedAt: text('mailed_at'),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.day] }), index('digest_days_mailed_idx').on(t.workspaceId, t.mailedAt)],
);
