import { and, asc, eq, inArray, isNull, lt, lte, notExists, or, sql } from 'drizzle-orm';
import type { GithubStore } from './store.ts';
import { sameRepository, toEvent } from './rows.ts';
import type { SqliteDb } from '../platform/sqlite/database.ts';
import type { Write } from '../platform/sqlite/group-commit.ts';
import { purgeRows } from '../platform/sqlite/purge.ts';
import { evalRuns, eventOutbox, githubDeliveries, githubInstallations, githubLinks, previewTargets } from '../platform/sqlite/schema.ts';

export function createSqliteGithub(db: SqliteDb, write: Write): GithubStore {
  return {
    githubLinks: {
      async create(link) {
        const inserted = await write(() => db.insert(githubLinks).values(link).onConflictDoNothing().run());
        return inserted.changes > 0;
      },
      async list(workspaceId) {
        return db
          .select()
          .from(githubLinks)
          .where(eq(githubLinks.workspaceId, workspaceId))
          .orderBy(asc(sql`lower(${githubLinks.repository})`))
          .all();
      },
      async all() {
        return db
          .select()
          .from(githubLinks)
          .orderBy(asc(sql`lower(${githubLinks.repository})`))
          .all();
      },
      async find(repository) {
        return db.select().from(githubLinks).where(sameRepository(githubLinks.repository, repository)).get();
      },
      async remove(workspaceId, repository) {
        const removed = await write(() =>
          db
            .delete(githubLinks)
            .where(and(eq(githubLinks.workspaceId, workspaceId), sameRepository(githubLinks.repository, repository)))
            .run(),
        );
        return removed.changes > 0;
      },
    },
    githubInstallations: {
      async sync(installationId, added, removed, at) {
        await write(() => {
          for (const repository of removed) {
            db.delete(githubInstallations)
              .where(
                and(eq(githubInstallations.installationId, installationId), sameRepository(githubInstallations.repository, repository)),
              )
              .run();
          }
          // A repository moved to another account's installation belongs to the newest one.
          for (const repository of added) {
            db.delete(githubInstallations).where(sameRepository(githubInstallations.repository, repository)).run();
            db.insert(githubInstallations).values({ repository, installationId, updatedAt: at }).run();
          }
        });
      },
      async removeInstallation(installationId) {
        await write(() => db.delete(githubInstallations).where(eq(githubInstallations.installationId, installationId)).run());
      },
      async find(repository) {
        return db.select().from(githubInstallations).where(sameRepository(githubInstallations.repository, repository)).get();
      },
    },
    githubDeliveries: {
      async claim(deliveryId, at) {
        const inserted = await write(() =>
          db.insert(githubDeliveries).values({ id: deliveryId, receivedAt: at }).onConflictDoNothing().run(),
        );
        return inserted.changes > 0;
      },
      async release(deliveryId) {
        await write(() => db.delete(githubDeliveries).where(eq(githubDeliveries.id, deliveryId)).run());
      },
      async purge(before, limit) {
        return purgeRows(db, write, githubDeliveries, lt(githubDeliveries.receivedAt, before), limit);
      },
    },
    previewTargets: {
      async create(target) {
        await write(() => db.insert(previewTargets).values(target).run());
      },
      async get(runId) {
        return db.select().from(previewTargets).where(eq(previewTargets.runId, runId)).get();
      },
      async unannounced(limit) {
        return db
          .select({ target: previewTargets })
          .from(previewTargets)
          .innerJoin(evalRuns, eq(evalRuns.id, previewTargets.runId))
          .where(
            and(
              inArray(evalRuns.status, ['finished', 'cancelled']),
              notExists(
                db
                  .select({ id: eventOutbox.id })
                  .from(eventOutbox)
                  .where(and(eq(eventOutbox.kind, 'run_finished'), eq(eventOutbox.key, previewTargets.runId))),
              ),
            ),
          )
          .orderBy(asc(previewTargets.createdAt), asc(previewTargets.runId))
          .limit(limit)
          .all()
          .map((row) => row.target);
      },
    },
    events: {
      async enqueue({ payload, ...event }) {
        const inserted = await write(() =>
          db
            .insert(eventOutbox)
            .values({ ...event, payload: JSON.stringify(payload) })
            .onConflictDoNothing({ target: [eventOutbox.kind, eventOutbox.key] })
            .run(),
        );
        return inserted.changes > 0;
      },
      async claim(max, now, until, claimId) {
        return write(() => {
          const claimable = and(
            isNull(eventOutbox.doneAt),
            lte(eventOutbox.availableAt, now),
            or(isNull(eventOutbox.claimedUntil), lt(eventOutbox.claimedUntil, now)),
          );
          const ids = db
            .select({ id: eventOutbox.id })
            .from(eventOutbox)
            .where(claimable)
            .orderBy(asc(eventOutbox.availableAt), asc(eventOutbox.id))
            .limit(max)
            .all();
          return ids.flatMap(({ id }) => {
            const row = db
              .update(eventOutbox)
              .set({ claimId: claimId(), claimedUntil: until, attempts: sql`${eventOutbox.attempts} + 1` })
              .where(and(eq(eventOutbox.id, id), claimable))
              .returning()
              .get();
            return row ? [toEvent(row)] : [];
          });
        });
      },
      async get(id) {
        const row = db.select().from(eventOutbox).where(eq(eventOutbox.id, id)).get();
        return row && toEvent(row);
      },
      async done(id, claimId, at) {
        const marked = await write(() =>
          db
            .update(eventOutbox)
            .set({ doneAt: at, claimedUntil: null })
            .where(and(eq(eventOutbox.id, id), eq(eventOutbox.claimId, claimId), isNull(eventOutbox.doneAt)))
            .run(),
        );
        return marked.changes > 0;
      },
      async retry(id, claimId, availableAt, error) {
        const given = await write(() =>
          db
            .update(eventOutbox)
            .set({ availableAt, lastError: error, claimId: null, claimedUntil: null })
            .where(and(eq(eventOutbox.id, id), eq(eventOutbox.claimId, claimId), isNull(eventOutbox.doneAt)))
            .run(),
        );
        return given.changes > 0;
      },
    },
  };
}
