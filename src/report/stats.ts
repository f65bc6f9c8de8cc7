// The statistics a comparison rests on. Pure functions over counts; every interval is 95%.

/** Two-sided 95% normal quantile. */
export const Z95 = 1.959963984540054;

export interface Interval {
  lower: number;
  upper: number;
}

/**
 * Wilson score interval for a proportion (Wilson 1927). Chosen over the Wald interval because
 * it stays inside [0, 1] and keeps its coverage at the small n and extreme rates that agent
 * benchmarks produce (all passes, none). With n = 0 nothing is known: [0, 1].
 */
export function wilson(successes: number, n: number, z = Z95): Interval {
  checkCounts(successes, n);
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At p = 0 or 1 the bound is exactly 0 or 1; rounding must not move it off. With n = 0 both
  // hold (0 of 0), which is the whole of [0, 1].
  return {
    lower: successes === 0 ? 0 : Math.max(0, centre - half),
    upper: successes === n ? 1 : Math.min(1, centre + half),
  };
}

/**
 * Poisson lower bounds used near the edges: for x = 1, 2, 3 successes, the mean g at which
 * P(Poisson(g) >= x) = 5%, i.e. half the 5th percentile of chi-square with 2x degrees of freedom
 * (0.1026, 0.7107, 1.6354 in any chi-square table).
 */
const POISSON_LOWER = [0, 0.051293294, 0.355361511, 0.817691447] as const;

/**
 * The Wilson interval with Brown, Cai and DasGupta's (2001, section 4.1.1) correction at the
 * edges: for 1 <= x <= x* successes (x* = 2 up to n = 50, else 3) the lower bound is the Poisson
 * bound g_x / n, and likewise the upper bound for x failures. The plain score interval's lower
 * bound sits too high just above 0: at a true rate of 5% over 11 step-runs it covers 89.8% of
 * the time; this one keeps every cell of the grid in docs/report.md above 91%.
 */
export function modifiedWilson(successes: number, n: number): Interval {
  const interval = wilson(successes, n);
  const edge = n <= 50 ? 2 : 3;
  const failures = n - successes;
  return {
    lower: successes >= 1 && successes <= edge ? POISSON_LOWER[successes]! / n : interval.lower,
    upper: failures >= 1 && failures <= edge ? 1 - POISSON_LOWER[failures]! / n : interval.upper,
  };
}

/** The level of every test and interval here: an interval is 95% and a test rejects below 5%. */
export const SIGNIFICANCE = 0.05;

/**
 * McNemar's continuity correction, on the excess bOnly - aOnly - n d: one pair changing sides
 * moves bOnly - aOnly by 2, so half a step, 1, comes off the excess (Edwards 1948). It is what
 * keeps the test's size at or under 5%: without it the test rejects equal arms up to 7.8% of the
 * time on the grid of docs/report.md, with half of it (0.5) up to 5.8%.
 */
export const CONTINUITY = 1;

/**
 * The score statistic for "B minus A is d" over n pairs (Tango 1998), continuity-corrected:
 * the excess of bOnly - aOnly over n d, less the correction, over its standard error at the
 * likelihood's best cells under d. Those are pA-only = q, pB-only = q + d, where q is the
 * positive root of 2n q^2 - [aOnly (1 - 3d) + bOnly (1 - d) - 2 (n - aOnly - bOnly) d] q -
 * aOnly d (1 - d) = 0. At d = 0 it is McNemar's (|bOnly - aOnly| - 1) / sqrt(aOnly + bOnly).
 */
export function pairedScore(aOnly: number, bOnly: number, n: number, d: number, continuity = CONTINUITY): number {
  const concordant = n - aOnly - bOnly;
  const b = aOnly * (1 - 3 * d) + bOnly * (1 - d) - 2 * concordant * d;
  const q = (b + Math.sqrt(Math.max(0, b * b + 8 * n * aOnly * d * (1 - d)))) / (4 * n);
  const variance = n * (2 * q + d - d * d);
  const excess = bOnly - aOnly - n * d;
  const corrected = Math.sign(excess) * Math.max(0, Math.abs(excess) - continuity);
  if (variance <= 0) return corrected === 0 ? 0 : corrected > 0 ? Infinity : -Infinity;
  return corrected / Math.sqrt(variance);
}

/** Two-sided p-value of "B minus A is d": twice the normal tail beyond the score statistic, at most 1. */
export function pairedTest(aOnly: number, bOnly: number, n: number, d: number): number {
  return Math.min(1, 2 * normalTail(Math.abs(pairedScore(aOnly, bOnly, n, d))));
}

