/** z for a two-sided 95 % interval. */
const z95 = 1.959963984540054;

/**
 * The Wilson score interval of a proportion of `successes` in `trials` at 95 %. Unlike the normal approximation it
 * stays within 0..1 and says something honest about small samples and rates near 0 or 1, which reviews often are.
 */
export function wilsonInterval(successes: number, trials: number): { low: number; high: number } {
  if (trials === 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z95 * z95;
  const denominator = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denominator;
  const half = (z95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}
