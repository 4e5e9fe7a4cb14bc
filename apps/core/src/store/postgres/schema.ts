import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, primaryKey, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

// The PostgreSQL store's tables: the SQLite schema's twins, column for column, so both stores hold the same records.
// Timestamps are ISO 8601 UTC strings: they sort as text and need no conversion at the boundary.

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  createdAt: text('created_at').notNull(),
});

export const workspaces = pgTable('workspaces', {
  id: text('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name'),
  createdAt: text('created_at').notNull(),
});

export const memberships = pgTable(
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

export const developerTokens = pgTable(
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

export const senders = pgTable('senders', {
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

export const testNumbers = pgTable(
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

export const phoneVerifications = pgTable(
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
    testNumber: boolean('test_number').notNull().default(false),
    expiresAt: text('expires_at').notNull(),
    lastSentAt: text('last_sent_at').notNull(),
    verifiedAt: text('verified_at'),
    deliveryStatus: text('delivery_status', {
      enum: ['queued', 'sent', 'delivered', 'read', 'failed', 'not_sent'],
    }).notNull(),
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
export const messageOutbox = pgTable(
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
export const devMessages = pgTable('dev_messages', {
  id: text('id').primaryKey(),
  workspaceId: text('workspace_id').notNull(),
  to: text('to').notNull(),
  body: text('body').notNull(),
  verificationId: text('verification_id').notNull(),
  createdAt: text('created_at').notNull(),
});

/** The first answer to a request with an Idempotency-Key, replayed to its retries for 24 hours. */
export const idempotencyKeys = pgTable(
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
export const hourlySends = pgTable(
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
export const hourlySendShards = pgTable(
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

export const deviceAuthorizations = pgTable('device_authorizations', {
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

export const sessions = pgTable(
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
export const loginLinks = pgTable('login_links', {
  id: text('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  email: text('email').notNull(),
  /** Where the browser lands once signed in (a path of ours). */
  next: text('next').notNull(),
  expiresAt: text('expires_at').notNull(),
  usedAt: text('used_at'),
  createdAt: text('created_at').notNull(),
});

/** Mails to send, written in the same transaction as what they announce. */
export const mailOutbox = pgTable(
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
export const devMails = pgTable('dev_mails', {
  id: text('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  createdAt: text('created_at').notNull(),
});

/** An immutable deployed version of a workspace's agents: the manifest files as pushed. */
export const agentVersions = pgTable(
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

export const environments = pgTable(
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

export const environmentSecrets = pgTable(
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

export const chats = pgTable(
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
    replay: boolean('replay').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('chats_inbox_idx').on(t.workspaceId, t.replay, t.createdAt)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: text('id').primaryKey(),
    /** Insertion order: a chat's messages are read back in the order they were written. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['visitor', 'agent'] }).notNull(),
    text: text('text').notNull(),
    /** The agent turn's trace as JSON (tool calls, knowledge lookups, tokens), secrets redacted. */
    trace: text('trace'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('chat_messages_chat_idx').on(t.chatId, t.seq)],
);

/** Invitations to join a workspace; only the hash of the mailed link's token is kept. */
export const invitations = pgTable(
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
export const membershipEvents = pgTable(
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

export * from './flags-schema.ts';
export * from './evals-schema.ts';
export * from './digest-schema.ts';
export * from './github-schema.ts';
