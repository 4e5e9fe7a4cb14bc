import { and, asc, count, desc, eq, exists, getTableColumns, lt, max, or, sql } from 'drizzle-orm';
import { messageRow, toMessage, toVersion, versionRow } from './rows.ts';
import type { AgentsStore, ChatMessage } from './store.ts';
import { pageOf } from '../platform/page.ts';
import type { SqliteDb } from '../platform/sqlite/database.ts';
import type { Write } from '../platform/sqlite/group-commit.ts';
import { p, placeholders } from '../platform/sqlite/prepared.ts';
import { agentVersions, chatMessages, chats, environmentSecrets, environments, flags } from '../platform/sqlite/schema.ts';

/** What an inbox row shows beside the chat, each computed in the page's one query. */
const inboxColumns = {
  versionNumber: agentVersions.number,
  firstVisitorText: sql<string | null>`(
    select ${chatMessages.text} from ${chatMessages}
    where ${chatMessages.chatId} = ${chats.id} and ${chatMessages.role} = 'visitor'
    order by ${chatMessages}.rowid limit 1
  )`,
  messageCount: sql<number>`(select count(*) from ${chatMessages} where ${chatMessages.chatId} = ${chats.id})`,
};

/** Inserts a chat's messages with their traces, inside the caller's write unit (the insert is prepared once). */
export function messageInserter(db: SqliteDb): (messages: ChatMessage[]) => void {
  const insert = db.insert(chatMessages).values(placeholders(chatMessages)).prepare();
  return (messages) => {
    for (const m of messages) insert.run({ ...messageRow(m) });
  };
}

export function createSqliteAgents(db: SqliteDb, write: Write): AgentsStore {
  const insertMessages = messageInserter(db);
  // Read at every lease of an environment's cases: prepared once.
  const sealedSecrets = db
    .select({ name: environmentSecrets.name, valueSealed: environmentSecrets.valueSealed })
    .from(environmentSecrets)
    .where(and(eq(environmentSecrets.workspaceId, p('workspaceId')), eq(environmentSecrets.environment, p('environment'))))
    .prepare();
  const versionById = (id: string) => db.select().from(agentVersions).where(eq(agentVersions.id, id)).get();
  const versionByHash = (workspaceId: string, contentHash: string) =>
    db
      .select()
      .from(agentVersions)
      .where(and(eq(agentVersions.workspaceId, workspaceId), eq(agentVersions.contentHash, contentHash)))
      .get();

  return {
    versions: {
      async findByHash(workspaceId, contentHash) {
        const row = versionByHash(workspaceId, contentHash);
        return row && toVersion(row);
      },
      async get(workspaceId, id) {
        const row = versionById(id);
        return row && row.workspaceId === workspaceId ? toVersion(row) : undefined;
      },
      async create(version) {
        // One write unit: the lookup, the numbering and the insert see no other write in between.
        return write(() => {
          const existing = versionByHash(version.workspaceId, version.contentHash);
          if (existing) return { version: toVersion(existing), created: false };
          const last = db
            .select({ n: max(agentVersions.number) })
            .from(agentVersions)
            .where(eq(agentVersions.workspaceId, version.workspaceId))
            .get();
          const created = { ...version, number: (last?.n ?? 0) + 1 };
          db.insert(agentVersions).values(versionRow(created)).run();
          return { version: created, created: true };
        });
      },
      async list(workspaceId, { limit, after }) {
        const rows = db
          .select()
          .from(agentVersions)
          .where(and(eq(agentVersions.workspaceId, workspaceId), after ? lt(agentVersions.number, after.key) : undefined))
          .orderBy(desc(agentVersions.number))
          .limit(limit + 1)
          .all();
        return pageOf(rows.map(toVersion), limit);
      },
    },
    environments: {
      async list(workspaceId) {
        const rows = db.select().from(environments).where(eq(environments.workspaceId, workspaceId)).orderBy(asc(environments.name)).all();
        return rows.map((row) => {
          const version = row.versionId ? versionById(row.versionId) : undefined;
          return { name: row.name, version: version ? toVersion(version) : null, updatedAt: row.updatedAt };
        });
      },
      async get(workspaceId, name) {
        const row = db
          .select()
          .from(environments)
          .where(and(eq(environments.workspaceId, workspaceId), eq(environments.name, name)))
          .get();
        if (!row) return undefined;
        const version = row.versionId ? versionById(row.versionId) : undefined;
        return { name: row.name, version: version ? toVersion(version) : null, updatedAt: row.updatedAt };
      },
      async deploy(workspaceId, name, versionId, at) {
        await write(() =>
          db
            .insert(environments)
            .values({ workspaceId, name, versionId, updatedAt: at, createdAt: at })
            .onConflictDoUpdate({ target: [environments.workspaceId, environments.name], set: { versionId, updatedAt: at } })
            .run(),
        );
      },
    },
    secrets: {
      async put(workspaceId, environment, name, valueSealed, at) {
        await write(() =>
          db
            .insert(environmentSecrets)
            .values({ workspaceId, environment, name, valueSealed, updatedAt: at })
            .onConflictDoUpdate({
              target: [environmentSecrets.workspaceId, environmentSecrets.environment, environmentSecrets.name],
              set: { valueSealed, updatedAt: at },
            })
            .run(),
        );
      },
      async list(workspaceId, environment) {
        return db
          .select({ name: environmentSecrets.name, updatedAt: environmentSecrets.updatedAt })
          .from(environmentSecrets)
          .where(and(eq(environmentSecrets.workspaceId, workspaceId), eq(environmentSecrets.environment, environment)))
          .orderBy(asc(environmentSecrets.name))
          .all();
      },
      async sealed(workspaceId, environment) {
        return sealedSecrets.all({ workspaceId, environment });
      },
    },
    chats: {
      async create(chat) {
        await write(() => db.insert(chats).values(chat).run());
      },
      async get(workspaceId, id) {
        return db
          .select()
          .from(chats)
          .where(and(eq(chats.id, id), eq(chats.workspaceId, workspaceId)))
          .get();
      },
      async inbox(workspaceId, filter, { limit, after }) {
        const rows = db
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
          .limit(limit + 1)
          .all();
        return pageOf(rows, limit);
      },
      async countConversations(workspaceId, environment) {
        const row = db
          .select({ n: count() })
          .from(chats)
          .where(
            and(eq(chats.workspaceId, workspaceId), eq(chats.replay, false), environment ? eq(chats.environment, environment) : undefined),
          )
          .get();
        return row?.n ?? 0;
      },
      async addMessages(messages) {
        await write(() => insertMessages(messages));
      },
      async messages(chatId) {
        return db
          .select()
          .from(chatMessages)
          .where(eq(chatMessages.chatId, chatId))
          .orderBy(sql`rowid`)
          .all()
          .map(toMessage);
      },
    },
  };
}
