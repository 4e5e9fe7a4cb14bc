import { randomInt } from 'node:crypto';
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  type Placeholder,
  sql,
  type Table,
} from 'drizzle-orm';
import {
  HourlyLimitReached,
  hourOf,
  type IdempotencyScope,
  type MessagingStore,
  NumberAtLimit,
  queuedMessage,
  senderRecord,
  senderRow,
  type StoredResponse,
  VerificationChanged,
} from '../messaging-store.ts';
import { backlogColumns } from '../backlog.ts';
import type { PgDb } from './database.ts';
import { keepNewestRows, purgeRows } from './purge.ts';
import {
  devMessages,
  hourlySendShards,
  hourlySends,
  idempotencyKeys,
  messageOutbox,
  phoneVerifications,
  senders,
  testNumbers,
} from './schema.ts';
import { sqlState } from '../unavailable.ts';
import { statement, type Transact } from './transaction.ts';

const p = sql.placeholder;

/**
 * The writes here (all but the replace of test numbers) are one statement that reads and changes its rows
 * atomically, or lock what they then read (a number's lock, a verification's row, outbox rows taken `for update
 * skip locked`): read committed suffices, and writes that meet on a row (failed attempts, a workspace's hourly
 * count) wait for each other instead of failing and running again.
 */
const readCommitted = { isolation: 'read committed' } as const;

/** A record as PostgreSQL names its columns, for `jsonb_populate_record` in the create and resend functions. */
const rowOf = (table: Table, record: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => [column.name, (record as Record<string, unknown>)[key] ?? null]),
  );

const keyIs = (scope: IdempotencyScope) =>
  and(
    eq(idempotencyKeys.workspaceId, scope.workspaceId),
    eq(idempotencyKeys.operation, scope.operation),
    eq(idempotencyKeys.key, scope.key),
  );

/** Pending verifications of a number that have not expired at `now`. */
const pendingOf = (workspaceId: string | Placeholder, phoneNumber: string | Placeholder, now: string | Placeholder) =>
  and(
    eq(phoneVerifications.workspaceId, workspaceId),
    eq(phoneVerifications.phoneNumber, phoneNumber),
    eq(phoneVerifications.status, 'pending'),
    gt(phoneVerifications.expiresAt, now),
  );

// A literal 'pending', as in the partial due index, so the planner can always use it.
const isPending = sql`${messageOutbox.status} = 'pending'`;

