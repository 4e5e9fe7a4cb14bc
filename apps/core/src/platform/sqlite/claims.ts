import { and, eq, getTableName, sql } from 'drizzle-orm';
import type { HeldItem } from '../outbox.ts';
import type { SqliteDb } from './database.ts';
import type { Write } from './group-commit.ts';
import { mailOutbox, messageOutbox, phoneVerifications } from './schema.ts';

/**
 * The renewal of an outbox's claims: extends to `until` the claims that still hold its pending items, each under its
 * own claim, expired or not, and answers the ids of those it extended.
 */
export function claimRenewal(db: SqliteDb, write: Write, table: typeof messageOutbox | typeof mailOutbox) {
  const renew = db.$client.prepare<{ id: string; claimId: string; until: string }>(
    `update ${getTableName(table)} set claimed_until = @until
     where id = @id and claim_id = @claimId and status = 'pending'`,
  );
  return (held: HeldItem[], until: string) =>
    write(() => held.filter(({ id, claimId }) => renew.run({ id, claimId, until }).changes > 0).map(({ id }) => id));
}

/** `outbox.confirm` of the SQLite store. */
export function confirmClaim(db: SqliteDb, write: Write, id: string, claimId: string, now: string, until: string) {
  return write(() => {
    const [row] = db
      .update(messageOutbox)
      .set({ claimedUntil: until })
      .where(and(eq(messageOutbox.id, id), eq(messageOutbox.claimId, claimId), eq(messageOutbox.status, 'pending')))
      .returning({ verificationId: messageOutbox.verificationId })
      .all();
    if (!row) return 'lost' as const;
    const pending = db
      .select({ id: phoneVerifications.id })
      .from(phoneVerifications)
      .where(
        and(
          eq(phoneVerifications.id, row.verificationId),
          eq(phoneVerifications.status, 'pending'),
          sql`${phoneVerifications.expiresAt} > ${now}`,
        ),
      )
      .get();
    return pending ? ('held' as const) : ('settled' as const);
  });
}
