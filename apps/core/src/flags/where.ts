import { and, type Column, eq, isNotNull, isNull, ne, type SQL } from 'drizzle-orm';
import type { FlagChange, FlagFilter } from './store.ts';
import { ascendingAfter } from '../platform/keyset.ts';
import type { Position } from '../platform/page.ts';

/** The columns of the flags table the lists filter on, as both stores' tables have them. */
interface FlagColumns {
  id: Column;
  workspaceId: Column;
  status: Column;
  agent: Column;
  note: Column;
  createdAt: Column;
}

const ofAgent = (flags: FlagColumns, agent: string | undefined) => (agent === undefined ? undefined : eq(flags.agent, agent));

/** A list's flags after the page's last (by creation time, then id). */
export const flagsOf = (
  flags: FlagColumns,
  workspaceId: string,
  { status, agent }: FlagFilter,
  after?: Position<string>,
): SQL | undefined =>
  and(
    eq(flags.workspaceId, workspaceId),
    status === 'all' ? undefined : eq(flags.status, status),
    ofAgent(flags, agent),
    ascendingAfter(flags.createdAt, flags.id, after),
  );

/** The flags a digest shows: open, with a note; of one agent when given. */
export const digestFlagsOf = (flags: FlagColumns, workspaceId: string, agent?: string): SQL | undefined =>
  and(eq(flags.workspaceId, workspaceId), eq(flags.status, 'open'), isNotNull(flags.note), ofAgent(flags, agent));

/** The columns of the eval cases table the lists filter on. */
interface EvalCaseColumns {
  id: Column;
  workspaceId: Column;
  agent: Column;
  deletedAt: Column;
  createdAt: Column;
}

/** The cases that are not removed, of one agent when given, after the page's last (by creation time, then id). */
export const liveCasesOf = (cases: EvalCaseColumns, workspaceId: string, agent?: string, after?: Position<string>): SQL | undefined =>
  and(
    eq(cases.workspaceId, workspaceId),
    isNull(cases.deletedAt),
    agent ? eq(cases.agent, agent) : undefined,
    ascendingAfter(cases.createdAt, cases.id, after),
  );

/**
 * The flag a change applies to, as the change was computed from it (its revision). A fix needs a version other than
 * the flagged reply's: only a version published after the reply was given can have fixed it.
 */
export const flagChangeOf = (flags: { id: Column; revision: Column; versionId: Column }, change: FlagChange): SQL | undefined =>
  and(
    eq(flags.id, change.flagId),
    eq(flags.revision, change.revision),
    change.status === 'fixed' && change.fixedByVersion ? ne(flags.versionId, change.fixedByVersion.id) : undefined,
  );
