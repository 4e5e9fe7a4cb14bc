import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header a request id comes in on and goes back out on, and that carries it on HTTP calls to core. */
export const requestIdHeader = 'x-request-id';

/** What a request id sent to us may be: 1 to 128 letters, digits and `-_.:+/=` (UUIDs, ULIDs, base64, trace ids). */
const sentRequestId = /^[\w.:+/=-]{1,128}$/;

/** W3C trace context: version-traceid-parentid-flags, lowercase hex; a later version may add fields after them. */
const traceparent = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})(-.*)?$/;

/**
 * A new request id: a random UUID's 32 hex digits, the shape of a W3C trace id. randomUUID draws from a cached pool of
 * entropy; randomBytes made a system call for every request.
 */
export const newRequestId = (): string => randomUUID().replaceAll('-', '');

/** The value when it is a request id we take, else undefined: nothing unbounded or unsafe reaches a log line. */
export function validRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && sentRequestId.test(value) ? value : undefined;
}

/** The trace id of a valid `traceparent` header (version ff, an all-zero trace or parent id, or version 00 with more fields are not). */
export function traceIdOf(header: unknown): string | undefined {
  const match = typeof header === 'string' ? traceparent.exec(header) : null;
  if (!match) return undefined;
  const [, version, traceId, parentId, , rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId!) || /^0+$/.test(parentId!)) return undefined;
  return traceId;
}

/**
 * A request's id, from its headers: the trace id of its `traceparent`, else its `X-Request-Id` when that is a
 * request id we take, else a new one.
 */
export function requestIdOf(headers: Readonly<Record<string, unknown>>): string {
  return traceIdOf(headers.traceparent) ?? validRequestId(headers[requestIdHeader]) ?? newRequestId();
}

/**
 * The request being served, for the work it sets off however deep: services keep the one logger they were made with,
 * and passing a request's logger through every call would change them all. The price on Node 20 is the promise
 * hooks AsyncLocalStorage turns on: `pnpm bench` on SQLite measured about 25 µs more CPU per API request, gateway
 * and core together (392 to 415 µs a create, 227 to 250 µs a verify).
 */
const current = new AsyncLocalStorage<string>();

/**
 * Runs `work` as part of the request `id`: every log line written while it runs, however deep in the services,
 * carries the id (the logger reads it), and calls to core made meanwhile pass it on.
 */
export const withRequestId = <T>(id: string, work: () => T): T => current.run(id, work);

/** The id of the request being served, if any. */
export const currentRequestId = (): string | undefined => current.getStore();

/** The header of an HTTP call to core: the id of the request it serves, or a new one for a call of its own. */
export const requestIdHeaders = (): Record<string, string> => ({ [requestIdHeader]: currentRequestId() ?? newRequestId() });