/**
 * P(Z > z) for a standard normal Z and z >= 0: half of erfc(z / sqrt 2), by the Chebyshev fit of
 * Press et al. (Numerical Recipes, erfcc), whose relative error is under 1.2e-7 everywhere: far
 * below the digits a p-value is printed with.
 */
export function normalTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return (t * Math.exp(-x * x + poly)) / 2;
}

export interface PairedComparison extends Interval {
  /** B minus A over all pairs: (bOnly - aOnly) / n. */
  estimate: number;
  /** The test of no difference: McNemar's, continuity-corrected. */
  p: number;
}

/**
 * The paired difference of two pass rates, B minus A, with one method behind the p-value and
 * the interval: p is the test of d = 0 (pairedTest), and the interval is every d the same test
 * does not reject at 5%. Over n pairs, `bOnly` passed only under B and `aOnly` only under A.
 * So "the interval excludes 0" and "p < 0.05" are one statement, and the code makes it so:
 * each end is searched for on the side of 0 that the test at 0 puts it.
 */
export function pairedComparison(aOnly: number, bOnly: number, n: number): PairedComparison {
  checkCounts(aOnly + bOnly, n);
  if (n === 0) return { estimate: 0, lower: -1, upper: 1, p: 1 };
  const estimate = (bOnly - aOnly) / n;
  const p = pairedTest(aOnly, bOnly, n, 0);
  const zeroRejected = p < SIGNIFICANCE;
  // The statistic falls as d rises and is 0 at the estimate, so between a d the test rejects and
  // one it keeps there is one crossing; the end returned is the kept side of it. When every
  // pair went one way the end is the end itself: between -1 and -1 it is -1.
  const end = (rejected: number, kept: number): number => {
    let out = rejected;
    let inside = kept;
    for (let i = 0; i < BISECTIONS; i += 1) {
      const mid = (out + inside) / 2;
      if (pairedTest(aOnly, bOnly, n, mid) < SIGNIFICANCE) out = mid;
      else inside = mid;
    }
    return inside;
  };
  return {
    estimate,
    lower: estimate > 0 && zeroRejected ? end(0, estimate) : end(-1, Math.min(0, estimate)),
    upper: estimate < 0 && zeroRejected ? end(0, estimate) : end(1, Math.max(0, estimate)),
    p,
  };
}

/** 2^-60 of the unit interval: far below the report's two decimals, and cheap. */
const BISECTIONS = 60;

/**
 * How many times the current number of pairs would make a paired difference of this size
 * significant at 5% with 80% power (normal approximation to McNemar, Connor 1987), given
 * the observed share of discordant pairs. Undefined when there is no difference to detect.
 */
export function pairsMultipleToSettle(aOnly: number, bOnly: number, n: number): number | undefined {
  if (aOnly === bOnly) return undefined; // with no pairs too: both are 0
  const discordant = (aOnly + bOnly) / n;
  const difference = Math.abs(bOnly - aOnly) / n;
  const zPower = 0.8416212335729143; // one-sided 80% power
  const needed =
    (Z95 * Math.sqrt(discordant) + zPower * Math.sqrt(discordant - difference * difference)) ** 2 /
    (difference * difference);
  return needed / n;
}

/** Unbiased pass@k for one rung with c passes of n (Chen et al. 2021): 1 - C(n-c,k)/C(n,k). */
export function passAtK(c: number, n: number, k: number): number {
  checkK(c, n, k);
  // C(n-c,k)/C(n,k) as a running product: no factorial ever overflows. With fewer than k
  // failures a factor is 0, and pass@k is 1.
  let ratio = 1;
  for (let i = 0; i < k; i += 1) ratio *= (n - c - i) / (n - i);
  return 1 - ratio;
}

/** pass^k for one rung: the chance that k draws without replacement all pass, C(c,k)/C(n,k). */
export function passHatK(c: number, n: number, k: number): number {
  checkK(c, n, k);
  let ratio = 1;
  for (let i = 0; i < k; i += 1) ratio *= (c - i) / (n - i);
  return Math.max(0, ratio);
}

function checkK(c: number, n: number, k: number): void {
  checkCounts(c, n);
  if (!Number.isInteger(k) || k < 1 || k > n) throw new RangeError(`k must be an integer from 1 to n = ${n}, got ${k}`);
}

function checkCounts(successes: number, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a whole number >= 0, got ${n}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`count must be a whole number from 0 to n = ${n}, got ${successes}`);
  }
}
