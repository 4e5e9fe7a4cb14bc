import { boolean, index, integer, primaryKey, sql, table, text } from '../platform/tables/define.ts';

// Phone verification's tables: senders, test numbers, verifications, the message outbox, idempotency keys and
// the hourly send counts.
// Written once for both stores: `pnpm db:generate` writes src/store/{sqlite,postgres}/schema.ts from it, then
// the migrations (see src/platform/tables/define.ts).

export const senders = table('senders', {
  columns: {
    workspaceId: text('workspace_id').primaryKey().references('workspaces.id', { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['whatsapp_cloud', 'twilio_whatsapp', 'dev'] }).notNull(),
    /** The configuration without its secrets, as JSON. */
    config: text('config').notNull(),
    /** The secret fields as JSON, encrypted (AES-256-GCM). */
    secretsSealed: text('secrets_sealed'),
    updatedAt: text('updated_at').notNull(),
  },
});

export const testNumbers = table('test_numbers', {
  columns: {
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    /** The fixed code, encrypted: each verification HMACs it with its own id. */
    codeSealed: text('code_sealed').notNull(),
    createdAt: text('created_at').notNull(),
  },
  indexes: (t) => [primaryKey(t.workspaceId, t.phoneNumber)],
});

export const phoneVerifications = table('phone_verifications', {
  columns: {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
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
  indexes: (t) => [index('phone_verifications_number_idx').on(t.workspaceId, t.phoneNumber, t.status)],
});

/** Messages to send, written in the same transaction as the state change they announce. */
export const messageOutbox = table('message_outbox', {
  columns: {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    verificationId: text('verification_id').notNull().references('phone_verifications.id', { onDelete: 'cascade' }),
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
  indexes: (t) => [
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
});

/** What the `dev` sender "sent": local mode's outbox page. */
export const devMessages = table('dev_messages', {
  columns: {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id').notNull(),
    to: text('to').notNull(),
    body: text('body').notNull(),
    verificationId: text('verification_id').notNull(),
    createdAt: text('created_at').notNull(),
  },
});

/** The first answer to a request with an Idempotency-Key, replayed to its retries for 24 hours. */
export const idempotencyKeys = table('idempotency_keys', {
  columns: {
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
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
  indexes: (t) => [primaryKey(t.workspaceId, t.operation, t.key), index('idempotency_keys_created_idx').on(t.createdAt)],
});

/** Sends per workspace per clock hour as cores before `hourly_send_shards` counted them: read, and purged, no longer written. */
export const hourlySends = table('hourly_sends', {
  columns: {
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    hour: text('hour').notNull(),
    count: integer('count').notNull(),
  },
  indexes: (t) => [primaryKey(t.workspaceId, t.hour)],
});

/**
 * Sends per workspace per clock hour, counted by each core in a row of its own (`shard`): creates in several cores
 * never queue on one row. The cap sums a workspace's rows of the hour, with its row in `hourly_sends` (counted there
 * by cores of earlier versions, while they still run beside these).
 */
export const hourlySendShards = table('hourly_send_shards', {
  columns: {
    workspaceId: text('workspace_id').notNull().references('workspaces.id', { onDelete: 'cascade' }),
    hour: text('hour').notNull(),
    shard: integer('shard').notNull(),
    count: integer('count').notNull(),
  },
  indexes: (t) => [primaryKey(t.workspaceId, t.hour, t.shard)],
});
