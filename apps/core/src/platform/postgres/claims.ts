import { getTableName } from 'drizzle-orm';
import type { HeldItem } from '../outbox.ts';
import type { PgDb } from './database.ts';
import type { mailOutbox, messageOutbox } from './schema.ts';
import { statement } from './transaction.ts';

/**
 * The renewal of an outbox's claims: extends to `until` the claims that still hold its pending items, each under its
 * own claim, expired or not, and answers the ids of those it extended. One statement for all of them.
 */
export function claimRenewal(db: PgDb, table: typeof messageOutbox | typeof mailOutbox) {
  const text = `update ${getTableName(table)} o set claimed_until = $3
    from unnest($1::text[], $2::text[]) as held(id, claim_id)
    where o.id = held.id and o.claim_id = held.claim_id and o.status = 'pending'
    returning o.id`;
  return async (held: HeldItem[], until: string) => {
    const values = [held.map(({ id }) => id), held.map(({ claimId }) => claimId), until];
    const { rows } = await statement(() => db.$client.query<{ id: string }>({ text, values }));
    return rows.map(({ id }) => id);
  };
}

/** `outbox.confirm` of the PostgreSQL store, in one statement. */
export async function confirmClaim(db: PgDb, id: string, claimId: string, now: string, until: string) {
  const { rows } = await statement(() =>
    db.$client.query<{ wanted: boolean }>({
      name: 'messaging_confirm_claim',
      text: `update message_outbox o set claimed_until = $4
        where o.id = $1 and o.claim_id = $2 and o.status = 'pending'
        returning exists (
          select from phone_verifications v where v.id = o.verification_id and v.status = 'pending' and v.expires_at > $3
        ) as wanted`,
      values: [id, claimId, now, until],
    }),
  );
  const [row] = rows;
  return !row ? ('lost' as const) : row.wanted ? ('held' as const) : ('settled' as const);
}
