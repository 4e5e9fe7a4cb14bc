import { and, asc, desc, eq, getTableColumns, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { NewMail } from '../platform/mail-store.ts';
import type { AuthStore, LoginLinkRecord } from './store.ts';
import { mailRow } from '../platform/mail-row.ts';
import { backlogColumns } from '../platform/backlog.ts';
import type { PgDb } from '../platform/postgres/database.ts';
import { keepNewestRows, purgeRows } from '../platform/postgres/purge.ts';
import { devMails, deviceAuthorizations, loginLinks, mailOutbox, sessions } from '../platform/postgres/schema.ts';
import type { PgTx, Transact } from '../platform/postgres/transaction.ts';
import { finishedBefore } from '../platform/finished-rows.ts';
import { claimRenewal } from '../platform/postgres/claims.ts';

/** A device authorization's record: its row but user_code, the code in the clear that only rows of earlier versions hold. */
const { userCode: _inClear, ...deviceAuthorizationColumns } = getTableColumns(deviceAuthorizations);

const dueMails = (now: string, claimable: boolean) =>
  and(
    eq(mailOutbox.status, 'pending'),
    lte(mailOutbox.nextAttemptAt, now),
    claimable ? or(isNull(mailOutbox.claimedUntil), lt(mailOutbox.claimedUntil, now)) : undefined,
  );

/** Oldest due first; mails due at the same moment by when they were queued, then by id. */
const dueOrder = [asc(mailOutbox.nextAttemptAt), asc(mailOutbox.createdAt), asc(mailOutbox.id)];

/** A pending mail's outcome, recorded only while the claim `claimId` holds it. */
const heldBy = (id: string, claimId: string) =>
  and(eq(mailOutbox.id, id), eq(mailOutbox.claimId, claimId), eq(mailOutbox.status, 'pending'));

export function createPostgresAuth(db: PgDb, transact: Transact): AuthStore {
  const insertLinkAndMail = async (tx: PgTx, link: LoginLinkRecord, mail: NewMail) => {
    await tx.insert(loginLinks).values(link);
    await tx.insert(mailOutbox).values(mailRow(mail));
  };

  const recordMail = (id: string, claimId: string, changes: PgUpdateSetSource<typeof mailOutbox>) =>
    transact(async (tx) => {
      const recorded = await tx
        .update(mailOutbox)
        .set({ ...changes, claimId: null, claimedUntil: null })
        .where(heldBy(id, claimId))
        .returning({ id: mailOutbox.id });
      return recorded.length > 0;
    });

  return {
    deviceAuthorizations: {
      async create(record, mail) {
        await transact(async (tx) => {
          await tx.insert(deviceAuthorizations).values(record);
          if (mail) await insertLinkAndMail(tx, mail.link, mail.mail);
        });
      },
      async findByDeviceCodeHash(hash) {
        const [found] = await db
          .select(deviceAuthorizationColumns)
          .from(deviceAuthorizations)
          .where(eq(deviceAuthorizations.deviceCodeHash, hash));
        return found;
      },
      async findByUserCodeHash(hash) {
        const [found] = await db
          .select(deviceAuthorizationColumns)
          .from(deviceAuthorizations)
          .where(eq(deviceAuthorizations.userCodeHash, hash));
        return found;
      },
      async update(id, changes) {
        await transact((tx) => tx.update(deviceAuthorizations).set(changes).where(eq(deviceAuthorizations.id, id)));
      },
      async decide(id, status, userId, at) {
        const decided = await transact((tx) =>
          tx
            .update(deviceAuthorizations)
            .set({ status, userId, decidedAt: at })
            .where(and(eq(deviceAuthorizations.id, id), eq(deviceAuthorizations.status, 'pending')))
            .returning({ id: deviceAuthorizations.id }),
        );
        return decided.length > 0;
      },
      async spend(id, tokenId) {
        const spent = await transact((tx) =>
          tx
            .update(deviceAuthorizations)
            .set({ status: 'spent', tokenId })
            .where(and(eq(deviceAuthorizations.id, id), eq(deviceAuthorizations.status, 'approved')))
            .returning({ id: deviceAuthorizations.id }),
        );
        return spent.length > 0;
      },
      purgeExpired(before, limit) {
        return purgeRows(transact, deviceAuthorizations, lt(deviceAuthorizations.expiresAt, before)!, limit);
      },
    },
    sessions: {
      async create(session) {
        await transact((tx) => tx.insert(sessions).values(session));
      },
      async findByTokenHash(hash, now) {
        const [session] = await db
          .select()
          .from(sessions)
          .where(and(eq(sessions.tokenHash, hash), gt(sessions.expiresAt, now)));
        return session;
      },
      async delete(tokenHash) {
        await transact((tx) => tx.delete(sessions).where(eq(sessions.tokenHash, tokenHash)));
      },
      purgeExpired(before, limit) {
        return purgeRows(transact, sessions, lte(sessions.expiresAt, before)!, limit);
      },
    },
    loginLinks: {
      async create(link, mail) {
        await transact((tx) => insertLinkAndMail(tx, link, mail));
      },
      async findByTokenHash(hash) {
        const [link] = await db.select().from(loginLinks).where(eq(loginLinks.tokenHash, hash));
        return link;
      },
      async use(id, at) {
        const used = await transact((tx) =>
          tx
            .update(loginLinks)
            .set({ usedAt: at })
            .where(and(eq(loginLinks.id, id), isNull(loginLinks.usedAt)))
            .returning({ id: loginLinks.id }),
        );
        return used.length > 0;
      },
      purgeExpired(before, limit) {
        return purgeRows(transact, loginLinks, lt(loginLinks.expiresAt, before)!, limit);
      },
    },
    mails: {
      async due(now, limit) {
        return db
          .select()
          .from(mailOutbox)
          .where(dueMails(now, false))
          .orderBy(...dueOrder)
          .limit(limit);
      },
      async backlog() {
        const [backlog] = await db.select(backlogColumns(mailOutbox.createdAt)).from(mailOutbox).where(eq(mailOutbox.status, 'pending'));
        return backlog!;
      },
      // The due mails no claim holds are locked as they are read, skipping those another core is claiming at the
      // same moment: racing cores take different mails and never wait for each other.
      claim(claim, limit) {
        return transact(
          async (tx) => {
            const claimed = await tx
              .select()
              .from(mailOutbox)
              .where(dueMails(claim.now, true))
              .orderBy(...dueOrder)
              .limit(limit)
              .for('update', { skipLocked: true });
            if (claimed.length === 0) return [];
            await tx
              .update(mailOutbox)
              .set({ claimId: claim.id, claimedUntil: claim.until })
              .where(
                inArray(
                  mailOutbox.id,
                  claimed.map((mail) => mail.id),
                ),
              );
            return claimed.map((mail) => ({ ...mail, claimId: claim.id, claimedUntil: claim.until }));
          },
          { isolation: 'read committed' },
        );
      },
      markSent(id, claimId, at) {
        return recordMail(id, claimId, { status: 'sent', sentAt: at, bodySealed: null });
      },
      markRetry(id, claimId, nextAttemptAt, error) {
        return recordMail(id, claimId, { nextAttemptAt, lastError: error, attempts: sql`${mailOutbox.attempts} + 1` });
      },
      renew: claimRenewal(db, mailOutbox),
      markFailed(id, claimId, error) {
        return recordMail(id, claimId, { status: 'failed', lastError: error, bodySealed: null });
      },
      purgeFinished(before, limit) {
        return purgeRows(transact, mailOutbox, finishedBefore(mailOutbox.status, mailOutbox.createdAt, before), limit);
      },
    },
    devMails: {
      async add(mail) {
        await transact((tx) => tx.insert(devMails).values(mail));
      },
      async list(limit) {
        return db.select().from(devMails).orderBy(desc(devMails.createdAt), desc(devMails.id)).limit(limit);
      },
      keepNewest(kept) {
        return keepNewestRows(transact, devMails, kept);
      },
    },
  };
}
