import { and, asc, desc, eq, getTableColumns, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { NewMail } from '../platform/mail-store.ts';
import type { AuthStore, LoginLinkRecord } from './store.ts';
import { mailRow } from '../platform/mail-row.ts';
import { backlogColumns } from '../platform/backlog.ts';
import type { SqliteDb } from '../platform/sqlite/database.ts';
import type { Write } from '../platform/sqlite/group-commit.ts';
import { keepNewestRows, purgeRows } from '../platform/sqlite/purge.ts';
import { devMails, deviceAuthorizations, loginLinks, mailOutbox, sessions } from '../platform/sqlite/schema.ts';
import { finishedBefore } from '../platform/finished-rows.ts';
import { claimRenewal } from '../platform/sqlite/claims.ts';

/** A device authorization's record: its row but user_code, the code in the clear that only rows of earlier versions hold. */
const { userCode: _inClear, ...deviceAuthorizationColumns } = getTableColumns(deviceAuthorizations);

const dueMails = (now: string, claimable: boolean) =>
  and(
    eq(mailOutbox.status, 'pending'),
    lte(mailOutbox.nextAttemptAt, now),
    claimable ? or(isNull(mailOutbox.claimedUntil), lt(mailOutbox.claimedUntil, now)) : undefined,
  );

export function createSqliteAuth(db: SqliteDb, write: Write): AuthStore {
  const insertLinkAndMail = (link: LoginLinkRecord, mail: NewMail) => {
    db.insert(loginLinks).values(link).run();
    db.insert(mailOutbox).values(mailRow(mail)).run();
  };

  return {
    deviceAuthorizations: {
      async create(record, mail) {
        await write(() => {
          db.insert(deviceAuthorizations).values(record).run();
          if (mail) insertLinkAndMail(mail.link, mail.mail);
        });
      },
      async findByDeviceCodeHash(hash) {
        return db.select(deviceAuthorizationColumns).from(deviceAuthorizations).where(eq(deviceAuthorizations.deviceCodeHash, hash)).get();
      },
      async findByUserCodeHash(hash) {
        return db.select(deviceAuthorizationColumns).from(deviceAuthorizations).where(eq(deviceAuthorizations.userCodeHash, hash)).get();
      },
      async update(id, changes) {
        await write(() => db.update(deviceAuthorizations).set(changes).where(eq(deviceAuthorizations.id, id)).run());
      },
      async decide(id, status, userId, at) {
        const result = await write(() =>
          db
            .update(deviceAuthorizations)
            .set({ status, userId, decidedAt: at })
            .where(and(eq(deviceAuthorizations.id, id), eq(deviceAuthorizations.status, 'pending')))
            .run(),
        );
        return result.changes > 0;
      },
      async spend(id, tokenId) {
        const result = await write(() =>
          db
            .update(deviceAuthorizations)
            .set({ status: 'spent', tokenId })
            .where(and(eq(deviceAuthorizations.id, id), eq(deviceAuthorizations.status, 'approved')))
            .run(),
        );
        return result.changes > 0;
      },
      purgeExpired(before, limit) {
        return purgeRows(db, write, deviceAuthorizations, lt(deviceAuthorizations.expiresAt, before)!, limit);
      },
    },
    sessions: {
      async create(session) {
        await write(() => db.insert(sessions).values(session).run());
      },
      async findByTokenHash(hash, now) {
        return db
          .select()
          .from(sessions)
          .where(and(eq(sessions.tokenHash, hash), gt(sessions.expiresAt, now)))
          .get();
      },
      async delete(tokenHash) {
        await write(() => db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).run());
      },
      purgeExpired(before, limit) {
        return purgeRows(db, write, sessions, lte(sessions.expiresAt, before)!, limit);
      },
    },
    loginLinks: {
      async create(link, mail) {
        await write(() => insertLinkAndMail(link, mail));
      },
      async findByTokenHash(hash) {
        return db.select().from(loginLinks).where(eq(loginLinks.tokenHash, hash)).get();
      },
      async use(id, at) {
        const result = await write(() =>
          db
            .update(loginLinks)
            .set({ usedAt: at })
            .where(and(eq(loginLinks.id, id), isNull(loginLinks.usedAt)))
            .run(),
        );
        return result.changes > 0;
      },
      purgeExpired(before, limit) {
        return purgeRows(db, write, loginLinks, lt(loginLinks.expiresAt, before)!, limit);
      },
    },
    mails: {
      async due(now, limit) {
        return db.select().from(mailOutbox).where(dueMails(now, false)).orderBy(asc(mailOutbox.nextAttemptAt)).limit(limit).all();
      },
      async backlog() {
        return db.select(backlogColumns(mailOutbox.createdAt)).from(mailOutbox).where(eq(mailOutbox.status, 'pending')).get()!;
      },
      async claim(claim, limit) {
        return write(() => {
          const claimed = db
            .select()
            .from(mailOutbox)
            .where(dueMails(claim.now, true))
            .orderBy(asc(mailOutbox.nextAttemptAt))
            .limit(limit)
            .all();
          if (claimed.length === 0) return [];
          db.update(mailOutbox)
            .set({ claimId: claim.id, claimedUntil: claim.until })
            .where(
              inArray(
                mailOutbox.id,
                claimed.map((mail) => mail.id),
              ),
            )
            .run();
          return claimed.map((mail) => ({ ...mail, claimId: claim.id, claimedUntil: claim.until }));
        });
      },
      markSent(id, claimId, at) {
        return write(
          () =>
            db
              .update(mailOutbox)
              .set({ status: 'sent', sentAt: at, bodySealed: null, claimId: null, claimedUntil: null })
              .where(and(eq(mailOutbox.id, id), eq(mailOutbox.claimId, claimId), eq(mailOutbox.status, 'pending')))
              .run().changes > 0,
        );
      },
      markRetry(id, claimId, nextAttemptAt, error) {
        return write(
          () =>
            db
              .update(mailOutbox)
              .set({ nextAttemptAt, lastError: error, attempts: sql`${mailOutbox.attempts} + 1`, claimId: null, claimedUntil: null })
              .where(and(eq(mailOutbox.id, id), eq(mailOutbox.claimId, claimId), eq(mailOutbox.status, 'pending')))
              .run().changes > 0,
        );
      },
      renew: claimRenewal(db, write, mailOutbox),
      markFailed(id, claimId, error) {
        return write(
          () =>
            db
              .update(mailOutbox)
              .set({ status: 'failed', lastError: error, bodySealed: null, claimId: null, claimedUntil: null })
              .where(and(eq(mailOutbox.id, id), eq(mailOutbox.claimId, claimId), eq(mailOutbox.status, 'pending')))
              .run().changes > 0,
        );
      },
      purgeFinished(before, limit) {
        return purgeRows(db, write, mailOutbox, finishedBefore(mailOutbox.status, mailOutbox.createdAt, before), limit);
      },
    },
    devMails: {
      async add(mail) {
        await write(() => db.insert(devMails).values(mail).run());
      },
      async list(limit) {
        return db.select().from(devMails).orderBy(desc(devMails.createdAt), desc(devMails.id)).limit(limit).all();
      },
      keepNewest(kept) {
        return keepNewestRows(db, write, devMails, kept);
      },
    },
  };
}
