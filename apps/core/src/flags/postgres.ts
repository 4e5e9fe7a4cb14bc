import { and, asc, count, desc, eq, gt, inArray, isNull, lte, ne } from 'drizzle-orm';
import { toMessage } from '../agents/rows.ts';
import { caseRow, flagRow, toFlag } from './rows.ts';
import type { FlagChange, FlagsStore } from './store.ts';
import { digestFlagsOf, flagChangeOf, flagsOf } from './where.ts';
import { pageOf } from '../platform/page.ts';
import { messageColumns } from '../agents/postgres.ts';
import type { PgDb } from '../platform/postgres/database.ts';
import { chatMessages, chats, evalCases, flagEvents, flags } from '../platform/postgres/schema.ts';
import { conflict, type PgTx, type Transact } from '../platform/postgres/transaction.ts';

/** An event as callers know it: `seq` only orders a flag's history. */
const eventColumns = {
  id: flagEvents.id,
  flagId: flagEvents.flagId,
  actor: flagEvents.actor,
  fromStatus: flagEvents.fromStatus,
  toStatus: flagEvents.toStatus,
  noteBefore: flagEvents.noteBefore,
  noteAfter: flagEvents.noteAfter,
  at: flagEvents.at,
};

/**
 * Applies a flag's change with its event and case change, inside the caller's transaction; false (nothing written)
 * when the flag moved on meanwhile.
 */
export async function applyFlagChange(tx: PgTx, change: FlagChange): Promise<boolean> {
  const updated = await tx
    .update(flags)
    .set({
      status: change.status,
      note: change.note,
      evalCaseId: change.evalCaseId,
      fixedByVersionId: change.fixedByVersion?.id ?? null,
      fixedByVersionNumber: change.fixedByVersion?.number ?? null,
      fixedAt: change.fixedAt,
      updatedAt: change.updatedAt,
      revision: change.revision + 1,
    })
    .where(flagChangeOf(flags, change))
    .returning({ id: flags.id });
  if (updated.length === 0) return false;
  const caseChange = change.evalCase;
  if (caseChange?.op === 'create') await tx.insert(evalCases).values(caseRow(caseChange.evalCase));
  else if (caseChange?.op === 'update')
    await tx.update(evalCases).set({ expected: caseChange.expected, updatedAt: change.updatedAt }).where(eq(evalCases.id, caseChange.id));
  else if (caseChange?.op === 'delete')
    await tx
      .update(evalCases)
      .set({ deletedAt: change.updatedAt, updatedAt: change.updatedAt })
      .where(and(eq(evalCases.id, caseChange.id), isNull(evalCases.deletedAt)));
  await tx.insert(flagEvents).values(change.event);
  return true;
}

export function createPostgresFlags(db: PgDb, transact: Transact): FlagsStore {
  return {
    flags: {
      async findMessage(workspaceId, messageId) {
        const [row] = await db
          .select({ chat: chats, message: messageColumns })
          .from(chatMessages)
          .innerJoin(chats, eq(chats.id, chatMessages.chatId))
          .where(and(eq(chatMessages.id, messageId), eq(chats.workspaceId, workspaceId)));
        return row && { chat: row.chat, message: toMessage(row.message) };
      },
      async create(flag, event, evalCase) {
        return transact(async (tx) => {
          const [live] = await tx
            .select({ id: flags.id })
            .from(flags)
            .where(and(eq(flags.messageId, flag.messageId), ne(flags.status, 'removed')));
          if (live) return { created: false as const, flagId: live.id };
          // A create at once that flagged the reply first makes PostgreSQL abort this insert as a serialization
          // failure (its flag is not in this transaction's snapshot): the transaction runs again and names that flag.
          // A clash with a row this transaction sees is a duplicate id.
          const inserted = await tx.insert(flags).values(flagRow(flag)).onConflictDoNothing().returning({ id: flags.id });
          if (inserted.length === 0) throw conflict();
          await tx.insert(flagEvents).values(event);
          if (evalCase) await tx.insert(evalCases).values(caseRow(evalCase));
          return { created: true as const };
        });
      },
      async get(workspaceId, id) {
        const [row] = await db
          .select()
          .from(flags)
          .where(and(eq(flags.id, id), eq(flags.workspaceId, workspaceId)));
        return row && toFlag(row);
      },
      async workspaceOf(id) {
        const [row] = await db.select({ workspaceId: flags.workspaceId }).from(flags).where(eq(flags.id, id));
        return row?.workspaceId;
      },
      async list(workspaceId, filter, { limit, after }) {
        const rows = await db
          .select()
          .from(flags)
          .where(flagsOf(flags, workspaceId, filter, after))
          .orderBy(asc(flags.createdAt), asc(flags.id))
          .limit(limit + 1);
        return pageOf(rows.map(toFlag), limit);
      },
      async getMany(workspaceId, ids) {
        if (ids.length === 0) return [];
        const rows = await db
          .select()
          .from(flags)
          .where(and(eq(flags.workspaceId, workspaceId), inArray(flags.id, ids)));
        return rows.map(toFlag);
      },
      async ofChat(workspaceId, chatId) {
        const rows = await db
          .select()
          .from(flags)
          .where(and(eq(flags.chatId, chatId), eq(flags.workspaceId, workspaceId)))
          .orderBy(asc(flags.createdAt), asc(flags.id));
        return rows.map(toFlag);
      },
      async newestInDigest(workspaceId, agent, limit) {
        const where = digestFlagsOf(flags, workspaceId, agent);
        const newest = await db.select().from(flags).where(where).orderBy(desc(flags.createdAt), desc(flags.id)).limit(limit);
        const [total] = await db.select({ n: count() }).from(flags).where(where);
        return { count: total?.n ?? 0, newest: newest.map(toFlag) };
      },
      async history(flagId) {
        return db.select(eventColumns).from(flagEvents).where(eq(flagEvents.flagId, flagId)).orderBy(asc(flagEvents.seq));
      },
      async change(change) {
        return transact((tx) => applyFlagChange(tx, change));
      },
      async openIn(workspaceId, chatIds) {
        if (chatIds.length === 0) return new Set();
        const rows = await db
          .selectDistinct({ chatId: flags.chatId })
          .from(flags)
          .where(and(eq(flags.workspaceId, workspaceId), eq(flags.status, 'open'), inArray(flags.chatId, chatIds)));
        return new Set(rows.map((row) => row.chatId));
      },
      async createdBetween(workspaceId, after, upTo, limit) {
        const where = and(
          digestFlagsOf(flags, workspaceId),
          after === null ? undefined : gt(flags.createdAt, after),
          lte(flags.createdAt, upTo),
        );
        const oldest = await db.select().from(flags).where(where).orderBy(asc(flags.createdAt), asc(flags.id)).limit(limit);
        const [total] = await db.select({ n: count() }).from(flags).where(where);
        return { count: total?.n ?? 0, oldest: oldest.map(toFlag) };
      },
    },
  };
}
