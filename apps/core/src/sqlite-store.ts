import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { pageOf } from './platform/page.ts';
import type { Membership, Store } from './store.ts';
import { openDatabase } from './platform/sqlite/database.ts';
import { createSqliteAgents } from './agents/sqlite.ts';
import { createSqliteAuth } from './identity/sqlite.ts';
import { createSqliteChanges } from './platform/sqlite/changes.ts';
import { walCheckpointer } from './platform/sqlite/checkpointer.ts';
import { createSqliteDigest } from './digest/sqlite.ts';
import { withDuplicateKeysAsConflicts } from './platform/sqlite/duplicate-key.ts';
import { createSqliteEvals } from './evals/sqlite.ts';
import { createSqliteFlags } from './flags/sqlite.ts';
import { createSqliteGithub } from './github/sqlite.ts';
import { groupCommit } from './platform/sqlite/group-commit.ts';
import { createSqliteMembers } from './workspaces/sqlite.ts';
import { createSqliteMessaging } from './verification/sqlite.ts';
import { developerTokens, memberships, users, workspaces } from './platform/sqlite/schema.ts';
import { ascendingAfter } from './platform/keyset.ts';

const workspaceColumns = {
  id: workspaces.id,
  slug: workspaces.slug,
  name: workspaces.name,
  createdAt: workspaces.createdAt,
};

const membershipColumns = { ...workspaceColumns, role: memberships.role };

/** The local-mode store: one SQLite file through drizzle and better-sqlite3. */
export function createSqliteStore(file: string): Store {
  const db = openDatabase(file);
  const checkpointer = file === ':memory:' ? undefined : walCheckpointer(db.$client, file);
  const group = groupCommit(db.$client, checkpointer?.committed);
  const write = withDuplicateKeysAsConflicts(group.write);

  const membershipQuery = () =>
    db.select(membershipColumns).from(memberships).innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId));
  // Every authenticated request runs these: compiled once.
  const activeTokenByHash = db
    .select({ token: developerTokens, user: users })
    .from(developerTokens)
    .innerJoin(users, eq(users.id, developerTokens.userId))
    .where(and(eq(developerTokens.tokenHash, sql.placeholder('tokenHash')), isNull(developerTokens.revokedAt)))
    .prepare();
  const userById = db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare();
  const workspaceById = db
    .select(workspaceColumns)
    .from(workspaces)
    .where(eq(workspaces.id, sql.placeholder('id')))
    .prepare();
  const membershipBySlug = membershipQuery()
    .where(and(eq(workspaces.slug, sql.placeholder('slug')), eq(memberships.userId, sql.placeholder('userId'))))
    .prepare();
  // The writes that change a user's memberships (addMember below, the members store) publish it once settled.
  const changes = createSqliteChanges();

  return {
    ...createSqliteMessaging(db, write),
    ...createSqliteAuth(db, write),
    ...createSqliteAgents(db, write),
    ...createSqliteFlags(db, write),
    ...createSqliteEvals(db, write),
    ...createSqliteDigest(db, write),
    ...createSqliteGithub(db, write),
    ...createSqliteMembers(db, write, changes),
    changes,
    users: {
      async create(user) {
        return write(() => {
          db.insert(users).values(user).onConflictDoNothing({ target: users.email }).run();
          const created = db.select().from(users).where(eq(users.email, user.email)).get();
          if (!created) throw new Error(`user ${user.email} vanished`);
          return created;
        });
      },
      async findById(id) {
        return userById.get({ id });
      },
      async findByEmail(email) {
        return db.select().from(users).where(eq(users.email, email)).get();
      },
    },
    workspaces: {
      async createWithOwner(workspace, ownerId) {
        const created = await write(() => {
          const inserted = db.insert(workspaces).values(workspace).onConflictDoNothing({ target: workspaces.slug }).run();
          if (inserted.changes === 0) return false;
          db.insert(memberships)
            .values({ workspaceId: workspace.id, userId: ownerId, role: 'owner', createdAt: workspace.createdAt })
            .run();
          return true;
        });
        return created ? ({ ...workspace, role: 'owner' } satisfies Membership) : undefined;
      },
      async listForUser(userId) {
        return membershipQuery().where(eq(memberships.userId, userId)).orderBy(asc(workspaces.slug)).all();
      },
      async findBySlug(slug) {
        return db.select(workspaceColumns).from(workspaces).where(eq(workspaces.slug, slug)).get();
      },
      async addMember(workspaceId, userId, role, at) {
        try {
          await write(() =>
            db
              .insert(memberships)
              .values({ workspaceId, userId, role, createdAt: at })
              .onConflictDoUpdate({ target: [memberships.workspaceId, memberships.userId], set: { role } })
              .run(),
          );
        } finally {
          await changes.publish('memberships', userId);
        }
      },
      async findById(id) {
        return workspaceById.get({ id });
      },
      async all() {
        return db.select(workspaceColumns).from(workspaces).orderBy(asc(workspaces.createdAt), asc(workspaces.id)).all();
      },
      async findForUser(slug, userId) {
        return membershipBySlug.get({ slug, userId });
      },
    },
    developerTokens: {
      async create(token) {
        const row = { ...token, lastUsedAt: null, revokedAt: null };
        await write(() => db.insert(developerTokens).values(row).run());
        return row;
      },
      async findActiveByHash(tokenHash) {
        return activeTokenByHash.get({ tokenHash });
      },
      async markUsed(id, at) {
        await write(() => db.update(developerTokens).set({ lastUsedAt: at }).where(eq(developerTokens.id, id)).run());
      },
      async listForUser(userId, { limit, after }) {
        const rows = db
          .select()
          .from(developerTokens)
          .where(
            and(
              eq(developerTokens.userId, userId),
              isNull(developerTokens.revokedAt),
              ascendingAfter(developerTokens.createdAt, developerTokens.id, after),
            ),
          )
          .orderBy(asc(developerTokens.createdAt), asc(developerTokens.id))
          .limit(limit + 1)
          .all();
        return pageOf(rows, limit);
      },
      async revoke(id, userId, at) {
        const result = await write(() =>
          db
            .update(developerTokens)
            .set({ revokedAt: at })
            .where(and(eq(developerTokens.id, id), eq(developerTokens.userId, userId), isNull(developerTokens.revokedAt)))
            .run(),
        );
        return result.changes > 0;
      },
    },
    async ping() {
      db.$client.prepare('select 1').get();
    },
    async close() {
      group.flush();
      db.$client.close();
      // The last connection to close checkpoints what is left and removes the WAL.
      await checkpointer?.close();
      await changes.close();
    },
  };
}
