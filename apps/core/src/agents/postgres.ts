import { and, asc, count, desc, eq, exists, getTableColumns, lt, max, or, sql } from 'drizzle-orm';
import { messageRow, toMessage, toVersion, versionRow } from './rows.ts';
import type { AgentsStore, ChatMessage } from './store.ts';
import { pageOf } from '../platform/page.ts';
import type { PgDb } from '../platform/postgres/database.ts';
import { agentVersions, chatMessages, chats, environmentSecrets, environments, flags } from '../platform/postgres/schema.ts';
import { conflict, type PgTx, type Transact } from '../platform/postgres/transaction.ts';

/** A message as callers know it: `seq` only orders a chat's messages. */
export const messageColumns = {
  id: chatMessages.id,
  chatId: chatMessages.chatId,
  role: chatMessages.role,
  text: chatMessages.text,
  trace: chatMessages.trace,
  createdAt: chatMessages.createdAt,
};

/** What an inbox row shows beside the chat, each computed in the page's one query. */
const inboxColumns = {
  versionNumber: agentVersions.number,
  firstVisitorText: sql<string | null>`(
    select ${chatMessages.text} from ${chatMessages}
    where ${chatMessages.chatId} = ${chats.id} and ${chatMessages.role} = 'visitor'
    order by ${chatMessages.seq} limit 1
  )`,
  messageCount: sql<number>`(select count(*) from ${chatMessages} where ${chatMessages.chatId} = ${chats.id})`.mapWith(Number),
};

/** Inserts a chat's messages with their traces, in the caller's transaction: `seq` numbers them in the order given. */
async function insertMessages(tx: PgTx, messages: ChatMessage[]): Promise<void> {
  if (messages.length > 0) await tx.insert(chatMessages).values(messages.map(messageRow));
}

