import { and, asc, desc, eq, getTableColumns, gt, gte, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { digestsEqual } from '../platform/secrets.ts';
import {
  type CodeCheck,
  HourlyLimitReached,
  hourOf,
  type MessagingStore,
  type IdempotencyScope,
  type NewOutboxMessage,
  NumberAtLimit,
  type PhoneVerification,
  queuedMessage,
  senderRecord,
  senderRow,
  type StoredResponse,
  VerificationChanged,
} from './store.ts';
import { backlogColumns } from '../platform/backlog.ts';
import type { SqliteDb } from '../platform/sqlite/database.ts';
import type { Write } from '../platform/sqlite/group-commit.ts';
import { keepNewestRows, purgeRows } from '../platform/sqlite/purge.ts';
import {
  devMessages,
  hourlySendShards,
  hourlySends,
  idempotencyKeys,
  messageOutbox,
  phoneVerifications,
  senders,
  testNumbers,
} from '../platform/sqlite/schema.ts';
import { claimRenewal, confirmClaim } from '../platform/sqlite/claims.ts';
import { bound, inJsonArray, p, placeholders } from '../platform/sqlite/prepared.ts';
import { finishedBefore } from '../platform/finished-rows.ts';
import { takenOver } from '../platform/taken-over.ts';

const keyIs = (scope: IdempotencyScope) =>
  and(
    eq(idempotencyKeys.workspaceId, scope.workspaceId),
    eq(idempotencyKeys.operation, scope.operation),
    eq(idempotencyKeys.key, scope.key),
  );

/** A check's outcome, with the state of the verification it left. */
const checked = (outcome: CodeCheck['outcome'], { status, failedAttempts, expiresAt }: PhoneVerification): CodeCheck => ({
  outcome,
  verification: { status, failedAttempts, expiresAt },
});

export function createSqliteMessaging(db: SqliteDb, write: Write): MessagingStore {
  // The statements on every create and verify are compiled once.
  const verificationById = db
    .select()
    .from(phoneVerifications)
    .where(and(eq(phoneVerifications.id, p('id')), eq(phoneVerifications.workspaceId, p('workspaceId'))))
    .prepare();
  const pendingForNumber = db
    .select()
    .from(phoneVerifications)
    .where(
      and(
        eq(phoneVerifications.workspaceId, p('workspaceId')),
        eq(phoneVerifications.phoneNumber, p('phoneNumber')),
        eq(phoneVerifications.status, 'pending'),
        gt(phoneVerifications.expiresAt, p('now')),
      ),
    )
    .orderBy(desc(phoneVerifications.createdAt))
    .prepare();
  const sendTimesToNumber = db
    .select({ createdAt: messageOutbox.createdAt })
    .from(messageOutbox)
    .where(
      and(
        eq(messageOutbox.workspaceId, p('workspaceId')),
        eq(messageOutbox.phoneNumber, p('phoneNumber')),
        gt(messageOutbox.createdAt, p('since')),
      ),
    )
    // No LIMIT: bound as a parameter, it made each run cost SQLite about three times as much (18 against 5 µs), and a
    // number's sends in its window are few, as the limit stops them.
    .orderBy(desc(messageOutbox.createdAt))
    .prepare();
  // The hour's count: this store's row, and the row cores of earlier versions counted in.
  const counted = (table: typeof hourlySends | typeof hourlySendShards) =>
    sql`coalesce((select sum(${table.count}) from ${table} where ${table.workspaceId} = ${p('workspaceId')} and ${table.hour} = ${p('hour')}), 0)`;
  const sendsInHour = db
    .select({ count: sql<number>`${counted(hourlySendShards)} + ${counted(hourlySends)}` })
    .from(sql`(select 1)`)
    .prepare();
  const senderOf = db
    .select()
    .from(senders)
    .where(eq(senders.workspaceId, p('workspaceId')))
    .prepare();

  const insertVerification = db.insert(phoneVerifications).values(placeholders(phoneVerifications)).prepare();
  const insertMessage = db.insert(messageOutbox).values(placeholders(messageOutbox)).prepare();
  // Counts a send in its workspace's hour and answers the hour's count with it. One core writes SQLite, so it counts
  // in one row (shard 0), next to the row of earlier versions.
  const countSend = db
    .insert(hourlySendShards)
    .values({ workspaceId: p('workspaceId'), hour: p('hour'), shard: 0, count: 1 })
    .onConflictDoUpdate({
      target: [hourlySendShards.workspaceId, hourlySendShards.hour, hourlySendShards.shard],
      set: { count: sql`${hourlySendShards.count} + 1` },
    })
    .returning({ count: sql<number>`${hourlySendShards.count} + ${counted(hourlySends)}` })
    .prepare();
  const failAttempt = db
    .update(phoneVerifications)
    .set({
      failedAttempts: sql`${phoneVerifications.failedAttempts} + 1`,
      status: sql`case when ${phoneVerifications.failedAttempts} + 1 >= ${p('blockAt')} then 'blocked' else ${phoneVerifications.status} end`,
    })
    .where(and(eq(phoneVerifications.id, p('id')), eq(phoneVerifications.status, 'pending')))
    .returning()
    .prepare();
  const verify = db
    .update(phoneVerifications)
    .set({ status: 'verified', verifiedAt: sql`${p('at')}` })
    .where(and(eq(phoneVerifications.id, p('id')), eq(phoneVerifications.status, 'pending')))
    .returning()
    .prepare();

  const dueMessagesQuery = (claimable: boolean) =>
    db
      .select({ ...getTableColumns(messageOutbox), codeExpiresAt: phoneVerifications.expiresAt })
      .from(messageOutbox)
      .innerJoin(phoneVerifications, eq(phoneVerifications.id, messageOutbox.verificationId))
      // A literal 'pending', as in the partial due index, so the planner can always use it.
      .where(
        and(
          sql`${messageOutbox.status} = 'pending'`,
          lte(messageOutbox.nextAttemptAt, p('now')),
          claimable ? or(isNull(messageOutbox.claimedUntil), lt(messageOutbox.claimedUntil, p('now'))) : undefined,
        ),
      )
      .orderBy(asc(messageOutbox.nextAttemptAt))
      .limit(p('limit'))
      .prepare();
  const dueMessages = dueMessagesQuery(false);
  const claimableMessages = dueMessagesQuery(true);
  const holdMessages = db
    .update(messageOutbox)
    .set({ claimId: bound('claimId'), claimedUntil: bound('until'), unanswered: takenOver(messageOutbox) })
    .where(inJsonArray(messageOutbox.id, 'ids'))
    .prepare();
  const finishMessage = db
    .update(messageOutbox)
    .set({
      status: sql`${p('status')}`,
      codeSealed: null,
      providerMessageId: sql`${p('providerMessageId')}`,
      lastError: sql`${p('error')}`,
      sentAt: sql`${p('sentAt')}`,
      attempts: sql`${messageOutbox.attempts} + 1`,
      claimId: null,
      claimedUntil: null,
    })
    .where(and(eq(messageOutbox.id, p('id')), eq(messageOutbox.claimId, p('claimId')), eq(messageOutbox.status, 'pending')))
    .returning({ verificationId: messageOutbox.verificationId })
    .prepare();
  const recordDelivery = db
    .update(phoneVerifications)
    .set({ deliveryStatus: sql`${p('status')}`, deliveryError: sql`${p('error')}`, deliveryUpdatedAt: sql`${p('at')}` })
    .where(and(eq(phoneVerifications.id, p('id')), eq(phoneVerifications.deliveryStatus, 'queued')))
    .prepare();

  /**
   * Queues a message and counts it in its workspace's hour, or throws when the hour is full; call inside a write, whose
   * savepoint takes the count back when it throws.
   */
  const queue = (message: NewOutboxMessage, hourlyLimit: number) => {
    const hour = hourOf(message.createdAt);
    if (countSend.get({ workspaceId: message.workspaceId, hour })!.count > hourlyLimit) throw new HourlyLimitReached(hour);
    insertMessage.run({ ...queuedMessage(message) });
  };

  /** Finishes a message (sent or given up on): its code is no longer kept, and its verification says so. */
  /** Finishes a message held by `claimId`; answers false, changing nothing, when that claim does not hold it any more. */
  const finish = (
    id: string,
    claimId: string,
    outcome: { status: 'sent' | 'failed'; providerMessageId?: string; error?: string; at: string },
  ) =>
    write(() => {
      const error = outcome.error ?? null;
      const message = finishMessage.get({
        id,
        claimId,
        status: outcome.status,
        providerMessageId: outcome.providerMessageId ?? null,
        error,
        sentAt: outcome.status === 'sent' ? outcome.at : null,
      });
      if (!message) return false;
      recordDelivery.run({ id: message.verificationId, status: outcome.status, error, at: outcome.at });
      return true;
    });

  return {
    verifications: {
      async create(verification, message, hourlyLimit, numberLimit) {
        await write(() => {
          // In the write's transaction, which SQLite runs one at a time across connections: no other create can
          // insert between this check and the insert.
          const { workspaceId, phoneNumber, createdAt } = verification;
          if (pendingForNumber.get({ workspaceId, phoneNumber, now: createdAt })) throw new VerificationChanged(phoneNumber);
          if (numberLimit && sendTimesToNumber.all({ workspaceId, phoneNumber, since: numberLimit.since }).length >= numberLimit.limit) {
            throw new NumberAtLimit(phoneNumber);
          }
          insertVerification.run({ ...verification });
          if (message) queue(message, hourlyLimit);
        });
      },
      async resend(id, lastSentBefore, resend, message, hourlyLimit) {
        return write(() => {
          const current = db
            .select({ phoneNumber: phoneVerifications.phoneNumber, lastSentAt: phoneVerifications.lastSentAt })
            .from(phoneVerifications)
            .where(eq(phoneVerifications.id, id))
            .get();
          if (!current) throw new Error(`verification ${id} vanished`);
          if (current.lastSentAt !== lastSentBefore) throw new VerificationChanged(current.phoneNumber);
          db.update(messageOutbox)
            .set({ status: 'superseded', codeSealed: null, claimId: null, claimedUntil: null })
            .where(and(eq(messageOutbox.verificationId, id), eq(messageOutbox.status, 'pending')))
            .run();
          db.update(phoneVerifications)
            .set({
              ...resend,
              deliveryError: null,
              deliveryUpdatedAt: resend.lastSentAt,
              sendCount: sql`${phoneVerifications.sendCount} + 1`,
            })
            .where(eq(phoneVerifications.id, id))
            .run();
          if (message) queue(message, hourlyLimit);
        });
      },
      async get(workspaceId, id) {
        return verificationById.get({ id, workspaceId });
      },
      async sendState(workspaceId, phoneNumber, now, since, limit) {
        return {
          pending: pendingForNumber.get({ workspaceId, phoneNumber, now }),
          recentSendTimes: sendTimesToNumber
            .all({ workspaceId, phoneNumber, since })
            .slice(0, limit)
            .map((row) => row.createdAt),
        };
      },
      async check(workspaceId, id, codeHmac, at, blockAt) {
        return write((): CodeCheck | undefined => {
          const before = verificationById.get({ id, workspaceId });
          if (!before) return undefined;
          if (before.status !== 'pending' || before.expiresAt <= at) return checked('none', before);
          if (digestsEqual(codeHmac, before.codeHmac)) return checked('verified', verify.get({ id, at })!);
          return checked('failed', failAttempt.get({ id, blockAt })!);
        });
      },
    },
    outbox: {
      async sendsInHour(workspaceId, hour) {
        return sendsInHour.get({ workspaceId, hour })?.count ?? 0;
      },
      async due(now, limit) {
        return dueMessages.all({ now, limit });
      },
      async backlog() {
        return db.select(backlogColumns(messageOutbox.createdAt)).from(messageOutbox).where(eq(messageOutbox.status, 'pending')).get()!;
      },
      async claim(claim, limit) {
        return write(() => {
          const claimed = claimableMessages.all({ now: claim.now, limit });
          if (claimed.length === 0) return [];
          holdMessages.run({ claimId: claim.id, until: claim.until, ids: JSON.stringify(claimed.map((message) => message.id)) });
          return claimed.map((message) => ({
            ...message,
            unanswered: message.unanswered + (message.claimId === null ? 0 : 1),
            claimId: claim.id,
            claimedUntil: claim.until,
          }));
        });
      },
      markSent(id, claimId, providerMessageId, at) {
        return finish(id, claimId, { status: 'sent', providerMessageId, at });
      },
      markFailed(id, claimId, error, at) {
        return finish(id, claimId, { status: 'failed', error, at });
      },
      markRetry(id, claimId, nextAttemptAt, error, unanswered) {
        return write(
          () =>
            db
              .update(messageOutbox)
              .set({
                nextAttemptAt,
                lastError: error,
                attempts: sql`${messageOutbox.attempts} + 1`,
                unanswered: sql`${messageOutbox.unanswered} + ${unanswered ? 1 : 0}`,
                claimId: null,
                claimedUntil: null,
              })
              .where(and(eq(messageOutbox.id, id), eq(messageOutbox.claimId, claimId), eq(messageOutbox.status, 'pending')))
              .run().changes > 0,
        );
      },
      settle(workspaceId, id, providerMessageId, at) {
        return write(() => {
          const [settled] = db
            .update(messageOutbox)
            .set({ status: 'sent', codeSealed: null, providerMessageId, sentAt: at, claimId: null, claimedUntil: null })
            .where(and(eq(messageOutbox.id, id), eq(messageOutbox.workspaceId, workspaceId), eq(messageOutbox.status, 'pending')))
            .returning({ verificationId: messageOutbox.verificationId })
            .all();
          if (!settled) return false;
          db.update(phoneVerifications)
            .set({ deliveryStatus: 'sent', deliveryError: null, deliveryUpdatedAt: at })
            .where(and(eq(phoneVerifications.id, settled.verificationId), eq(phoneVerifications.deliveryStatus, 'queued')))
            .run();
          return true;
        });
      },
      renew: claimRenewal(db, write, messageOutbox),
      confirm: (id, claimId, now, until) => confirmClaim(db, write, id, claimId, now, until),
      async findByProviderMessageId(providerMessageId) {
        return db.select().from(messageOutbox).where(eq(messageOutbox.providerMessageId, providerMessageId)).get();
      },
      async setDeliveryStatus(verificationId, status, error, at) {
        await write(() =>
          db
            .update(phoneVerifications)
            .set({ deliveryStatus: status, deliveryError: error, deliveryUpdatedAt: at })
            .where(eq(phoneVerifications.id, verificationId))
            .run(),
        );
      },
      purgeFinished(before, limit) {
        return purgeRows(db, write, messageOutbox, finishedBefore(messageOutbox.status, messageOutbox.createdAt, before), limit);
      },
      async purgeHourlyCounts(before, limit) {
        const shards = await purgeRows(db, write, hourlySendShards, lt(hourlySendShards.hour, before)!, limit);
        return shards + (await purgeRows(db, write, hourlySends, lt(hourlySends.hour, before)!, limit - shards));
      },
    },
    senders: {
      async get(workspaceId) {
        const row = senderOf.get({ workspaceId });
        return row && senderRecord(row);
      },
      async put(sender) {
        const row = senderRow(sender);
        await write(() => db.insert(senders).values(row).onConflictDoUpdate({ target: senders.workspaceId, set: row }).run());
      },
      async withClearField(field) {
        const rows = db
          .select()
          .from(senders)
          .where(sql`json_type(${senders.config}, ${`$."${field}"`}) IS NOT NULL`)
          .all();
        return rows.map(senderRecord);
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
      async replace(workspaceId, numbers, at) {
        await write(() => {
          db.delete(testNumbers).where(eq(testNumbers.workspaceId, workspaceId)).run();
          for (const number of numbers)
            db.insert(testNumbers)
              .values({ ...number, workspaceId, createdAt: at })
              .run();
        });
      },
    },
    devMessages: {
      async add(message) {
        await write(() => db.insert(devMessages).values(message).run());
      },
      async list(limit) {
        return db.select().from(devMessages).orderBy(desc(devMessages.createdAt), desc(devMessages.id)).limit(limit).all();
      },
      keepNewest(kept) {
        return keepNewestRows(db, write, devMessages, kept);
      },
    },
    idempotency: {
      async get(scope, since) {
        return db
          .select({ requestHash: idempotencyKeys.requestHash, response: idempotencyKeys.response })
          .from(idempotencyKeys)
          .where(and(keyIs(scope), isNotNull(idempotencyKeys.response), gte(idempotencyKeys.createdAt, since)))
          .get() as StoredResponse | undefined;
      },
      async claim(scope, requestHash, claim, since) {
        const row = { ...scope, requestHash, response: null, createdAt: claim.now, claimId: claim.id, claimedUntil: claim.until };
        return write(() => {
          db.insert(idempotencyKeys)
            .values(row)
            .onConflictDoUpdate({
              target: [idempotencyKeys.workspaceId, idempotencyKeys.operation, idempotencyKeys.key],
              set: row,
              // Taken over: an answer older than the key's lifetime, or a claim whose request died unanswered.
              setWhere: or(
                and(isNotNull(idempotencyKeys.response), lt(idempotencyKeys.createdAt, since)),
                and(isNull(idempotencyKeys.response), lt(idempotencyKeys.claimedUntil, claim.now)),
              ),
            })
            .run();
          const record = db
            .select({
              requestHash: idempotencyKeys.requestHash,
              response: idempotencyKeys.response,
              claimId: idempotencyKeys.claimId,
              claimedUntil: idempotencyKeys.claimedUntil,
            })
            .from(idempotencyKeys)
            .where(keyIs(scope))
            .get();
          if (!record) throw new Error(`idempotency key ${scope.key} vanished`);
          return record;
        });
      },
      async answer(scope, claimId, response, at) {
        const answered = await write(() =>
          db
            .update(idempotencyKeys)
            .set({ response, createdAt: at, claimedUntil: null })
            .where(and(keyIs(scope), eq(idempotencyKeys.claimId, claimId), isNull(idempotencyKeys.response)))
            .run(),
        );
        return answered.changes > 0;
      },
      async renew(scope, claimId, until) {
        const renewed = await write(() =>
          db
            .update(idempotencyKeys)
            .set({ claimedUntil: until })
            .where(and(keyIs(scope), eq(idempotencyKeys.claimId, claimId), isNull(idempotencyKeys.response)))
            .run(),
        );
        return renewed.changes > 0;
      },
      async release(scope, claimId) {
        await write(() =>
          db
            .delete(idempotencyKeys)
            .where(and(keyIs(scope), eq(idempotencyKeys.claimId, claimId), isNull(idempotencyKeys.response)))
            .run(),
        );
      },
      purge(before, limit) {
        return purgeRows(db, write, idempotencyKeys, lt(idempotencyKeys.createdAt, before)!, limit);
      },
    },
  };
}
