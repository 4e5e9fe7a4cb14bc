import { DomainError, type PageQuery } from '@svc/domain';
import { z } from 'zod';
import type { Page, PageRequest, Position } from './page.ts';

const badCursor = () =>
  new DomainError('invalid_request', 'cursor: not a next_cursor of this list; leave it out to start again', { field: 'cursor' });

/**
 * Opaque cursors: base64url of JSON `[sort key, id]` of the last item of a page. Clients only pass them back; the
 * schema of the key checks that a cursor came from a list sorted by such a key.
 */
export function pageRequest<K>(query: PageQuery, key: z.ZodType<K>): PageRequest<K> {
  if (query.cursor === undefined) return { limit: query.limit };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  const position = z.tuple([key, z.string().min(1).max(100)]).safeParse(decoded);
  if (!position.success) throw badCursor();
  const [after, id] = position.data;
  return { limit: query.limit, after: { key: after, id } };
}

/** The page's `next_cursor`: where its last item is, or null when nothing follows. */
export function nextCursorOf<T, K>(page: Page<T>, positionOf: (item: T) => Position<K>): string | null {
  const last = page.items.at(-1);
  if (!page.more || !last) return null;
  const { key, id } = positionOf(last);
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}
