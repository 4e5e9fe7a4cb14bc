import { DomainError } from '@svc/domain';
import { DatabaseDeadlinePassed } from './call-budget.ts';

/**
 * SQLSTATEs of a database that could not serve a statement now: a statement timeout (or cancel), a lock not had in
 * time, a server shutting down, restarting or out of connections, a session the server ended (idle, or idle in a
 * transaction), and transactions still aborted for concurrent ones after every retry. Class 08 (a connection lost)
 * counts too.
 */
const unavailableStates = new Set(['57014', '55P03', '57P01', '57P02', '57P03', '57P05', '25P03', '53300', '40001', '40P01']);

/**
 * Node's errors of a socket to the database that could not be opened or broke: the server is down, restarting or out
 * of reach, or its name did not resolve for now.
 */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** What node-postgres and pg-pool say, with no code, of a connection that did not open in time, broke, or closed as core stops. */
const unavailableMessages = [
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection free in time
  /^Connection terminated due to connection timeout$/, // pg-pool: a new connection did not open in time
  /^timeout expired$/, // pg: the same, as the client says it
  /^Query read timeout$/, // pg: the server did not answer in time
  /^Connection terminated( unexpectedly)?$/, // pg: the server or the network closed the connection, or core is stopping
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/, // core is stopping
];
/** SQLite's answer when another process (a backup, a shell) held the file locked past the busy timeout. */
const sqliteBusy = /^SQLITE_BUSY(_|$)/;

/** The causes of an error: itself, what it wraps (drizzle wraps a driver's error), and each of an AggregateError's. */
function* causes(error: unknown, depth = 0): Generator<object> {
  if (typeof error !== 'object' || error === null || depth > 8) return;
  yield error;
  if (error instanceof AggregateError) for (const each of error.errors) yield* causes(each, depth + 1);
  yield* causes((error as { cause?: unknown }).cause, depth + 1);
}

const codeOf = (error: object): string | undefined => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
};

/** A SQLSTATE: five digits or capitals, a digit among them (which tells it from Node's EPIPE). */
const isSqlState = (code: string) => /^[0-9A-Z]{5}$/.test(code) && /\d/.test(code);

/** The SQLSTATE of a database error, which drizzle wraps in its own. */
export function sqlState(error: unknown): string | undefined {
  for (const cause of causes(error)) {
    const code = codeOf(cause);
    if (code !== undefined && isSqlState(code)) return code;
  }
  return undefined;
}

/** Whether `error` means the database could not serve the call now: out of reach, stopping, busy or too slow. */
function isUnavailable(error: unknown): boolean {
  for (const cause of causes(error)) {
    if (cause instanceof DatabaseDeadlinePassed) return true;
    const code = codeOf(cause);
    if (code !== undefined) {
      if (isSqlState(code) && (unavailableStates.has(code) || code.startsWith('08'))) return true;
      if (unreachableCodes.has(code) || sqliteBusy.test(code)) return true;
    }
    if (cause instanceof Error && unavailableMessages.some((message) => message.test(cause.message))) return true;
  }
  return false;
}

/**
 * The answer to a store call that failed because the database could not serve it now: 503 `core_unavailable`,
 * which callers retry after `Retry-After`; undefined for any other failure.
 */
export function unavailable(error: unknown): DomainError | undefined {
  return isUnavailable(error)
    ? new DomainError('core_unavailable', 'the database is unavailable or did not answer in time; try again shortly')
    : undefined;
}
