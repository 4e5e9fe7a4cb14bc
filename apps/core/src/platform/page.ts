/** Where a page of a list left off: the sort key and the id of its last item (ids break ties of the key). */
export interface Position<K> {
  key: K;
  id: string;
}

/** Keyset pagination: the first `limit` items after `after`, so items inserted meanwhile never shift a page. */
export interface PageRequest<K> {
  limit: number;
  after?: Position<K>;
}

export interface Page<T> {
  items: T[];
  /** Whether items follow the last one. */
  more: boolean;
}

/** The page of rows fetched with a limit one over the page's: the extra row only says there is more. */
export const pageOf = <T>(rows: T[], limit: number): Page<T> => ({ items: rows.slice(0, limit), more: rows.length > limit });
