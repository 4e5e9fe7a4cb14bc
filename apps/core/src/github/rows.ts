import { type Column, sql } from 'drizzle-orm';
import type { EventRecord } from './store.ts';

/** An outbox event as each store keeps it: its payload as JSON text. */
export const toEvent = (row: Omit<EventRecord, 'payload'> & { payload: string }): EventRecord => ({
  ...row,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
});

/** `owner/name` compared as GitHub does, whatever the case: what the unique indexes on lower(repository) read. */
export const sameRepository = (column: Column, repository: string) => sql`lower(${column}) = lower(${repository})`;
