import { and, asc, eq, inArray, isNull, lt, lte, notExists, or, sql } from 'drizzle-orm';
import type { GithubStore } from './store.ts';
import { sameRepository, toEvent } from './rows.ts';
import type { PgDb } from '../platform/postgres/database.ts';
import { purgeRows } from '../platform/postgres/purge.ts';
import { evalRuns, eventOutbox, githubDeliveries, githubInstallations, githubLinks, previewTargets } from '../platform/postgres/schema.ts';
import type { Transact } from '../platform/postgres/transaction.ts';

export function createPostgresGithub(db: PgDb, transact: Transact): GithubStore {
  return {
    githubLinks: {
      async create(link) {
        const inserted = await transact((tx) =>
          tx.insert(githubLinks).values(link).onConflictDoNothing().returning({ repository: githubLinks.repository }),
        );
        return inserted.length > 0;
      },
      async list(workspaceId) {
        return db
          .select()
          .from(githubLinks)
          .where(eq(githubLinks.workspaceId, workspaceId))
          .orderBy(asc(sql`lower(${githubLinks.repository})`));
      },
      async all() {
        return db
          .select()
          .from(githubLinks)
          .orderBy(asc(sql`lower(${githubLinks.repository})`));
      },
      async find(repository) {
        const [link] = await db.select().from(githubLinks).where(sameRepository(githubLinks.repository, repository));
        return link;
      },
      async remove(workspaceId, repository) {
        const removed = await transact((tx) =>
          tx
            .delete(githubLinks)
            .where(and(eq(githubLinks.workspaceId, workspaceId), sameRepository(githubLinks.repository, repository)))
            .returning({ repository: githubLinks.repository }),
        );
        return removed.length > 0;
      },
    },
    githubInstallations: {
      async sync(installationId, added, removed, at) {
        await transact(async (tx) => {
          for (const repository of removed) {
            await tx
              .delete(githubInstallations)
              .where(
                and(eq(githubInstallations.installationId, installationId), sameRepository(githubInstallations.repository, repository)),
              );
          }
          // A repository moved to another account's installation belongs to the newest one.
          for (const repository of added) {
            await tx.delete(githubInstallations).where(sameRepository(githubInstallations.repository, repository));
            await tx.insert(githubInstallations).values({ repository, installationId, updatedAt: at });
          }
        });
      },
      async removeInstallation(installationId) {
        await transact((tx) => tx.delete(githubInstallations).where(eq(githubInstallations.installationId, installationId)));
      },
      async find(repository) {
        const [installation] = await db
          .select()
          .from(githubInstallations)
          .where(sameRepository(githubInstallations.repository, repository));
        return installation;
      },
    },
    githubDeliveries: {
      async claim(deliveryId, at) {
        const inserted = await transact((tx) =>
          tx
            .insert(githubDeliveries)
            .values({ id: deliveryId, receivedAt: at })
            .onConflictDoNothing()
            .returning({ id: githubDeliveries.id }),
        );
        return inserted.length > 0;
      },
      async release(deliveryId) {
        await transact((tx) => tx.delete(githubDeliveries).where(eq(githubDeliveries.id, deliveryId)));
      },
      async purge(before, limit) {
        return purgeRows(transact, githubDeliveries, lt(githubDeliveries.receivedAt, before), limit);
      },
    },
    previewTargets: {
      async create(target) {
        await transact((tx) => tx.insert(previewTargets).values(target));
      },
      async get(runId) {
        const [target] = await db.select().from(previewTargets).where(eq(previewTargets.runId, runId));
        return target;
      },
      async unannounced(limit) {
        const rows = await db
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
          .limit(limit);
        return rows.map((row) => row.target);
      },
    },
    events: {
      async enqueue({ payload, ...event }) {
        const inserted = await transact((tx) =>
          tx
            .insert(eventOutbox)
            .values({ ...event, payload: JSON.stringify(payload) })
            .onConflictDoNothing({ target: [eventOutbox.kind, eventOutbox.key] })
            .returning({ id: eventOutbox.id }),
        );
        return inserted.length > 0;
      },
      /** The due events, each locked with `for update skip locked`: another core's claim is passed over, never waited for. */
      async claim(max, now, until, claimId) {
        return transact(
          async (tx) => {
            const ids = await tx
              .select({ id: eventOutbox.id })
              .from(eventOutbox)
              .where(
                and(
                  isNull(eventOutbox.doneAt),
                  lte(eventOutbox.availableAt, now),
                  or(isNull(eventOutbox.claimedUntil), lt(eventOutbox.claimedUntil, now)),
                ),
              )
              .orderBy(asc(eventOutbox.availableAt), asc(eventOutbox.id))
              .limit(max)
              .for('update', { skipLocked: true });
            const claimed = [];
            for (const { id } of ids) {
              const [row] = await tx
                .update(eventOutbox)
                .set({ claimId: claimId(), claimedUntil: until, attempts: sql`${eventOutbox.attempts} + 1` })
                .where(eq(eventOutbox.id, id))
                .returning();
              if (row) claimed.push(toEvent(row));
            }
            return claimed;
          },
          { isolation: 'read committed' },
        );
      },
      async get(id) {
        const [row] = await db.select().from(eventOutbox).where(eq(eventOutbox.id, id));
        return row && toEvent(row);
      },
      async done(id, claimId, at) {
        const marked = await transact((tx) =>
          tx
            .update(eventOutbox)
            .set({ doneAt: at, claimedUntil: null })
            .where(and(eq(eventOutbox.id, id), eq(eventOutbox.claimId, claimId), isNull(eventOutbox.doneAt)))
            .returning({ id: eventOutbox.id }),
        );
        return marked.length > 0;
      },
      async retry(id, claimId, availableAt, error) {
        const given = await transact((tx) =>
          tx
            .update(eventOutbox)
            .set({ availableAt, lastError: error, claimId: null, claimedUntil: null })
            .where(and(eq(eventOutbox.id, id), eq(eventOutbox.claimId, claimId), isNull(eventOutbox.doneAt)))
            .returning({ id: eventOutbox.id }),
        );
        return given.length > 0;
      },
    },
  };
}
