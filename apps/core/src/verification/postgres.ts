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
  or,
  type Placeholder,
  sql,
  type Table,
} from 'drizzle-orm';
import {
  type CodeCheck,
  HourlyLimitReached,
  hourOf,
  type IdempotencyScope,
  type MessagingStore,
  NumberAtLimit,
  type PhoneVerification,
  queuedMessage,
  senderRecord,
  senderRow,
  type StoredResponse,
  VerificationChanged,
} from './store.ts';
import { backlogColumns } from '../platform/backlog.ts';
import type { PgDb } from '../platform/postgres/database.ts';
import { keepNewestRows, purgeRows } from '../platform/postgres/purge.ts';
import {
  devMessages,
  hourlySendShards,
  hourlySends,
  idempotencyKeys,
  messageOutbox,
  phoneVerifications,
  senders,
  testNumbers,
} from '../platform/postgres/schema.ts';
import { sqlState } from '../platform/unavailable.ts';
import { claimRenewal, confirmClaim } from '../platform/postgres/claims.ts';
import { gathered, gatheredInLanes } from '../platform/postgres/gathered.ts';
import { statement, type Transact } from '../platform/postgres/transaction.ts';
import { finishedBefore } from '../platform/finished-rows.ts';
import { takenOver } from '../platform/taken-over.ts';

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

/** A row of svc_check_codes. */
interface CheckedRow {
  /** The check's position among those made together, from 1. */
  n: number;
  outcome: CodeCheck['outcome'];
  status: PhoneVerification['status'];
  failed_attempts: number;
  expires_at: string;
}

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

/**
 * What a create or resend refused by its SQLSTATE (migrations 0002 and 0005) answers, nothing of it written: SV001 the
 * number's verification changed meanwhile, SV002 the workspace's hour is full, SV003 the number is at its send limit.
 */
function refusal(state: string | undefined, phoneNumber: string, hour: string): Error | undefined {
  if (state === 'SV001') return new VerificationChanged(phoneNumber);
  if (state === 'SV002') return new HourlyLimitReached(hour);
  if (state === 'SV003') return new NumberAtLimit(phoneNumber);
  return undefined;
}

/** A create as svc_create_verifications takes it. */
interface Create {
  verification: Record<string, unknown>;
  message: Record<string, unknown> | null;
  send_hour: string;
  hourly_limit: number;
  number_since: string | null;
  number_limit: number | null;
}

/** A message's send as it ends: sent with the provider's id for it, or failed with why. */
interface Finish {
  id: string;
  claimId: string;
  status: 'sent' | 'failed';
  providerMessageId: string | null;
  error: string | null;
  at: string;
}

