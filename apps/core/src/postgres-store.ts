import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { pageOf } from './platform/page.ts';
import type { Membership, Store } from './store.ts';
import { createPostgresAgents } from './agents/postgres.ts';
import { createPostgresAuth } from './identity/postgres.ts';
import { createPostgresChanges } from './platform/postgres/changes.ts';
import { openPostgres, type PostgresOptions } from './platform/postgres/database.ts';
import { createPostgresDigest } from './digest/postgres.ts';
import { createPostgresEvals } from './evals/postgres.ts';
import { createPostgresFlags } from './flags/postgres.ts';
import { createPostgresGithub } from './github/postgres.ts';
import { createPostgresMembers } from './workspaces/postgres.ts';
import { createPostgresMessaging } from './verification/postgres.ts';
import { developerTokens, memberships, users, workspaces } from './platform/postgres/schema.ts';
import { transactor } from './platform/postgres/transaction.ts';
import { ascendingAfter } from './platform/keyset.ts';

const workspaceColumns = {
  id: workspaces.id,
  slug: workspaces.slug,
  name: workspaces.name,
  createdAt: workspaces.createdAt,
};

const membershipColumns = { ...workspaceColumns, role: memberships.role };

/** How long closing waits for the connections in use to be handed back. */
const closeWaitMs = 5_000;

/**
 * The production store: PostgreSQL through drizzle and node-postgres, shared by any number of cores. Every rule
 * that reads then writes runs in a serializable transaction, so it holds across cores as it does on SQLite.
 */
export async function createPostgresStore(url: string, options?: PostgresOptions): Promise<Store> {
  const db = await openPostgres(url, options);
  const changes = await createPostgresChanges(url, { connectTimeoutMs: options?.connectTimeoutMs }).catch(async (error: unknown) => {
    await db.$client.end();
    throw error;
  });
  const transact = transactor(db);
  const membershipQuery = () =>
    db.select(membershipColumns).from(memberships).innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId));
  // Every workspace request looks up its caller's membership: prepared once per connection.
  const membershipOf = membershipQuery()
    .where(and(eq(workspaces.slug, sql.placeholder('slug')), eq(memberships.userId, sql.placeholder('userId'))))
    .prepare('workspace_membership_of');

  return {
    ...createPostgresMessaging(db, transact),
    ...createPostgresAuth(db, transact),
    ...createPostgresAgents(db, transact),
    ...createPostgresFlags(db, transact),
    ...createPostgresEvals(db, transact),
    ...createPostgresDigest(db, transact),
    ...createPostgresGithub(db, transact),
    ...createPostgresMembers(db, transact, changes),
    changes,
    pool: () => ({ total: db.$client.totalCount, idle: db.$client.idleCount, waiting: db.$client.waitingCount }),
    users: {
      async create(user) {
        return transact(async (tx) => {
          await tx.insert(users).values(user).onConflictDoNothing({ target: users.email });
          const [created] = await tx.select().from(users).where(eq(users.email, user.email));
          if (!created) throw new Error(`user ${user.email} vanished`);
          return created;
        });
      },
      async findById(id) {
        const [user] = await db.select().from(users).where(eq(users.id, id));
        return user;
      },
      async findByEmail(email) {
        const [user] = await db.select().from(users).where(eq(users.email, email));
        return user;
      },
    },
    workspaces: {
      async createWithOwner(workspace, ownerId) {
        const created = await transact(async (tx) => {
          const inserted = await tx.insert(workspaces).values(workspace).onConflictDoNothing({ target: workspaces.slug }).returning();
          if (inserted.length === 0) return false;
          await tx
            .insert(memberships)
            .values({ workspaceId: workspace.id, userId: ownerId, role: 'owner', createdAt: workspace.createdAt });
          return true;
        });
        return created ? ({ ...workspace, role: 'owner' } satisfies Membership) : undefined;
      },
      async listForUser(userId) {
        return membershipQuery().where(eq(memberships.userId, userId)).orderBy(asc(workspaces.slug));
      },
      async findBySlug(slug) {
        const [workspace] = await db.select(workspaceColumns).from(workspaces).where(eq(workspaces.slug, slug));
        return workspace;
      },
      async addMember(workspaceId, userId, role, at) {
        try {
          await transact((tx) =>
            tx
              .insert(memberships)
              .values({ workspaceId, userId, role, createdAt: at })
              .onConflictDoUpdate({ target: [memberships.workspaceId, memberships.userId], set: { role } }),
          );
        } finally {
          await changes.publish('memberships', userId);
        }
      },
      async findById(id) {
        const [workspace] = await db.select(workspaceColumns).from(workspaces).where(eq(workspaces.id, id));
        return workspace;
      },
      async all() {
        return db.select(workspaceColumns).from(workspaces).orderBy(asc(workspaces.createdAt), asc(workspaces.id));
      },
      async findForUser(slug, userId) {
        const [membership] = await membershipOf.execute({ slug, userId });
        return membership;
      },
    },
    developerTokens: {
      async create(token) {
        const row = { ...token, lastUsedAt: null, revokedAt: null };
        await transact((tx) => tx.insert(developerTokens).values(row));
        return row;
      },
      async findActiveByHash(tokenHash) {
        const [found] = await db
          .select({ token: developerTokens, user: users })
          .from(developerTokens)
          .innerJoin(users, eq(users.id, developerTokens.userId))
          .where(and(eq(developerTokens.tokenHash, tokenHash), isNull(developerTokens.revokedAt)));
        return found;
      },
      async markUsed(id, at) {
        await transact((tx) => tx.update(developerTokens).set({ lastUsedAt: at }).where(eq(developerTokens.id, id)));
      },
      async listForUser(userId, { limit, after }) {
        const rows = await db
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
          .limit(limit + 1);
        return pageOf(rows, limit);
      },
      async revoke(id, userId, at) {
        const revoked = await transact((tx) =>
          tx
            .update(developerTokens)
            .set({ revokedAt: at })
            .where(and(eq(developerTokens.id, id), eq(developerTokens.userId, userId), isNull(developerTokens.revokedAt)))
            .returning({ id: developerTokens.id }),
        );
        return revoked.length > 0;
      },
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      // A connection the database cut off may never be handed back to the pool: a stop waits for it a few seconds only.
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<void>((resolve) => (timer = setTimeout(resolve, closeWaitMs)));
      await Promise.race([Promise.all([changes.close(), db.$client.end()]), bounded]);
      clearTimeout(timer);
    },
  };
}
