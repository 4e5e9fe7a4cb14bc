import { and, desc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { DigestStore } from './store.ts';
import { mailRow } from '../platform/mail-row.ts';
import type { SqliteDb } from '../platform/sqlite/database.ts';
import type { Write } from '../platform/sqlite/group-commit.ts';
import { purgeRows } from '../platform/sqlite/purge.ts';
import { digestDays, mailOutbox } from '../platform/sqlite/schema.ts';

export function createSqliteDigest(db: SqliteDb, write: Write): DigestStore {
  return {
    digestDays: {
      async claim(day) {
        const inserted = await write(() => db.insert(digestDays).values(day).onConflictDoNothing().run());
        return inserted.changes > 0;
      },
      async lastMailed(workspaceId) {
        return db
          .select()
          .from(digestDays)
          .where(and(eq(digestDays.workspaceId, workspaceId), isNotNull(digestDays.mailedAt)))
          .orderBy(desc(digestDays.mailedAt))
          .limit(1)
          .get();
      },
      async markMailed(workspaceId, day, at, mails) {
        await write(() => {
          db.insert(digestDays)
            .values({ workspaceId, day, claimedAt: at, mailedAt: at })
            .onConflictDoUpdate({ target: [digestDays.workspaceId, digestDays.day], set: { mailedAt: at } })
            .run();
          if (mails.length > 0) db.insert(mailOutbox).values(mails.map(mailRow)).run();
        });
      },
      purgeBefore(day, limit) {
        const supersededOrUnmailed = sql`(${digestDays.mailedAt} is null or exists (select 1 from ${digestDays} later
          where later.workspace_id = ${digestDays.workspaceId} and later.mailed_at > ${digestDays.mailedAt}))`;
        return purgeRows(db, write, digestDays, and(lt(digestDays.day, day), supersededOrUnmailed)!, limit);
      },
    },
  };
}
