import { z } from 'zod';

export const defaultPageLimit = 50;
export const maxPageLimit = 100;

/** Cursor pagination of a list that grows: `limit` items from where `cursor` (a page's `next_cursor`) left off. */
export const pageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(maxPageLimit)
    .default(defaultPageLimit)
    .meta({ description: `Items per page, 1 to ${maxPageLimit}` }),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,300}$/, 'expected the next_cursor of a page of this list')
    .optional()
    .meta({ description: 'The `next_cursor` of the previous page; leave it out for the first page' }),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** A page query that may be left out: the first page at the default limit. */
export const optionalPageQuery = pageQuery.prefault({});

export const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as `cursor` to get the next page; null on the last page. Items added meanwhile never shift a page.' });
