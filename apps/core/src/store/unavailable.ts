import { DomainError } from '@svc/domain';

/**
 * SQLSTATEs of a database that could not serve a statement now: a statement timeout (or cancel), a lock not had in
 * time, a server shutting down or out of connections. Class 08 (a connection lost) counts too.
 */
const unavailableStates = new Set(['57014', '55P03', '57P01', '57P02', '57P03', '53300']);

/** What pg-pool says when no connection could be had in time, and pg when the server did not answer in time. */
const unavailableMessages = [/timeout exceeded when trying to connect/, /^Query read timeout$/];

/** The SQLSTATE of a database error, which drizzle wraps in its own. */
export function sqlState(error: unknown): string | undefined {
  for (let cause = error; typeof cause === 'object' && cause !== null; cause = (cause as { cause?: unknown }).cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * The answer to a store call that failed because the database could not serve it in time: 503 `core_unavailable`,
 * which callers retry after `Retry-After`; undefined for any other failure.
 */
export function unavailable(error: unknown): DomainError | undefined {
  const state = sqlState(error);
  let busy = state !== undefined && (unavailableStates.has(state) || state.startsWith('08'));
  for (let cause = error; !busy && cause instanceof Error; cause = cause.cause) {
    busy = unavailableMessages.some((message) => message.test(cause.message));
  }
  return busy ? new DomainError('core_unavailable', 'the database did not answer in time; try again shortly') : undefined;
}
