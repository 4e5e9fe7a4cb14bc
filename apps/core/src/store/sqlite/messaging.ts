import { and, asc, desc, eq, gt, gte, lt, lte, sql } from 'drizzle-orm';
import type { MessagingStore, NewOutboxMessage } from '../messaging-store.ts';
import type { SqliteDb } from './database.ts';
import { devMessages, idempotencyKeys, messageOutbox, phoneVerifications, senders, testNumbers } from './schema.ts';

const outboxRow = (message: NewOutboxMessage) => ({
  ...message,
  status: 'pending' as const,
  attempts: 0,
  nextAttemptAt: message.createdAt,
});

export function createSqliteMessaging(db: SqliteDb): MessagingStore {
  const getVerification = (id: string) => {
    const row = db.select().from(phoneVerifications).where(eq(phoneVerifications.id, id)).get();
    if (!row) throw new Error(`verification ${id} vanished`);
    return row;
  };

  /** Finishes a message (sent or given up on): its code is no longer kept, and its verification says so. */
  const finish = (
    id: string,
    outcome: { status: 'sent' | 'failed'; providerMessageId?: string; error?: string; at: string },
  ) =>
    db.transaction((tx) => {
      const message = tx
        .update(messageOutbox)
        .set({
          status: outcome.status,
          codeSealed: null,
          providerMessageId: outcome.providerMessageId ?? null,
          lastError: outcome.error ?? null,
          sentAt: outcome.status === 'sent' ? outcome.at : null,
          attempts: sql`${messageOutbox.attempts} + 1`,
        })
        .where(eq(messageOutbox.id, id))
        .returning({ verificationId: messageOutbox.verificationId })
        .get();
      if (!message) return;
      tx.update(phoneVerifications)
        .set({ deliveryStatus: outcome.status, deliveryError: outcome.error ?? null, deliveryUpdatedAt: outcome.at })
        .where(and(eq(phoneVerifications.id, message.verificationId), eq(phoneVerifications.deliveryStatus, 'queued')))
        .run();
    });

  return {
    verifications: {
      async create(verification, message) {
        db.transaction((tx) => {
          tx.insert(phoneVerifications).values(verification).run();
          if (message) tx.insert(messageOutbox).values(outboxRow(message)).run();
        });
      },
      async resend(id, resend, message) {
        return db.transaction((tx) => {
          tx.update(messageOutbox)
            .set({ status: 'superseded', codeSealed: null })
            .where(and(eq(messageOutbox.verificationId, id), eq(messageOutbox.status, 'pending')))
            .run();
          const updated = tx
            .update(phoneVerifications)
            .set({
              ...resend,
              deliveryError: null,
              deliveryUpdatedAt: resend.lastSentAt,
              sendCount: sql`${phoneVerifications.sendCount} + 1`,
            })
            .where(eq(phoneVerifications.id, id))
            .returning()
            .get();
          if (message) tx.insert(messageOutbox).values(outboxRow(message)).run();
          if (!updated) throw new Error(`verification ${id} vanished`);
          return updated;
        });
      },
      async get(workspaceId, id) {
        return db
          .select()
          .from(phoneVerifications)
          .where(and(eq(phoneVerifications.id, id), eq(phoneVerifications.workspaceId, workspaceId)))
          .get();
      },
      async findPending(workspaceId, phoneNumber, now) {
        return db
          .select()
          .from(phoneVerifications)
          .where(
            and(
              eq(phoneVerifications.workspaceId, workspaceId),
              eq(phoneVerifications.phoneNumber, phoneNumber),
              eq(phoneVerifications.status, 'pending'),
              gt(phoneVerifications.expiresAt, now),
            ),
          )
          .orderBy(desc(phoneVerifications.createdAt))
          .get();
      },
      async recordFailedAttempt(id, blockAt) {
        db.update(phoneVerifications)
          .set({
            failedAttempts: sql`${phoneVerifications.failedAttempts} + 1`,
            status: sql`case when ${phoneVerifications.failedAttempts} + 1 >= ${blockAt} then 'blocked' else ${phoneVerifications.status} end`,
          })
          .where(and(eq(phoneVerifications.id, id), eq(phoneVerifications.status, 'pending')))
          .run();
        return getVerification(id);
      },
      async markVerified(id, at) {
        const result = db
          .update(phoneVerifications)
          .set({ status: 'verified', verifiedAt: at })
          .where(and(eq(phoneVerifications.id, id), eq(phoneVerifications.status, 'pending')))
          .run();
        return result.changes > 0;
      },
    },
    outbox: {
      async recentSendTimes(workspaceId, phoneNumber, since, limit) {
        return db
          .select({ createdAt: messageOutbox.createdAt })
          .from(messageOutbox)
          .where(
            and(
              eq(messageOutbox.workspaceId, workspaceId),
              phoneNumber === null ? undefined : eq(messageOutbox.phoneNumber, phoneNumber),
              gt(messageOutbox.createdAt, since),
            ),
          )
          .orderBy(desc(messageOutbox.createdAt))
          .limit(limit)
          .all()
          .map((row) => row.createdAt);
      },
      async due(now, limit) {
        return db
          .select()
          .from(messageOutbox)
          .where(and(eq(messageOutbox.status, 'pending'), lte(messageOutbox.nextAttemptAt, now)))
          .orderBy(asc(messageOutbox.nextAttemptAt))
          .limit(limit)
          .all();
      },
      async markSent(id, providerMessageId, at) {
        finish(id, { status: 'sent', providerMessageId, at });
      },
      async markFailed(id, error, at) {
        finish(id, { status: 'failed', error, at });
      },
      async markRetry(id, nextAttemptAt, error) {
        db.update(messageOutbox)
          .set({ nextAttemptAt, lastError: error, attempts: sql`${messageOutbox.attempts} + 1` })
          .where(eq(messageOutbox.id, id))
          .run();
      },
      async findByProviderMessageId(providerMessageId) {
        return db.select().from(messageOutbox).where(eq(messageOutbox.providerMessageId, providerMessageId)).get();
      },
      async setDeliveryStatus(verificationId, status, error, at) {
        db.update(phoneVerifications)
          .set({ deliveryStatus: status, deliveryError: error, deliveryUpdatedAt: at })
          .where(eq(phoneVerifications.id, verificationId))
          .run();
      },
    },
    senders: {
      async get(workspaceId) {
        const row = db.select().from(senders).where(eq(senders.workspaceId, workspaceId)).get();
        return row && { ...row, config: JSON.parse(row.config) as Record<string, string> };
      },
      async put(sender) {
        const row = { ...sender, config: JSON.stringify(sender.config) };
        db.insert(senders).values(row).onConflictDoUpdate({ target: senders.workspaceId, set: row }).run();
      },
    },
    testNumbers: {
      async list(workspaceId) {
        return db
          .select({ phoneNumber: testNumbers.phoneNumber, codeSealed: testNumbers.codeSealed })
          .from(testNumbers)
          .where(eq(testNumbers.workspaceId, workspaceId))
          .orderBy(asc(testNumbers.phoneNumber))
          .all();
      },
      async find(workspaceId, phoneNumber) {
        return db
          .select({ phoneNumber: testNumbers.phoneNumber, codeSealed: testNumbers.codeSealed })
          .from(testNumbers)
          .where(and(eq(testNumbers.workspaceId, workspaceId), eq(testNumbers.phoneNumber, phoneNumber)))
          .get();
      },
      async replace(workspaceId, numbers, at) {
        db.transaction((tx) => {
          tx.delete(testNumbers).where(eq(testNumbers.workspaceId, workspaceId)).run();
          for (const number of numbers) tx.insert(testNumbers).values({ ...number, workspaceId, createdAt: at }).run();
        });
      },
    },
    devMessages: {
      async add(message) {
        db.insert(devMessages).values(message).run();
      },
      async list(limit) {
        return db.select().from(devMessages).orderBy(desc(devMessages.createdAt), desc(devMessages.id)).limit(limit).all();
      },
    },
    idempotency: {
      async get(workspaceId, operation, key, since) {
        return db
          .select({ requestHash: idempotencyKeys.requestHash, response: idempotencyKeys.response })
          .from(idempotencyKeys)
          .where(
            and(
              eq(idempotencyKeys.workspaceId, workspaceId),
              eq(idempotencyKeys.operation, operation),
              eq(idempotencyKeys.key, key),
              gte(idempotencyKeys.createdAt, since),
            ),
          )
          .get();
      },
      async put(workspaceId, operation, key, stored, at) {
        const row = { workspaceId, operation, key, ...stored, createdAt: at };
        db.insert(idempotencyKeys)
          .values(row)
          .onConflictDoUpdate({ target: [idempotencyKeys.workspaceId, idempotencyKeys.operation, idempotencyKeys.key], set: row })
          .run();
      },
      async purge(before) {
        db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before)).run();
      },
    },
  };
}
