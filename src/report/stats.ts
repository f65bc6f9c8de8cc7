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

/**
 * Exact (binomial) McNemar test, two-sided: of the discordant pairs, `b` went one way and `c`
 * the other; under no difference each is Binomial(b + c, 1/2). With no discordant pairs there
 * is no evidence either way: p = 1 (2 P(X <= 0) = 2 for X ~ Bin(0, 1/2), capped at 1).
 */
export function mcnemarExact(b: number, c: number): number {
  checkCounts(0, b);
  checkCounts(0, c);
  const n = b + c;
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i += 1) tail += binomialPmfHalf(n, i);
  return Math.min(1, 2 * tail);
}

/** P(X = i) for X ~ Binomial(n, 1/2), in log space so n in the thousands does not overflow. */
function binomialPmfHalf(n: number, i: number): number {
  return Math.exp(logChoose(n, i) - n * Math.LN2);
}

function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let j = 1; j <= k; j += 1) sum += Math.log((n - k + j) / j);
  return sum;
}

/**
 * Difference of paired proportions (B minus A) with Tango's (1998) score interval: every
 * difference d whose score statistic, (bOnly - aOnly - n d) over its standard error at the
 * likelihood's best cells under d, stays within +-z. Over n pairs, `bOnly` passed only under B
 * and `aOnly` only under A. Chosen by exact coverage over a grid of rates and correlations
 * (docs/report.md, "The statistics, checked"): the Agresti-Min interval used before fell to 86%
 * at 18 pairs with strongly correlated arms; this one stays above 93% at every cell.
 */
export function pairedDifference(aOnly: number, bOnly: number, n: number): Interval & { estimate: number } {
  checkCounts(aOnly + bOnly, n);
  if (n === 0) return { estimate: 0, lower: -1, upper: 1 };
  const estimate = (bOnly - aOnly) / n;
  // The statistic falls as d rises, so each bound is where it crosses +-z on its side of the estimate.
  const crossing = (below: number, above: number, level: number): number => {
    let lo = below;
    let hi = above;
    for (let i = 0; i < BISECTIONS; i += 1) {
      const mid = (lo + hi) / 2;
      if (tangoScore(aOnly, bOnly, n, mid) > level) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  // When every pair went one way the bound is the end itself: a crossing between -1 and -1 is -1.
  return { estimate, lower: crossing(-1, estimate, Z95), upper: crossing(estimate, 1, -Z95) };
}

/** 2^-60 of the unit interval: far below the report's two decimals, and cheap. */
const BISECTIONS = 60;

/**
 * Tango's score statistic for a difference d = pB - pA over n pairs. Under d the likelihood is
 * best at pA-only = q, pB-only = q + d, where q is the positive root of
 * 2n q^2 - [aOnly (1 - 3d) + bOnly (1 - d) - 2 (n - aOnly - bOnly) d] q - aOnly d (1 - d) = 0.
 */
export function tangoScore(aOnly: number, bOnly: number, n: number, d: number): number {
  const concordant = n - aOnly - bOnly;
  const b = aOnly * (1 - 3 * d) + bOnly * (1 - d) - 2 * concordant * d;
  const q = (b + Math.sqrt(Math.max(0, b * b + 8 * n * aOnly * d * (1 - d)))) / (4 * n);
  const variance = n * (2 * q + d - d * d);
  const excess = bOnly - aOnly - n * d;
  if (variance <= 0) return excess === 0 ? 0 : excess > 0 ? Infinity : -Infinity;
  return excess / Math.sqrt(variance);
}

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
