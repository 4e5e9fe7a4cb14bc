import { and, desc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { DigestStore } from './store.ts';
import { mailRow } from '../platform/mail-row.ts';
import type { PgDb } from '../platform/postgres/database.ts';
import { purgeRows } from '../platform/postgres/purge.ts';
import { digestDays, mailOutbox } from '../platform/postgres/schema.ts';
import type { Transact } from '../platform/postgres/transaction.ts';

export function createPostgresDigest(db: PgDb, transact: Transact): DigestStore {
  return {
    digestDays: {
      // The day's key decides: of the cores that claim it at once, one inserts it and the others find it there.
      async claim(day) {
        const inserted = await transact((tx) =>
          tx.insert(digestDays).values(day).onConflictDoNothing().returning({ workspaceId: digestDays.workspaceId }),
        );
        return inserted.length > 0;
      },
      async lastMailed(workspaceId) {
        const [day] = await db
          .select()
          .from(digestDays)
          .where(and(eq(digestDays.workspaceId, workspaceId), isNotNull(digestDays.mailedAt)))
          .orderBy(desc(digestDays.mailedAt))
          .limit(1);
        return day;
      },
      async markMailed(workspaceId, day, at, mails) {
        await transact(async (tx) => {
          await tx
            .insert(digestDays)
            .values({ workspaceId, day, claimedAt: at, mailedAt: at })
            .onConflictDoUpdate({ target: [digestDays.workspaceId, digestDays.day], set: { mailedAt: at } });
          if (mails.length > 0) await tx.insert(mailOutbox).values(mails.map(mailRow));
        });
      },
      purgeBefore(day, limit) {
        const supersededOrUnmailed = sql`(${digestDays.mailedAt} is null or exists (select 1 from ${digestDays} later
          where later.workspace_id = ${digestDays.workspaceId} and later.mailed_at > ${digestDays.mailedAt}))`;
        return purgeRows(transact, digestDays, and(lt(digestDays.day, day), supersededOrUnmailed)!, limit);
      },
    },
  };
}
