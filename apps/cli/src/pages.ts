import { maxPageLimit } from '@svc/domain';
import type { Api } from './api.ts';

/** A list's path with its filters that are given. */
export const listPath = (path: string, query: Record<string, string | undefined>): string => {
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return params.size ? `${path}?${params}` : path;
};

/** Every item of a list the API answers a page at a time, following `next_cursor` to the last page. */
export async function everyItem<T>(api: Api, path: string, key: string, query: Record<string, string | undefined> = {}): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.request<Record<string, unknown>>('GET', listPath(path, { ...query, limit: String(maxPageLimit), cursor }));
    items.push(...(page[key] as T[]));
    cursor = (page.next_cursor as string | null) ?? undefined;
  } while (cursor);
  return items;
}
