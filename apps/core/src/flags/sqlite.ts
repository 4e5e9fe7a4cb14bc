import { and, asc, count, desc, eq, gt, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import { caseRow, flagRow, toFlag } from './rows.ts';
import type { FlagChange, FlagsStore } from './store.ts';
import { digestFlagsOf, flagChangeOf, flagsOf } from './where.ts';
import { pageOf } from '../platform/page.ts';
import { toMessage } from '../agents/rows.ts';
import type { SqliteDb } from '../platform/sqlite/database.ts';
import type { Write } from '../platform/sqlite/group-commit.ts';
import { chatMessages, chats, evalCases, flagEvents, flags } from '../platform/sqlite/schema.ts';

/**
 * Applies a flag's change with its event and case change, inside the caller's write; false (nothing written) when the
 * flag moved on meanwhile.
 */
export function applyFlagChange(db: SqliteDb, change: FlagChange): boolean {
  const updated = db
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
    .run();
  if (updated.changes === 0) return false;
  const caseChange = change.evalCase;
  if (caseChange?.op === 'create') db.insert(evalCases).values(caseRow(caseChange.evalCase)).run();
  else if (caseChange?.op === 'update')
    db.update(evalCases).set({ expected: caseChange.expected, updatedAt: change.updatedAt }).where(eq(evalCases.id, caseChange.id)).run();
  else if (caseChange?.op === 'delete')
    db.update(evalCases)
      .set({ deletedAt: change.updatedAt, updatedAt: change.updatedAt })
      .where(and(eq(evalCases.id, caseChange.id), isNull(evalCases.deletedAt)))
      .run();
  db.insert(flagEvents).values(change.event).run();
  return true;
}

export function createSqliteFlags(db: SqliteDb, write: Write): FlagsStore {
  const liveFlagOf = (messageId: string) =>
    db
      .select({ id: flags.id })
      .from(flags)
      .where(and(eq(flags.messageId, messageId), ne(flags.status, 'removed')))
      .get();

  return {
    flags: {
      async findMessage(workspaceId, messageId) {
        const row = db
          .select({ chat: chats, message: chatMessages })
          .from(chatMessages)
          .innerJoin(chats, eq(chats.id, chatMessages.chatId))
          .where(and(eq(chatMessages.id, messageId), eq(chats.workspaceId, workspaceId)))
          .get();
        return row && { chat: row.chat, message: toMessage(row.message) };
      },
      async create(flag, event, evalCase) {
        // One write unit: the check and the inserts see no other write in between; the partial unique index
        // keeps the rule for a store shared by several cores.
        return write(() => {
          const live = liveFlagOf(flag.messageId);
          if (live) return { created: false as const, flagId: live.id };
          db.insert(flags).values(flagRow(flag)).run();
          db.insert(flagEvents).values(event).run();
          if (evalCase) db.insert(evalCases).values(caseRow(evalCase)).run();
          return { created: true as const };
        });
      },
      async get(workspaceId, id) {
        const row = db
          .select()
          .from(flags)
          .where(and(eq(flags.id, id), eq(flags.workspaceId, workspaceId)))
          .get();
        return row && toFlag(row);
      },
      async workspaceOf(id) {
        return db.select({ workspaceId: flags.workspaceId }).from(flags).where(eq(flags.id, id)).get()?.workspaceId;
      },
      async list(workspaceId, filter, { limit, after }) {
        const rows = db
          .select()
          .from(flags)
          .where(flagsOf(flags, workspaceId, filter, after))
          .orderBy(asc(flags.createdAt), asc(flags.id))
          .limit(limit + 1)
          .all();
        return pageOf(rows.map(toFlag), limit);
      },
      async getMany(workspaceId, ids) {
        if (ids.length === 0) return [];
        return db
          .select()
          .from(flags)
          .where(and(eq(flags.workspaceId, workspaceId), inArray(flags.id, ids)))
          .all()
          .map(toFlag);
      },
      async ofChat(workspaceId, chatId) {
        return db
          .select()
          .from(flags)
          .where(and(eq(flags.chatId, chatId), eq(flags.workspaceId, workspaceId)))
          .orderBy(asc(flags.createdAt), asc(flags.id))
          .all()
          .map(toFlag);
      },
      async newestInDigest(workspaceId, agent, limit) {
        const where = digestFlagsOf(flags, workspaceId, agent);
        const newest = db.select().from(flags).where(where).orderBy(desc(flags.createdAt), desc(flags.id)).limit(limit).all();
        const total = db.select({ n: count() }).from(flags).where(where).get()?.n ?? 0;
        return { count: total, newest: newest.map(toFlag) };
      },
      async history(flagId) {
        return db
          .select()
          .from(flagEvents)
          .where(eq(flagEvents.flagId, flagId))
          .orderBy(sql`rowid`)
          .all();
      },
      async change(change) {
        return write(() => applyFlagChange(db, change));
      },
      async openIn(workspaceId, chatIds) {
        if (chatIds.length === 0) return new Set();
        const rows = db
          .selectDistinct({ chatId: flags.chatId })
          .from(flags)
          .where(and(eq(flags.workspaceId, workspaceId), eq(flags.status, 'open'), inArray(flags.chatId, chatIds)))
          .all();
        return new Set(rows.map((row) => row.chatId));
      },
      async createdBetween(workspaceId, after, upTo, limit) {
        const where = and(
          digestFlagsOf(flags, workspaceId),
          after === null ? undefined : gt(flags.createdAt, after),
          lte(flags.createdAt, upTo),
        );
        const oldest = db.select().from(flags).where(where).orderBy(asc(flags.createdAt), asc(flags.id)).limit(limit).all();
        const total = db.select({ n: count() }).from(flags).where(where).get()?.n ?? 0;
        return { count: total, oldest: oldest.map(toFlag) };
      },
    },
  };
}