export function createPostgresAgents(db: PgDb, transact: Transact): AgentsStore {
  // Read at every lease of an environment's cases: prepared once.
  const sealedSecrets = db
    .select({ name: environmentSecrets.name, valueSealed: environmentSecrets.valueSealed })
    .from(environmentSecrets)
    .where(
      and(
        eq(environmentSecrets.workspaceId, sql.placeholder('workspaceId')),
        eq(environmentSecrets.environment, sql.placeholder('environment')),
      ),
    )
    .prepare('agents_sealed_secrets');
  const versionById = async (id: string) => (await db.select().from(agentVersions).where(eq(agentVersions.id, id)))[0];
  const versionByHash = async (reader: PgDb | PgTx, workspaceId: string, contentHash: string) =>
    (
      await reader
        .select()
        .from(agentVersions)
        .where(and(eq(agentVersions.workspaceId, workspaceId), eq(agentVersions.contentHash, contentHash)))
    )[0];
  const environmentOf = async (row: typeof environments.$inferSelect) => {
    const version = row.versionId ? await versionById(row.versionId) : undefined;
    return { name: row.name, version: version ? toVersion(version) : null, updatedAt: row.updatedAt };
  };

  return {
    versions: {
      async findByHash(workspaceId, contentHash) {
        const row = await versionByHash(db, workspaceId, contentHash);
        return row && toVersion(row);
      },
      async get(workspaceId, id) {
        const row = await versionById(id);
        return row && row.workspaceId === workspaceId ? toVersion(row) : undefined;
      },
      async create(version) {
        return transact(async (tx) => {
          const existing = await versionByHash(tx, version.workspaceId, version.contentHash);
          if (existing) return { version: toVersion(existing), created: false };
          const [last] = await tx
            .select({ n: max(agentVersions.number) })
            .from(agentVersions)
            .where(eq(agentVersions.workspaceId, version.workspaceId));
          const created = { ...version, number: (last?.n ?? 0) + 1 };
          // A push at once that took this content or this number first makes PostgreSQL abort this insert as a
          // serialization failure (the row is not in this transaction's snapshot): the transaction runs again and
          // finds that version, or numbers after it. A clash with a row this transaction sees is a duplicate id.
          const inserted = await tx
            .insert(agentVersions)
            .values(versionRow(created))
            .onConflictDoNothing()
            .returning({ id: agentVersions.id });
          if (inserted.length === 0) throw conflict();
          return { version: created, created: true };
        });
      },
      async list(workspaceId, { limit, after }) {
        const rows = await db
          .select()
          .from(agentVersions)
          .where(and(eq(agentVersions.workspaceId, workspaceId), after ? lt(agentVersions.number, after.key) : undefined))
          .orderBy(desc(agentVersions.number))
          .limit(limit + 1);
        return pageOf(rows.map(toVersion), limit);
      },
    },
    environments: {
      async list(workspaceId) {
        const rows = await db.select().from(environments).where(eq(environments.workspaceId, workspaceId)).orderBy(asc(environments.name));
        return Promise.all(rows.map(environmentOf));
      },
      async get(workspaceId, name) {
        const [row] = await db
          .select()
          .from(environments)
          .where(and(eq(environments.workspaceId, workspaceId), eq(environments.name, name)));
        return row && environmentOf(row);
      },
      async deploy(workspaceId, name, versionId, at) {
        await transact((tx) =>
          tx
            .insert(environments)
            .values({ workspaceId, name, versionId, updatedAt: at, createdAt: at })
            .onConflictDoUpdate({ target: [environments.workspaceId, environments.name], set: { versionId, updatedAt: at } }),
        );
      },
    },
    secrets: {
      async put(workspaceId, environment, name, valueSealed, at) {
        await transact((tx) =>
          tx
            .insert(environmentSecrets)
            .values({ workspaceId, environment, name, valueSealed, updatedAt: at })
            .onConflictDoUpdate({
              target: [environmentSecrets.workspaceId, environmentSecrets.environment, environmentSecrets.name],
              set: { valueSealed, updatedAt: at },
            }),
        );
      },
      async list(workspaceId, environment) {
        return db
          .select({ name: environmentSecrets.name, updatedAt: environmentSecrets.updatedAt })
          .from(environmentSecrets)
          .where(and(eq(environmentSecrets.workspaceId, workspaceId), eq(environmentSecrets.environment, environment)))
          .orderBy(asc(environmentSecrets.name));
      },
      async sealed(workspaceId, environment) {
        return sealedSecrets.execute({ workspaceId, environment });
      },
    },
    chats: {
      async create(chat) {
        await transact((tx) => tx.insert(chats).values(chat));
      },
      async get(workspaceId, id) {
        const [chat] = await db
          .select()
          .from(chats)
          .where(and(eq(chats.id, id), eq(chats.workspaceId, workspaceId)));
        return chat;
      },
      async inbox(workspaceId, filter, { limit, after }) {
        const rows = await db
          .select({ ...getTableColumns(chats), ...inboxColumns })
          .from(chats)
          .innerJoin(agentVersions, eq(agentVersions.id, chats.versionId))
          .where(
            and(
              eq(chats.workspaceId, workspaceId),
              eq(chats.replay, false),
              filter.agent === undefined ? undefined : eq(chats.agent, filter.agent),
              filter.environment === undefined ? undefined : eq(chats.environment, filter.environment),
              filter.flagged
                ? exists(
                    db
                      .select({ one: sql`1` })
                      .from(flags)
                      .where(and(eq(flags.chatId, chats.id), eq(flags.status, 'open'))),
                  )
                : undefined,
              after ? or(lt(chats.createdAt, after.key), and(eq(chats.createdAt, after.key), lt(chats.id, after.id))) : undefined,
            ),
          )
          .orderBy(desc(chats.createdAt), desc(chats.id))
          .limit(limit + 1);
        return pageOf(rows, limit);
      },
      async countConversations(workspaceId, environment) {
        const [row] = await db
          .select({ n: count() })
          .from(chats)
          .where(
            and(eq(chats.workspaceId, workspaceId), eq(chats.replay, false), environment ? eq(chats.environment, environment) : undefined),
          );
        return row?.n ?? 0;
      },
      async addMessages(messages) {
        await transact((tx) => insertMessages(tx, messages));
      },
      async messages(chatId) {
        const rows = await db
          .select(messageColumns)
          .from(chatMessages)
          .where(eq(chatMessages.chatId, chatId))
          .orderBy(asc(chatMessages.seq));
        return rows.map(toMessage);
      },
    },
  };
}
