import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLogger, currentRequestId, requestIdOf, withRequestId } from '../src/index.ts';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const hex32 = /^[\da-f]{32}$/;

describe('a request id', () => {
  it("is a traceparent's trace id first, else a valid X-Request-Id, else a new one", () => {
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    expect(requestIdOf({ traceparent, 'x-request-id': 'abc-123' })).toBe(traceId);
    expect(requestIdOf({ 'x-request-id': 'abc-123' })).toBe('abc-123');
    expect(requestIdOf({ 'x-request-id': '01JF8Z7Q3M:0b1e/2+Aa==' })).toBe('01JF8Z7Q3M:0b1e/2+Aa==');
    expect(requestIdOf({})).toMatch(hex32);
    expect(requestIdOf({})).not.toBe(requestIdOf({}));
  });

  it('is new for an X-Request-Id that is too long, empty, or holds anything but letters, digits and -_.:+/=', () => {
    for (const sent of ['x'.repeat(129), '', 'abc 123', 'a"b', 'line\nbreak', 'ünïcode', '<script>', ['a', 'b']]) {
      const id = requestIdOf({ 'x-request-id': sent });
      expect(id, JSON.stringify(sent)).toMatch(hex32);
    }
    expect(requestIdOf({ 'x-request-id': 'x'.repeat(128) })).toBe('x'.repeat(128));
  });

  it('takes no trace id from a malformed traceparent', () => {
    for (const traceparent of [
      `ff-${traceId}-00f067aa0ba902b7-01`, // version ff is invalid
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, // all-zero trace id
      `00-${traceId}-${'0'.repeat(16)}-01`, // all-zero parent id
      `00-${traceId.toUpperCase()}-00f067aa0ba902b7-01`, // uppercase hex
      `00-${traceId}-00f067aa0ba902b7-01-extra`, // version 00 has four fields
      `00-${traceId}-00f067aa0ba902b7`,
    ]) {
      expect(requestIdOf({ traceparent, 'x-request-id': 'fallback-1' }), traceparent).toBe('fallback-1');
    }
    // A later version may add fields: its first four are read as version 00's.
    expect(requestIdOf({ traceparent: `01-${traceId}-00f067aa0ba902b7-01-more` })).toBe(traceId);
  });
});

it('is on every line logged while its request is served, and on no other', async () => {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('test', { LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  log.info('before');
  await withRequestId('abc-123', async () => {
    log.info('at once');
    await sleep(1);
    log.child({ part: 'deeper' }).warn('after a wait');
    expect(currentRequestId()).toBe('abc-123');
  });
  log.info('after');
  expect(lines.map((line) => [line.msg, line.request_id])).toEqual([
    ['before', undefined],
    ['at once', 'abc-123'],
    ['after a wait', 'abc-123'],
    ['after', undefined],
  ]);
});
