import { afterEach, describe, expect, it, vi } from 'vitest';
import { dayIn, firedToday, nextFire, scheduleDaily, validCron } from '../../src/digest/schedule.ts';
import { defaultConfig } from '../../src/platform/config.ts';

const santiago = defaultConfig.digest;
const utc = (iso: string) => new Date(iso);

/** Each time the schedule fires from `from`, `count` times over. */
function firesFrom(from: string, count: number): string[] {
  const fires: string[] = [];
  let at = utc(from);
  for (let i = 0; i < count; i++) {
    at = nextFire(santiago, at);
    fires.push(at.toISOString());
  }
  return fires;
}

// Chile's 2026 clock changes: back from UTC-3 to UTC-4 at the end of Saturday 4 April (24:00 becomes 23:00), and
// forward from UTC-4 to UTC-3 at the end of Saturday 5 September (24:00 becomes 01:00 on Sunday).
describe('the daily digest at 08:00 America/Santiago', () => {
  it('fires at 08:00 local around the April change: 11:00 UTC until Saturday, 12:00 UTC from Sunday', () => {
    expect(firesFrom('2026-04-02T12:00:00.000Z', 4)).toEqual([
      '2026-04-03T11:00:00.000Z',
      '2026-04-04T11:00:00.000Z',
      '2026-04-05T12:00:00.000Z',
      '2026-04-06T12:00:00.000Z',
    ]);
  });

  it('fires at 08:00 local around the September change: 12:00 UTC until Saturday, 11:00 UTC from Sunday', () => {
    expect(firesFrom('2026-09-03T12:00:00.000Z', 4)).toEqual([
      '2026-09-04T12:00:00.000Z',
      '2026-09-05T12:00:00.000Z',
      '2026-09-06T11:00:00.000Z',
      '2026-09-07T11:00:00.000Z',
    ]);
  });

  it('knows, at any instant, whether the day’s time has passed in Santiago, across both changes', () => {
    // The Sunday after the April change: 08:00 local is 12:00 UTC, not 11:00.
    expect(firedToday(santiago, utc('2026-04-05T11:30:00.000Z'))).toBeUndefined();
    expect(firedToday(santiago, utc('2026-04-05T12:00:00.000Z'))?.toISOString()).toBe('2026-04-05T12:00:00.000Z');
    expect(firedToday(santiago, utc('2026-04-06T03:30:00.000Z'))?.toISOString()).toBe('2026-04-05T12:00:00.000Z'); // 23:30 local
    // The Sunday of the September change: 08:00 local is 11:00 UTC, not 12:00.
    expect(firedToday(santiago, utc('2026-09-06T10:59:00.000Z'))).toBeUndefined();
    expect(firedToday(santiago, utc('2026-09-06T11:01:00.000Z'))?.toISOString()).toBe('2026-09-06T11:00:00.000Z');
    // 02:00 UTC on the 7th is still the 6th in Santiago (22:00 local).
    expect(firedToday(santiago, utc('2026-09-07T02:00:00.000Z'))?.toISOString()).toBe('2026-09-06T11:00:00.000Z');
    expect(firedToday(santiago, utc('2026-09-07T03:30:00.000Z'))).toBeUndefined(); // 00:30 on the 7th
  });

  it('dates the day in Santiago, not in UTC', () => {
    expect(dayIn(utc('2026-04-05T03:30:00.000Z'), santiago.timeZone)).toBe('2026-04-04'); // the repeated 23:30
    expect(dayIn(utc('2026-09-06T04:00:00.000Z'), santiago.timeZone)).toBe('2026-09-06'); // 01:00, the first hour
    expect(dayIn(utc('2026-09-06T03:59:00.000Z'), santiago.timeZone)).toBe('2026-09-05');
  });

  it('follows SVC_DIGEST_CRON and SVC_DIGEST_TZ', () => {
    const schedule = { cron: '30 6 * * 1-5', timeZone: 'Europe/Berlin' };
    expect(nextFire(schedule, utc('2026-03-27T12:00:00.000Z')).toISOString()).toBe('2026-03-30T04:30:00.000Z'); // Monday, CEST
    expect(validCron('0 8 * * *')).toBe(true);
    expect(validCron('0 25 * * *')).toBe(false);
    expect(validCron('every morning')).toBe(false);
  });
});

describe('node-cron running the schedule, on a moved clock', () => {
  afterEach(() => vi.useRealTimers());

  for (const [change, from, expected] of [
    [
      'April',
      '2026-04-03T00:00:00.000Z',
      ['2026-04-03T11:00:00.000Z', '2026-04-04T11:00:00.000Z', '2026-04-05T12:00:00.000Z', '2026-04-06T12:00:00.000Z'],
    ],
    [
      'September',
      '2026-09-04T00:00:00.000Z',
      ['2026-09-04T12:00:00.000Z', '2026-09-05T12:00:00.000Z', '2026-09-06T11:00:00.000Z', '2026-09-07T11:00:00.000Z'],
    ],
  ] as const)
    it(`fires at the instants the schedule computes around the ${change} change`, async () => {
      vi.useFakeTimers({ now: utc(from) });
      const fired: string[] = [];
      const task = scheduleDaily(santiago, (due) => fired.push(`${due.toISOString()} at ${new Date().toISOString()}`));
      await vi.advanceTimersByTimeAsync(4 * 86_400_000);
      await task.destroy();
      expect(fired).toEqual(expected.map((due) => `${due} at ${due}`));
    });
});