export function createPostgresMessaging(db: PgDb, transact: Transact): MessagingStore {
  // The reads of every create and verify are prepared once per connection. Verifications asked for together are
  // read together, in one query.
  const verificationsById = db
    .select()
    .from(phoneVerifications)
    .where(sql`${phoneVerifications.id} = any(${p('ids')}::text[])`)
    .prepare('messaging_verifications_by_id');
  const verification = gathered(async (keys: { workspaceId: string; id: string }[]) => {
    const rows = await verificationsById.execute({ ids: keys.map((key) => key.id) });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return keys.map(({ workspaceId, id }) => {
      const row = byId.get(id);
      return row?.workspaceId === workspaceId ? row : undefined;
    });
  });
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
  // A verify's one statement: the check, its write and the state it left, made for all the verifies that came in
  // together, prepared once per connection. The rows are read by id alone and locked in the order of their ids, as
  // every statement that changes several verifications locks them, so that two never wait on each other; the checks of
  // one verification are made in turn within it (svc_check_codes, migration 0012).
  const check = gathered(async (checks: { workspaceId: string; id: string; codeHmac: string; at: string; blockAt: number }[]) => {
    const values = (['workspaceId', 'id', 'codeHmac', 'at', 'blockAt'] as const).map((field) => checks.map((one) => one[field]));
    const text = 'select * from svc_check_codes($1, $2, $3, $4, $5)';
    const { rows } = await statement(() => db.$client.query<CheckedRow>({ name: 'messaging_check_codes', text, values }));
    const byPosition = new Map(rows.map((row) => [row.n, row]));
    return checks.map((_, i): CodeCheck | undefined => {
      const row = byPosition.get(i + 1);
      return (
        row && {
          outcome: row.outcome,
          verification: { status: row.status, failedAttempts: row.failed_attempts, expiresAt: row.expires_at },
        }
      );
    });
  });
  const senderOf = db
    .select()
    .from(senders)
    .where(eq(senders.workspaceId, p('workspaceId')))
    .prepare('messaging_sender_of');

  // Each core counts its sends in its own row of a workspace's hour (svc_count_send for a resend, and a batch of
  // creates once per hour): creates in several cores never wait on one row, and racing cores may each count one send
  // past the hourly cap.
  const shard = randomInt(2 ** 31);

  /**
   * Creates: those asked for while the event loop's I/O callbacks run go in one statement and one transaction
   * (svc_create_verifications, migration 0011), which answers each one's outcome and writes each hour's count once. A
   * batch that counts several sends in a workspace's hour holds that hour alone to its commit, so other cores miss none
   * of them; a core that counts one send at a time holds its shard's row to its commit, so another core's create misses
   * at most that one, and the hourly cap is passed by at most one per core. A workspace's creates that come while a
   * batch of its creates is under way wait for it and go together in the next batch: they would wait for its hour's
   * lock anyway.
   */
  const create = gatheredInLanes(
    async (creates: Create[]) => {
      const values = [JSON.stringify(creates), shard];
      const text = 'select svc_create_verifications($1::jsonb, $2) as outcomes';
      const { rows } = await statement(() =>
        db.$client.query<{ outcomes: string[] }>({ name: 'messaging_create_verifications', text, values }),
      );
      return rows[0]!.outcomes;
    },
    (one) => one.verification.workspace_id as string,
  );

  /**
   * Finishes messages, each held by its `claimId`, and the delivery of each one's verification while that is still
   * `queued`; answers, for each, whether it finished it (a message its claim does not hold any more is left as it
   * is). One statement for all (svc_finish_messages, migration 0009), which finds each message by its id whatever
   * the statistics say: the outbox rows are locked first, then the verifications' (in the order of their ids), the
   * order in which a resend locks them too.
   */
  async function finishAll(items: Finish[]): Promise<boolean[]> {
    const column = <K extends keyof Finish>(key: K) => items.map((item) => item[key]);
    const values = [column('id'), column('claimId'), column('status'), column('providerMessageId'), column('error'), column('at')];
    const text = 'select * from svc_finish_messages($1, $2, $3, $4, $5, $6)';
    const { rows } = await statement(() =>
      db.$client.query<{ finished_id: string; finished_claim_id: string }>({ name: 'messaging_finish', text, values }),
    );
    const finished = new Set(rows.map((row) => `${row.finished_id} ${row.finished_claim_id}`));
    return items.map((item) => finished.has(`${item.id} ${item.claimId}`));
  }
  // The finishes asked for while the event loop's I/O callbacks run (the provider answers that came in together) go
  // to PostgreSQL in one statement.
  const finish = gathered(finishAll, (item) => item.id);

  return {
    verifications: {
      async create(verification, message, hourlyLimit, numberLimit) {
        const hour = hourOf(message?.createdAt ?? verification.createdAt);
        const outcome = await create({
          verification: rowOf(phoneVerifications, verification),
          message: message && rowOf(messageOutbox, queuedMessage(message)),
          send_hour: hour,
          hourly_limit: hourlyLimit,
          number_since: numberLimit?.since ?? null,
          number_limit: numberLimit?.limit ?? null,
        });
        const refused = refusal(outcome, verification.phoneNumber, hour);
        if (refused) throw refused;
      },
      async resend(id, lastSentBefore, resend, message, hourlyLimit) {
        const hour = hourOf(message?.createdAt ?? resend.lastSentAt);
        const fresh = {
          code_hmac: resend.codeHmac,
          expires_at: resend.expiresAt,
          last_sent_at: resend.lastSentAt,
          delivery_status: resend.deliveryStatus,
          last_send_key: resend.lastSendKey,
        };
        const queued = message && rowOf(messageOutbox, queuedMessage(message));
        const args = [id, lastSentBefore, fresh, queued, hour, shard, hourlyLimit];
        const text = 'select svc_resend_verification($1, $2, $3, $4, $5, $6, $7)';
        try {
          await statement(() => db.$client.query({ name: 'messaging_resend_verification', text, values: args }));
        } catch (error) {
          throw refusal(sqlState(error), message?.phoneNumber ?? `verification ${id}`, hour) ?? error;
        }
      },
      get(workspaceId, id) {
        return verification({ workspaceId, id });
      },
      async sendState(workspaceId, phoneNumber, now, since, limit) {
        const [state] = await sendStateOf.execute({ workspaceId, phoneNumber, now, since, limit });
        return { pending: state?.pending ?? undefined, recentSendTimes: state?.recentSendTimes ?? [] };
      },
      check(workspaceId, id, codeHmac, at, blockAt) {
        return check({ workspaceId, id, codeHmac, at, blockAt });
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
          // other, and never get the same message (svc_due_messages, migration 0007).
          const claimable = sql`(select svc_due_messages(${claim.now}, ${limit}))`;
          return db
            .update(messageOutbox)
            .set({ claimId: claim.id, claimedUntil: claim.until, unanswered: takenOver(messageOutbox) })
            .from(phoneVerifications)
            .where(and(inArray(messageOutbox.id, claimable), eq(phoneVerifications.id, messageOutbox.verificationId)))
            .returning({ ...getTableColumns(messageOutbox), codeExpiresAt: phoneVerifications.expiresAt });
        });
        // Oldest due first, as they were chosen.
        return claimed.sort((a, b) => (a.nextAttemptAt < b.nextAttemptAt ? -1 : a.nextAttemptAt > b.nextAttemptAt ? 1 : 0));
      },
      markSent(id, claimId, providerMessageId, at) {
        return finish({ id, claimId, status: 'sent', providerMessageId, error: null, at });
      },
      markFailed(id, claimId, error, at) {
        return finish({ id, claimId, status: 'failed', providerMessageId: null, error, at });
      },
      async markRetry(id, claimId, nextAttemptAt, error, unanswered) {
        const retried = await statement(() =>
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
            .where(and(eq(messageOutbox.id, id), eq(messageOutbox.claimId, claimId), isPending))
            .returning({ id: messageOutbox.id }),
        );
        return retried.length > 0;
      },
      async settle(workspaceId, id, providerMessageId, at) {
        // The message first, then its verification: the order a finish locks them in.
        const { rows } = await statement(() =>
          db.$client.query<{ settled: number }>({
            name: 'messaging_settle',
            text: `with settled as (
                update message_outbox set status = 'sent', code_sealed = null, provider_message_id = $3, sent_at = $4,
                  claim_id = null, claimed_until = null
                where id = $1 and workspace_id = $2 and status = 'pending'
                returning verification_id
              ), delivered as (
                update phone_verifications v set delivery_status = 'sent', delivery_error = null, delivery_updated_at = $4
                from settled s where v.id = s.verification_id and v.delivery_status = 'queued'
              )
              select count(*)::int as settled from settled`,
            values: [id, workspaceId, providerMessageId, at],
          }),
        );
        return rows[0]!.settled > 0;
      },
      renew: claimRenewal(db, messageOutbox),
      confirm: (id, claimId, now, until) => confirmClaim(db, id, claimId, now, until),
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
        return purgeRows(transact, messageOutbox, finishedBefore(messageOutbox.status, messageOutbox.createdAt, before), limit);
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
      async renew(scope, claimId, until) {
        const renewed = await statement(() =>
          db
            .update(idempotencyKeys)
            .set({ claimedUntil: until })
            .where(and(keyIs(scope), eq(idempotencyKeys.claimId, claimId), isNull(idempotencyKeys.response)))
            .returning({ key: idempotencyKeys.key }),
        );
        return renewed.length > 0;
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
