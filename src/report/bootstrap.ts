// Paired differences of counts and times (dead calls, tokens, seconds): the median of the
// per-pair differences with a percentile bootstrap interval. Seeded, so a report computed
// twice from the same run prints the same interval.

export interface MedianDifference {
  /** Median of (b - a) over the pairs. */
  estimate: number;
  lower: number;
  upper: number;
  pairs: number;
}

export const BOOTSTRAP_RESAMPLES = 2_000; // enough for stable 2.5/97.5 percentiles; ~1 ms per 100 pairs

/** A small, fast, well-mixed 32-bit PRNG (mulberry32); quality is ample for resampling. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** NaN for none: the two middle values are missing, and their mean is NaN, as the mean of none is. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function pairedMedianDifference(
  a: readonly number[],
  b: readonly number[],
  seed = 1,
  resamples = BOOTSTRAP_RESAMPLES,
): MedianDifference {
  return pairedBootstrap(a, b, median, seed, resamples);
}

export interface MeanDifference {
  /** Mean of (b - a) over the pairs. */
  estimate: number;
  lower: number;
  upper: number;
  pairs: number;
}

/**
 * The mean of the per-pair differences with a seeded percentile bootstrap interval. For sparse
 * counts (dead calls that happen in one rung of nine) the median difference is 0 whatever an
 * arm does, while the mean still carries the change; times, skewed by a few slow steps, keep
 * the median.
 */
export function pairedMeanDifference(
  a: readonly number[],
  b: readonly number[],
  seed = 1,
  resamples = BOOTSTRAP_RESAMPLES,
): MeanDifference {
  return pairedBootstrap(a, b, mean, seed, resamples);
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/**
 * A statistic of the per-pair differences (b - a) with a seeded percentile bootstrap interval
 * (resample, below).
 */
function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  statistic: (values: readonly number[]) => number,
  seed: number,
  resamples: number,
): MedianDifference {
  if (a.length !== b.length) throw new RangeError(`paired samples differ in length: ${a.length} and ${b.length}`);
  const diffs = a.map((value, i) => b[i]! - value);
  const { lower, upper } = resample(diffs.length, (pick) => statistic(diffs.map((_, i) => diffs[pick(i)]!)), seed, resamples);
  return { estimate: statistic(diffs), lower, upper, pairs: diffs.length };
}

/**
 * The one bootstrap core: `resamples` times, n pairs are drawn with replacement (one draw per
 * pair, in order, from the seeded generator) and the statistic is taken over them, `pick(i)`
 * being the pair drawn i-th; the 2.5th and 97.5th percentiles of the statistics that are
 * numbers are the interval. A statistic that is NaN in a resample (a side with nothing to
 * divide by) is left out, and counted; with none left, or no pairs, the ends are NaN.
 */
function resample(
  n: number,
  statistic: (pick: (i: number) => number) => number,
  seed: number,
  resamples: number,
): { lower: number; upper: number; kept: number } {
  const random = seededRandom(seed);
  // Each resample draws n pairs with replacement; with no pairs every figure is NaN.
  const estimates: number[] = [];
  for (let r = 0; r < resamples; r += 1) {
    const picks = Array.from({ length: n }, () => Math.floor(random() * n));
    const value = statistic((i) => picks[i]!);
    if (!Number.isNaN(value)) estimates.push(value);
  }
  estimates.sort((x, y) => x - y);
  const kept = estimates.length;
  if (kept === 0) return { lower: Number.NaN, upper: Number.NaN, kept };
  return { lower: estimates[Math.floor(0.025 * (kept - 1))]!, upper: estimates[Math.ceil(0.975 * (kept - 1))]!, kept };
}

export interface RatioDifference extends MeanDifference {
  /** Resamples left out of the interval because a side had nothing to divide by in them. */
  undefinedResamples: number;
}

/**
 * The difference of two ratios of sums over paired units, B minus A: (sum bNum / sum bDen) -
 * (sum aNum / sum aDen), e.g. dollars per passed step, with a seeded percentile bootstrap over
 * the pairs. A ratio of sums, not a mean of per-pair ratios: a pass with no passed step has no
 * cost per passed step of its own, but its cost still counts. Resamples in which a side's
 * denominator is 0 are left out of the percentiles, and counted.
 */
export function pairedRatioDifference(
  a: { num: readonly number[]; den: readonly number[] },
  b: { num: readonly number[]; den: readonly number[] },
  seed = 1,
  resamples = BOOTSTRAP_RESAMPLES,
): RatioDifference {
  const n = a.num.length;
  if ([a.den.length, b.num.length, b.den.length].some((length) => length !== n)) {
    throw new RangeError(`paired samples differ in length: ${n}, ${a.den.length}, ${b.num.length} and ${b.den.length}`);
  }
  const ratio = (num: readonly number[], den: readonly number[], pick: (i: number) => number): number => {
    let top = 0;
    let bottom = 0;
    for (let i = 0; i < n; i += 1) {
      top += num[pick(i)]!;
      bottom += den[pick(i)]!;
    }
    return bottom === 0 ? Number.NaN : top / bottom;
  };
  const same = (i: number): number => i;
  const estimate = ratio(b.num, b.den, same) - ratio(a.num, a.den, same);
  // NaN with no pairs too (0 / 0).
  if (Number.isNaN(estimate)) return { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN, pairs: n, undefinedResamples: 0 };
  const { lower, upper, kept } = resample(n, (pick) => ratio(b.num, b.den, pick) - ratio(a.num, a.den, pick), seed, resamples);
  return { estimate, lower, upper, pairs: n, undefinedResamples: resamples - kept };
}
