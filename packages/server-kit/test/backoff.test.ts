import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Backoff, backoffMs } from '../src/index.ts';

const schedule = { baseMs: 1000, maxMs: 30_000 };

/** A thousand waits before one attempt, each with a new draw. */
const draws = (attempt: number, backoff: Backoff) => Array.from({ length: 1000 }, () => backoffMs(attempt, backoff));

/** The shortest and the longest of a thousand waits before one attempt. */
function extremes(attempt: number, backoff: Backoff): [number, number] {
  const waits = draws(attempt, backoff);
  return [Math.min(...waits), Math.max(...waits)];
}

afterEach(() => vi.restoreAllMocks());

describe('without jitter', () => {
  const exact = { ...schedule, jitter: [1, 1] } as const;

  it('waits the base first, then twice as long at each attempt, up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => backoffMs(attempt, exact))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('counts an attempt below the first as the first, and stays at the cap however many attempts failed', () => {
    expect(backoffMs(0, exact)).toBe(1000);
    expect(backoffMs(-3, exact)).toBe(1000);
    expect(backoffMs(10_000, exact)).toBe(30_000);
    expect(backoffMs(10_000, { baseMs: 0, maxMs: 50, jitter: [1, 1] })).toBe(0);
  });
});

describe('with full jitter (the default)', () => {
  it('draws each wait from zero to the exponential one, never past the cap', () => {
    const [shortest, longest] = extremes(3, schedule);
    expect(shortest).toBeGreaterThanOrEqual(0);
    expect(longest).toBeLessThanOrEqual(4000);
    const [shortestCapped, longestCapped] = extremes(40, schedule);
    expect(shortestCapped).toBeGreaterThanOrEqual(0);
    expect(longestCapped).toBeLessThanOrEqual(30_000);
  });

  it('reaches both ends of the range and spreads across it', () => {
    vi.spyOn(Math, 'random').mockReturnValueOnce(0).mockReturnValueOnce(0.999_999);
    expect(backoffMs(3, schedule)).toBe(0);
    expect(backoffMs(3, schedule)).toBe(4000);
    vi.restoreAllMocks();
    expect(new Set(draws(3, schedule)).size).toBeGreaterThan(500);
  });

  it('waits in whole milliseconds', () => {
    expect(draws(2, { baseMs: 1, maxMs: 50 }).every(Number.isInteger)).toBe(true);
  });
});

describe('with a jitter range', () => {
  const spread = { ...schedule, jitter: [0.8, 1.2] } as const;

  it('draws each wait within the range around the exponential one, the cap included', () => {
    const [shortest, longest] = extremes(2, spread);
    expect(shortest).toBeGreaterThanOrEqual(1600);
    expect(longest).toBeLessThanOrEqual(2400);
    expect(longest - shortest).toBeGreaterThan(600);
    const [shortestCapped, longestCapped] = extremes(9, spread);
    expect(shortestCapped).toBeGreaterThanOrEqual(24_000);
    expect(longestCapped).toBeLessThanOrEqual(36_000);
  });
});
