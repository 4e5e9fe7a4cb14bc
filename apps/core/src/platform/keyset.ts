import { and, type Column, gt, gte, or, type SQL } from 'drizzle-orm';
import type { Position } from './page.ts';

/**
 * The rows after a page's last one, in ascending order of (key, id): `key >= after` bounds the index's range, the rest
 * skips the rows of the same key up to the page's last.
 */
export const ascendingAfter = (key: Column, id: Column, after: Position<string> | undefined): SQL | undefined =>
  after && and(gte(key, after.key), or(gt(key, after.key), gt(id, after.id)));