export function createPostgresMessaging(db: PgDb, transact: Transact): MessagingStore {
  // The reads of every create and verify are prepared once per connection.
  const verificationById = db
    .select()
    .from(phoneVerifications)
    .where(and(eq(phoneVerifications.id, p('id')), eq(phoneVerifications.workspaceId, p('workspaceId'))))
    .prepare('messaging_verification_by_id');
  // A create's reads in one query: the number's pending verification (none: a row of nulls) and its recent sends.
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
    .orderBy(desc(messageOutbox.createdAt))
    .limit(p('limit'));
  const sendStateOf = db
    .select({ pending: phoneVerifications, recentSendTimes: sql<string[]>`array(${sendTimesToNumber})` })
    .from(sql`(select) as number`)
    .leftJoin(phoneVerifications, pendingOf(p('workspaceId'), p('phoneNumber'), p('now')))
    .orderBy(desc(phoneVerifications.createdAt))
    .limit(1)
    .prepare('messaging_send_state');
  // The hour's count: every core's row, and the row cores of earlier versions counted in.
  const counted = (table: typeof hourlySends | typeof hourlySendShards) =>
    sql`coalesce((select sum(${table.count}) from ${table} where ${table.workspaceId} = ${p('workspaceId')} and ${table.hour} = ${p('hour')}), 0)`;
  const sendsInHour = db
    .select({ count: sql<number>`(${counted(hourlySendShards)} + ${counted(hourlySends)})::int` })
    .from(sql`(select 1) as hour`)
    .prepare('messaging_sends_in_hour');
  // A verify's write: prepared once per connection, as its read is.
  const failAttempt = db
    .update(phoneVerifications)
    .set({
      failedAttempts: sql`${phoneVerifications.failedAttempts} + 1`,
      status: sql`case when ${phoneVerifications.failedAttempts} + 1 >= ${p('blockAt')} then 'blocked' else ${phoneVerifications.status} end`,
    })
    .where(and(eq(phoneVerifications.id, p('id')), eq(phoneVerifications.status, 'pending')))
    .returning()
    .prepare('messaging_fail_attempt');
  const verify = db
    .update(phoneVerifications)
    .set({ status: 'verified', verifiedAt: sql`${p('at')}` })
    .where(and(eq(phoneVerifications.id, p('id')), eq(phoneVerifications.status, 'pending')))
    .returning({ id: phoneVerifications.id })
    .prepare('messaging_verify');
  const senderOf = db
    .select()
    .from(senders)
    .where(eq(senders.workspaceId, p('workspaceId')))
    .prepare('messaging_sender_of');

  // Each core counts its sends in its own row of a workspace's hour (see svc_count_send): creates in several cores never
  // wait on one row, and racing cores may each count one send past the hourly cap.
  const shard = randomInt(2 ** 31);

  /**
   * Runs one of the create and resend functions (migrations 0002 and 0005): each write is one statement, so one round trip.
   * Their SV001 is VerificationChanged, SV002 HourlyLimitReached and SV003 NumberAtLimit, with nothing written.
   */
  async function writeVerification(name: string, args: unknown[], phoneNumber: string, hour: string): Promise<void> {
    const placeholders = args.map((_, i) => `$${i + 1}`).join(', ');
    try {
      const text = `select ${name}(${placeholders})`;
      await statement(() => db.$client.query({ name: `${name}_${args.length}`, text, values: args }));
    } catch (error) {
      if (sqlState(error) === 'SV001') throw new VerificationChanged(phoneNumber);
      if (sqlState(error) === 'SV002') throw new HourlyLimitReached(hour);
      if (sqlState(error) === 'SV003') throw new NumberAtLimit(phoneNumber);
      throw error;
    }
  }

  /**
   * Finishes a message held by `claimId`, and the delivery of its verification while that is still `queued`; answers
   * false, changing nothing, when that claim does not hold it any more. One statement: the outbox row is locked
   * first, then the verification's, the order in which a resend locks them too.
   */
  async function finish(
    id: string,
    claimId: string,
    outcome: { status: 'sent' | 'failed'; providerMessageId?: string; error?: string; at: string },
  ) {
    const error = outcome.error ?? null;
    const finished = db.$with('finished').as(
      db
        .update(messageOutbox)
        .set({
          status: outcome.status,
          codeSealed: null,
          providerMessageId: outcome.providerMessageId ?? null,
          lastError: error,
          sentAt: outcome.status === 'sent' ? outcome.at : null,
          attempts: sql`${messageOutbox.attempts} + 1`,
          claimId: null,
          claimedUntil: null,
        })
        .where(and(eq(messageOutbox.id, id), eq(messageOutbox.claimId, claimId), isPending))
        .returning({ verificationId: messageOutbox.verificationId }),
    );
    const delivered = db.$with('delivered').as(
      db
        .update(phoneVerifications)
        .set({ deliveryStatus: outcome.status, deliveryError: error, deliveryUpdatedAt: outcome.at })
        .where(
          and(
            inArray(phoneVerifications.id, db.select({ id: finished.verificationId }).from(finished)),
            eq(phoneVerifications.deliveryStatus, 'queued'),
          ),
        )
        .returning({ id: phoneVerifications.id }),
    );
    const rows = await statement(() => db.with(finished, delivered).select({ verificationId: finished.verificationId }).from(finished));
    return rows.length > 0;
  }

  return {
    verifications: {
      async create(verification, message, hourlyLimit, numberLimit) {
        const hour = hourOf(message?.createdAt ?? verification.createdAt);
        const queued = message && rowOf(messageOutbox, queuedMessage(message));
        const args = [rowOf(phoneVerifications, verification), queued, hour, shard, hourlyLimit];
        if (numberLimit) args.push(numberLimit.since, numberLimit.limit);
        await writeVerification('svc_create_verification', args, verification.phoneNumber, hour);
      },
      async resend(id, lastSentBefore, resend, message, hourlyLimit) {
        const hour = hourOf(message?.createdAt ?? resend.lastSentAt);
        const fresh = {
          code_hmac: resend.codeHmac,
          expires_at: resend.expiresAt,
          last_sent_at: resend.lastSentAt,
          delivery_status: resend.deliveryStatus,
        };
        const queued = message && rowOf(messageOutbox, queuedMessage(message));
        const args = [id, lastSentBefore, fresh, queued, hour, shard, hourlyLimit];
        await writeVerification('svc_resend_verification', args, message?.phoneNumber ?? `verification ${id}`, hour);
      },
      async get(workspaceId, id) {
        const [verification] = await verificationById.execute({ id, workspaceId });
        return verification;
      },
      async sendState(workspaceId, phoneNumber, now, since, limit) {
        const [state] = await sendStateOf.execute({ workspaceId, phoneNumber, now, since, limit });
        return { pending: state?.pending ?? undefined, recentSendTimes: state?.recentSendTimes ?? [] };
      },
      async recordFailedAttempt(id, blockAt) {
        const [after] = await statement(() => failAttempt.execute({ id, blockAt }));
        return after;
      },
      async markVerified(id, at) {
        return (await statement(() => verify.execute({ id, at }))).length > 0;
      },
    },
    outbox: {
      async sendsInHour(workspaceId, hour) {
        const [row] = await sendsInHour.execute({ workspaceId, hour });
        return row?.count ?? 0;
      },
      async due(now, limit) {
        return db
          .select({ ...getTableColumns(messageOutbox), codeExpiresAt: phoneVerifications.expiresAt })
          .from(messageOutbox)
          .innerJoin(phoneVerifications, eq(phoneVerifications.id, messageOutbox.verificationId))
          .where(and(isPending, lte(messageOutbox.nextAttemptAt, now)))
          .orderBy(asc(messageOutbox.nextAttemptAt))
          .limit(limit);
      },
      async backlog() {
        const [backlog] = await db.select(backlogColumns(messageOutbox.createdAt)).from(messageOutbox).where(isPending);
        return backlog!;
      },
      async claim(claim, limit) {
        const claimed = await statement(() => {
          // Locked as they are taken, skipping those another claim is taking: two claimers never wait for each
          // other, and never get the same message.
          const claimable = db
            .select({ id: messageOutbox.id })
            .from(messageOutbox)
            .where(
              and(
                isPending,
                lte(messageOutbox.nextAttemptAt, claim.now),
                or(isNull(messageOutbox.claimedUntil), lt(messageOutbox.claimedUntil, claim.now)),
              ),
            )
            .orderBy(asc(messageOutbox.nextAttemptAt))
            .limit(limit)
            .for('update', { skipLocked: true });
          return db
            .update(messageOutbox)
            .set({ claimId: claim.id, claimedUntil: claim.until })
            .from(phoneVerifications)
            .where(and(inArray(messageOutbox.id, claimable), eq(phoneVerifications.id, messageOutbox.verificationId)))
            .returning({ ...getTableColumns(messageOutbox), codeExpiresAt: phoneVerifications.expiresAt });
        });
        // Oldest due first, as they were chosen.
        return claimed.sort((a, b) => (a.nextAttemptAt < b.nextAttemptAt ? -1 : a.nextAttemptAt > b.nextAttemptAt ? 1 : 0));
      },
      markSent(id, claimId, providerMessageId, at) {
        return finish(id, claimId, { status: 'sent', providerMessageId, at });
      },
      markFailed(id, claimId, error, at) {
        return finish(id, claimId, { status: 'failed', error, at });
      },
      async markRetry(id, claimId, nextAttemptAt, error) {
        const retried = await statement(() =>
          db
            .update(messageOutbox)
            .set({ nextAttemptAt, lastError: error, attempts: sql`${messageOutbox.attempts} + 1`, claimId: null, claimedUntil: null })
            .where(and(eq(messageOutbox.id, id), eq(messageOutbox.claimId, claimId), isPending))
            .returning({ id: messageOutbox.id }),
        );
        return retried.length > 0;
      },
      async findByProviderMessageId(providerMessageId) {
        const [message] = await db.select().from(messageOutbox).where(eq(messageOutbox.providerMessageId, providerMessageId));
        return message;
      },
      async setDeliveryStatus(verificationId, status, error, at) {
        await statement(() =>
          db
            .update(phoneVerifications)
            .set({ deliveryStatus: status, deliveryError: error, deliveryUpdatedAt: at })
            .where(eq(phoneVerifications.id, verificationId)),
        );
      },
      purgeFinished(before, limit) {
        return purgeRows(transact, messageOutbox, and(ne(messageOutbox.status, 'pending'), lt(messageOutbox.createdAt, before))!, limit);
      },
      async purgeHourlyCounts(before, limit) {
        const shards = await purgeRows(transact, hourlySendShards, lt(hourlySendShards.hour, before)!, limit);
        return shards + (await purgeRows(transact, hourlySends, lt(hourlySends.hour, before)!, limit - shards));
      },
    },
    senders: {
      async get(workspaceId) {
        const [row] = await senderOf.execute({ workspaceId });
        return row && senderRecord(row);
      },
      async put(sender) {
        const row = senderRow(sender);
        await statement(() => db.insert(senders).values(row).onConflictDoUpdate({ target: senders.workspaceId, set: row }));
      },
      async withClearField(field) {
        const rows = await db
          .select()
          .from(senders)
          .where(sql`${senders.config}::jsonb ? ${field}`)
          .orderBy(asc(senders.workspaceId));
        return rows.map(senderRecord);
      },
    },
    testNumbers: {
      async list(workspaceId) {
        return db
          .select({ phoneNumber: testNumbers.phoneNumber, codeSealed: testNumbers.codeSealed })
          .from(testNumbers)
          .where(eq(testNumbers.workspaceId, workspaceId))
          .orderBy(asc(testNumbers.phoneNumber));
      },
      async replace(workspaceId, numbers, at) {
        // Serializable: of two replaces at once, the second runs again after the first and its list is the one kept.
        await transact(async (tx) => {
          await tx.delete(testNumbers).where(eq(testNumbers.workspaceId, workspaceId));
          if (numbers.length > 0) await tx.insert(testNumbers).values(numbers.map((number) => ({ ...number, workspaceId, createdAt: at })));
        });
      },
    },
    devMessages: {
      async add(message) {
        await statement(() => db.insert(devMessages).values(message));
      },
      async list(limit) {
        return db.select().from(devMessages).orderBy(desc(devMessages.createdAt), desc(devMessages.id)).limit(limit);
      },
      keepNewest(kept) {
        return keepNewestRows(transact, devMessages, kept);
      },
    },
    idempotency: {
      async get(scope, since) {
        const [stored] = await db
          .select({ requestHash: idempotencyKeys.requestHash, response: idempotencyKeys.response })
          .from(idempotencyKeys)
          .where(and(keyIs(scope), isNotNull(idempotencyKeys.response), gte(idempotencyKeys.createdAt, since)));
        return stored as StoredResponse | undefined;
      },
      async claim(scope, requestHash, claim, since) {
        const row = { ...scope, requestHash, response: null, createdAt: claim.now, claimId: claim.id, claimedUntil: claim.until };
        const record = {
          requestHash: idempotencyKeys.requestHash,
          response: idempotencyKeys.response,
          claimId: idempotencyKeys.claimId,
          claimedUntil: idempotencyKeys.claimedUntil,
        };
        return transact(async (tx) => {
          // Inserted, or taken over; a key left as it was is still locked by the insert, so the read after it
          // finds it as the holder left it.
          const [taken] = await tx
            .insert(idempotencyKeys)
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
            .returning(record);
          if (taken) return taken;
          const [held] = await tx.select(record).from(idempotencyKeys).where(keyIs(scope));
          if (!held) throw new Error(`idempotency key ${scope.key} vanished`);
          return held;
        }, readCommitted);
      },
      async answer(scope, claimId, response, at) {
        const answered = await statement(() =>
          db
            .update(idempotencyKeys)
            .set({ response, createdAt: at, claimedUntil: null })
            .where(and(keyIs(scope), eq(idempotencyKeys.claimId, claimId), isNull(idempotencyKeys.response)))
            .returning({ key: idempotencyKeys.key }),
        );
        return answered.length > 0;
      },
      async release(scope, claimId) {
        await statement(() =>
          db.delete(idempotencyKeys).where(and(keyIs(scope), eq(idempotencyKeys.claimId, claimId), isNull(idempotencyKeys.response))),
        );
      },
      purge(before, limit) {
        return purgeRows(transact, idempotencyKeys, lt(idempotencyKeys.createdAt, before)!, limit);
      },
    },
  };
}
