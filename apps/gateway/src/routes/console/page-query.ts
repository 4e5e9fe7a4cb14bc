import type { Request } from 'express';

/** A query parameter as one value; left out, empty or repeated counts as not given. */
export const queryValue = (req: Request, name: string): string | undefined => {
  const value = req.query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** A list page's `limit` and `cursor` as given; core checks them as the API's, and a bad one answers as a page saying which. */
export function pageQueryOf(req: Request): { limit?: number; cursor?: string } {
  const limit = queryValue(req, 'limit');
  return { limit: limit === undefined ? undefined : Number(limit), cursor: queryValue(req, 'cursor') };
}
