import { describe, expect, it } from 'vitest';
import { CONTINUITY, modifiedWilson, normalTail, pairedComparison, pairedScore, pairedTest, pairsMultipleToSettle, passAtK, passHatK, SIGNIFICANCE, wilson, Z95 } from '../../src/report/stats.ts';
import { median, pairedMeanDifference, pairedMedianDifference, seededRandom } from '../../src/report/bootstrap.ts';

describe('wilson', () => {
  // Published values: Newcombe RG (1998), "Two-sided confidence intervals for the single
  // proportion: comparison of seven methods", Statistics in Medicine 17:857-872, Table I,
  // method 3 (score interval without continuity correction), to four decimals.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0.0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('matches Newcombe 1998 for %i of %i', (x, n, lower, upper) => {
    const interval = wilson(x, n);
    expect(interval.lower).toBeCloseTo(lower, 4);
    expect(interval.upper).toBeCloseTo(upper, 4);
  });

  it('is [0, 1] when nothing was observed', () => {
    expect(wilson(0, 0)).toEqual({ lower: 0, upper: 1 });
  });

  it('ends exactly at 1 when every run passed, and below it at the other side', () => {
    const interval = wilson(29, 29);
    expect(interval.upper).toBe(1);
    // Where the formula's centre plus half-width rounds to 1 - 2^-53.
    expect(wilson(10, 10).upper).toBe(1);
    // The mirror of 0 of 29, whose upper bound is z^2 / (n + z^2) = 3.841459 / 32.841459.
    expect(interval.lower).toBeCloseTo(1 - 0.1169698, 7);
  });

  it('starts exactly at 0 when none passed', () => {
    expect(wilson(0, 7).lower).toBe(0);
  });

  it('refuses counts that are not counts', () => {
    expect(() => wilson(3, 2)).toThrow(/^count must be a whole number from 0 to n = 2, got 3$/);
    expect(() => wilson(-1, 2)).toThrow(RangeError);
    expect(() => wilson(1.5, 2)).toThrow(/count must be a whole number from 0 to n = 2, got 1.5/);
    expect(() => wilson(1, 2.5)).toThrow(/^n must be a whole number >= 0, got 2.5$/);
    expect(() => wilson(0, -1)).toThrow(/n must be a whole number >= 0, got -1/);
  });
});

describe('modifiedWilson', () => {
  // Brown, Cai and DasGupta (2001), section 4.1.1: for x = 1..x* (x* = 2 up to n = 50, else 3)
  // the lower bound is g_x / n, g_x the Poisson mean with P(X >= x) = 5%: g1 = -ln 0.95 =
  // 0.0512933, g2 = 0.3553615 (solves e^-g (1 + g) = 0.95), g3 = 0.8176914; likewise the upper
  // bound for failures. Elsewhere it is the score interval.
  it('uses the Poisson bound for one or two successes up to n = 50', () => {
    expect(modifiedWilson(1, 29).lower).toBeCloseTo(0.0512933 / 29, 7);
    expect(modifiedWilson(1, 29).upper).toBeCloseTo(0.1718, 4); // Newcombe's score upper bound, unchanged
    expect(modifiedWilson(2, 11).lower).toBeCloseTo(0.3553615 / 11, 7);
    expect(modifiedWilson(3, 40)).toEqual(wilson(3, 40));
  });

  it('covers a 5% rate with 2 of 11, which the score interval misses', () => {
    // The grid cell where the plain interval's coverage is 89.8%: 2 of 11 is the commonest miss.
    expect(wilson(2, 11).lower).toBeCloseTo(0.0514, 4);
    expect(modifiedWilson(2, 11).lower).toBeLessThan(0.05);
  });

  it('widens the edge to three successes above n = 50', () => {
    expect(modifiedWilson(3, 60).lower).toBeCloseTo(0.8176914 / 60, 7);
    expect(modifiedWilson(4, 60)).toEqual(wilson(4, 60));
    expect(modifiedWilson(3, 50)).toEqual(wilson(3, 50));
  });

  it('mirrors at the top and leaves 0 and n alone', () => {
    expect(modifiedWilson(28, 29).upper).toBeCloseTo(1 - 0.0512933 / 29, 7);
    expect(modifiedWilson(28, 29).lower).toBeCloseTo(1 - 0.1718, 4);
    expect(modifiedWilson(57, 60).upper).toBeCloseTo(1 - 0.8176914 / 60, 7);
    expect(modifiedWilson(0, 29)).toEqual({ lower: 0, upper: wilson(0, 29).upper });
    expect(modifiedWilson(29, 29).upper).toBe(1);
    expect(modifiedWilson(0, 0)).toEqual({ lower: 0, upper: 1 });
  });
});

/**
 * An independent oracle for the score statistic: the constrained maximum of the multinomial
 * likelihood found numerically (golden-section search over pA-only = q), not by the closed
 * form; the continuity correction taken off the excess by hand.
 */
function scoreByHand(aOnly: number, bOnly: number, n: number, d: number, continuity: number): number {
  const logLik = (q: number): number => {
    const r = q + d;
    const rest = 1 - 2 * q - d;
    return (aOnly ? aOnly * Math.log(q) : 0) + (bOnly ? bOnly * Math.log(r) : 0) + (n - aOnly - bOnly ? (n - aOnly - bOnly) * Math.log(rest) : 0);
  };
  let lo = Math.max(0, -d) + 1e-15;
  let hi = (1 - d) / 2 - 1e-15;
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 200; i += 1) {
    const x1 = hi - phi * (hi - lo);
    const x2 = lo + phi * (hi - lo);
    if (logLik(x1) < logLik(x2)) lo = x1;
    else hi = x2;
  }
  const q = (lo + hi) / 2;
  const excess = bOnly - aOnly - n * d;
  return (Math.sign(excess) * Math.max(0, Math.abs(excess) - continuity)) / Math.sqrt(n * (2 * q + d - d * d));
}

/** P(Z > z) by Simpson's rule over the normal density: an oracle that shares nothing with the fit. */
function tailByHand(z: number): number {
  const steps = 2_000;
  const h = z / steps;
  const f = (x: number): number => Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
  let sum = f(0) + f(z);
  for (let i = 1; i < steps; i += 1) sum += (i % 2 === 1 ? 4 : 2) * f(i * h);
  return 0.5 - (sum * h) / 3;
}

describe('normalTail', () => {
  it.each([0, 0.3, 1, 1.5, Z95, 2.5, 3.3, 5])('is P(Z > %f) to 2e-7 of itself', (z) => {
    expect(Math.abs(normalTail(z) / tailByHand(z) - 1)).toBeLessThan(2e-7);
  });

  it('is 2.5% at the 95% quantile and nothing at infinity', () => {
    expect(normalTail(Z95)).toBeCloseTo(0.025, 8);
    expect(normalTail(Infinity)).toBe(0);
  });
});

describe('pairedScore', () => {
  it.each([
    [2, 8, 50, 0.05],
    [1, 0, 4, -0.3],
    [0, 3, 8, 0.1],
    [7, 1, 21, -0.5],
    [5, 15, 40, 0.4],
  ])('is the score statistic maximised by hand, less the continuity correction: %i against %i of %i at d = %f', (aOnly, bOnly, n, d) => {
    expect(pairedScore(aOnly, bOnly, n, d)).toBeCloseTo(scoreByHand(aOnly, bOnly, n, d, 1), 5);
    // Without the correction it is Tango's (1998) statistic.
    expect(pairedScore(aOnly, bOnly, n, d, 0)).toBeCloseTo(scoreByHand(aOnly, bOnly, n, d, 0), 5);
  });

  it('is McNemar\'s (|b - c| - 1) / sqrt(b + c) at no difference, whatever the concordant pairs', () => {
    expect(pairedScore(2, 10, 12, 0)).toBeCloseTo(7 / Math.sqrt(12), 12);
    expect(pairedScore(2, 10, 500, 0)).toBeCloseTo(7 / Math.sqrt(12), 12);
    expect(pairedScore(10, 2, 30, 0)).toBeCloseTo(-7 / Math.sqrt(12), 12);
    expect(CONTINUITY).toBe(1);
  });

  it('takes no more than the excess off: within one of it the statistic is 0', () => {
    // 1 against 0 at d = 0: excess -1, corrected to 0. At d = 0.1 over 4 pairs: -1.4, corrected to -0.4.
    expect(Math.abs(pairedScore(1, 0, 4, 0))).toBe(0);
    expect(pairedScore(1, 0, 4, 0.1)).toBeCloseTo(scoreByHand(1, 0, 4, 0.1, 1), 6);
    expect(pairedScore(1, 0, 4, 0.1)).toBeLessThan(0);
  });

  it('scores a difference with no spread under it as 0 when it fits the pairs exactly, else as infinitely far', () => {
    // No discordant pair at d = 0, or all n pairs for B at d = 1: q = 0 and the variance n (2q + d - d^2) is 0,
    // as is the excess bOnly - aOnly - n d.
    expect(pairedScore(0, 0, 10, 0)).toBe(0);
    expect(pairedScore(0, 6, 6, 1)).toBe(0);
    // 1 and 2 of 5 at d = 1: q = 0, excess 2 - 1 - 5 = -4; at d = -1: q = 1, excess 2 - 1 + 5 = 6.
    expect(pairedScore(1, 2, 5, 1)).toBe(-Infinity);
    expect(pairedScore(1, 2, 5, -1)).toBe(Infinity);
    // Within the correction of fitting: excess 0.5 at d = 1 is corrected to 0.
    expect(pairedScore(0, 6, 6.5, 1, 1)).toBe(0);
  });
});

describe('pairedTest', () => {
  // McNemar's test as R's mcnemar.test gives it (correct = TRUE): (|b - c| - 1)^2 / (b + c) against
  // chi-square with 1 degree of freedom, i.e. twice the normal tail beyond (|b - c| - 1) / sqrt(b + c).
  it.each([
    [1, 6, 4 / Math.sqrt(7)],
    [6, 1, 4 / Math.sqrt(7)],
    [0, 5, 4 / Math.sqrt(5)],
    [2, 10, 7 / Math.sqrt(12)],
    [5, 15, 9 / Math.sqrt(20)],
  ])('is McNemar\'s continuity-corrected p-value at no difference: %i against %i', (b, c, z) => {
    expect(pairedTest(b, c, 40, 0)).toBeCloseTo(2 * tailByHand(z), 7);
  });

  it('is 1 with no discordant pair, with one, and when the split is even', () => {
    expect(pairedTest(0, 0, 10, 0)).toBe(1);
    expect(pairedTest(0, 1, 10, 0)).toBe(1);
    expect(pairedTest(1, 0, 10, 0)).toBe(1);
    expect(pairedTest(3, 3, 10, 0)).toBe(1);
    // Two for B: (2 - 1) / sqrt 2 = 0.71, p = 0.48.
    expect(pairedTest(0, 2, 10, 0)).toBeCloseTo(2 * tailByHand(1 / Math.SQRT2), 7);
  });

  it('stays finite for thousands of pairs', () => {
    const p = pairedTest(900, 1100, 5_000, 0);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(0.001);
  });
});

describe('pairedComparison: one method behind p, the interval and the verdict', () => {
  it('estimates B minus A over all pairs', () => {
    expect(pairedComparison(2, 8, 50).estimate).toBeCloseTo(0.12, 12);
    expect(pairedComparison(2, 8, 50).p).toBe(pairedTest(2, 8, 50, 0));
  });

  it.each([
    [2, 8, 50],
    [1, 0, 4],
    [0, 3, 8],
    [7, 1, 21],
    [5, 15, 40],
    [0, 6, 6],
    [25, 42, 200],
    // An end far from 0 on the side the pairs went: the other end's search must not start at 0.
    [40, 0, 50],
    [0, 40, 50],
  ])('ends where the test stops keeping a difference: %i against %i of %i', (aOnly, bOnly, n) => {
    const d = pairedComparison(aOnly, bOnly, n);
    const kept = (x: number): boolean => pairedTest(aOnly, bOnly, n, x) >= SIGNIFICANCE;
    expect(kept(d.lower)).toBe(true);
    expect(kept(d.upper)).toBe(true);
    if (d.lower > -1) expect(kept(d.lower - 1e-9)).toBe(false);
    if (d.upper < 1) expect(kept(d.upper + 1e-9)).toBe(false);
    expect(d.lower).toBeLessThan(d.estimate);
    expect(d.upper).toBeGreaterThanOrEqual(d.estimate);
  });

  it('excludes 0 exactly when p < 0.05: every split of every n up to 60 pairs', () => {
    let checked = 0;
    let rejected = 0;
    for (let n = 1; n <= 60; n += 1) {
      for (let aOnly = 0; aOnly <= n; aOnly += 1) {
        for (let bOnly = 0; aOnly + bOnly <= n; bOnly += 1) {
          const d = pairedComparison(aOnly, bOnly, n);
          const excludes = d.lower > 0 || d.upper < 0;
          if (excludes !== d.p < SIGNIFICANCE) throw new Error(`${aOnly} against ${bOnly} of ${n}: p = ${d.p}, interval ${d.lower} to ${d.upper}`);
          // And it excludes 0 on the side the pairs went.
          if (excludes && (d.lower > 0) !== bOnly > aOnly) throw new Error(`${aOnly} against ${bOnly} of ${n}: wrong side`);
          checked += 1;
          if (excludes) rejected += 1;
        }
      }
    }
    // 39,710 splits, and not vacuous: a good share of them is a difference.
    expect(checked).toBe(39_710);
    expect(rejected).toBeGreaterThan(10_000);
  });

  it('never has p exactly 0.05: every b and c up to 300 discordant pairs', () => {
    // p = 0.05 needs (|b - c| - 1)^2 / (b + c) to be z^2 = 3.8414588..., which no split reaches:
    // the nearest, 29 against 15, has p = 0.0500164. So p < 0.05 and p <= 0.05 decide alike.
    let nearest = 1;
    for (let m = 1; m <= 300; m += 1) {
      for (let c = 0; c <= m; c += 1) nearest = Math.min(nearest, Math.abs(pairedTest(m - c, c, m, 0) - SIGNIFICANCE));
    }
    expect(nearest).toBeCloseTo(0.0000164, 7);
  });

  it('is symmetric about 0 with no discordant pair', () => {
    // Above 1/n the statistic is -(n d - 1) / sqrt(n d (1 - d)), so the upper end solves
    // (n d - 1)^2 = z^2 n d (1 - d): for n = 10, 138.414588 d^2 - 58.414588 d + 1 = 0.
    const d = pairedComparison(0, 0, 10);
    expect({ estimate: d.estimate, p: d.p }).toEqual({ estimate: 0, p: 1 });
    expect(d.upper).toBeCloseTo(0.4041500, 6);
    expect(d.lower).toBeCloseTo(-0.4041500, 6);
  });

  it('keeps 0 with one discordant pair, and from 6 of 6 for B it is clear of it', () => {
    expect(pairedComparison(0, 1, 10)).toMatchObject({ p: 1 });
    expect(pairedComparison(0, 1, 10).lower).toBeLessThan(0);
    // 5 of 5: (5 - 1) / sqrt 5 = 1.79, p = 0.074; 6 of 6: 5 / sqrt 6 = 2.04, p = 0.041.
    const five = pairedComparison(0, 5, 5);
    expect(five.p).toBeCloseTo(2 * tailByHand(4 / Math.sqrt(5)), 7);
    expect(five.lower).toBeLessThan(0);
    const six = pairedComparison(0, 6, 6);
    expect(six.p).toBeCloseTo(2 * tailByHand(5 / Math.sqrt(6)), 7);
    expect(six.lower).toBeGreaterThan(0);
    expect(six.lower).toBeCloseTo(0.0336341, 6);
  });

  it('ends at -1 or 1 when every pair went one way', () => {
    expect(pairedComparison(0, 6, 6).upper).toBe(1);
    expect(pairedComparison(6, 0, 6).lower).toBe(-1);
    expect(pairedComparison(6, 0, 6).upper).toBeCloseTo(-0.0336341, 6);
  });

  it('is symmetric when the arms swap', () => {
    const ab = pairedComparison(2, 8, 50);
    const ba = pairedComparison(8, 2, 50);
    expect(ba.estimate).toBeCloseTo(-ab.estimate, 12);
    expect(ba.lower).toBeCloseTo(-ab.upper, 12);
    expect(ba.upper).toBeCloseTo(-ab.lower, 12);
    expect(ba.p).toBe(ab.p);
  });

  it('narrows as the pairs grow at the same rates', () => {
    const small = pairedComparison(2, 8, 50);
    const large = pairedComparison(20, 80, 500);
    expect(large.upper - large.lower).toBeLessThan((small.upper - small.lower) / 2);
  });

  it('says nothing is known with no pairs', () => {
    expect(pairedComparison(0, 0, 0)).toEqual({ estimate: 0, lower: -1, upper: 1, p: 1 });
  });

  it('refuses more discordant pairs than pairs', () => {
    expect(() => pairedComparison(6, 3, 8)).toThrow(/count must be a whole number from 0 to n = 8, got 9/);
  });
});

describe('pairsMultipleToSettle', () => {
  it('is undefined when there is no difference', () => {
    expect(pairsMultipleToSettle(3, 3, 40)).toBeUndefined();
    expect(pairsMultipleToSettle(0, 0, 0)).toBeUndefined();
  });

  it('asks for more pairs the smaller the difference', () => {
    const big = pairsMultipleToSettle(1, 9, 40)!;
    const small = pairsMultipleToSettle(4, 6, 40)!;
    expect(small).toBeGreaterThan(big);
    expect(pairsMultipleToSettle(0, 20, 40)!).toBeLessThan(1); // 0 vs 20 of 40 is settled already
  });
});

describe('pass@k and pass^k', () => {
  it('pass@1 is the pass rate and pass^1 too', () => {
    expect(passAtK(3, 10, 1)).toBeCloseTo(0.3, 12);
    expect(passHatK(3, 10, 1)).toBeCloseTo(0.3, 12);
  });

  it('matches the combinatorial definitions', () => {
    // 1 - C(7,5)/C(10,5) = 1 - 21/252; C(3,2)/C(10,2) = 3/45.
    expect(passAtK(3, 10, 5)).toBeCloseTo(1 - 21 / 252, 12);
    expect(passHatK(3, 10, 2)).toBeCloseTo(3 / 45, 12);
  });

  it('is certain once fewer failures than draws remain', () => {
    expect(passAtK(8, 10, 3)).toBe(1);
    // As many failures as draws: 1 - C(3,3)/C(10,3).
    expect(passAtK(7, 10, 3)).toBeCloseTo(1 - 1 / 120, 12);
  });

  it('handles none and all passing', () => {
    expect(passAtK(0, 10, 3)).toBe(0);
    expect(passHatK(10, 10, 10)).toBe(1);
    expect(passHatK(2, 10, 3)).toBe(0);
  });

  it('refuses k outside 1..n', () => {
    expect(() => passAtK(1, 5, 0)).toThrow(/k must be an integer from 1 to n = 5/);
    expect(() => passHatK(1, 5, 6)).toThrow(RangeError);
    expect(() => passAtK(1, 5, 1.5)).toThrow(/k must be an integer from 1 to n = 5, got 1.5/);
  });
});

describe('seededRandom', () => {
  it('is mulberry32: the published first draws for seed 1, and those of seed 42', () => {
    const one = seededRandom(1);
    expect(one()).toBe(0.6270739405881613);
    expect(one()).toBe(0.002735721180215478);
    const r = seededRandom(42);
    expect([r(), r(), r()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  });
});

describe('paired median difference', () => {
  it('takes the median of the per-pair differences', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    const d = pairedMedianDifference([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [3, 3, 5, 6, 6, 8, 8, 9, 12, 12], 7);
    expect(d.estimate).toBe(2);
    expect(d.lower).toBeLessThanOrEqual(2);
    expect(d.upper).toBeGreaterThanOrEqual(2);
    expect(d.pairs).toBe(10);
  });

  it('gives the same interval for the same seed and may differ for another', () => {
    const a = [5, 1, 7, 3, 9, 2, 8, 4, 6, 0, 11, 13];
    const b = [1, 4, 2, 8, 5, 7, 3, 9, 0, 6, 2, 3];
    // Values from an independent implementation (mulberry32, resampling and the 2.5th/97.5th
    // percentile positions 49 and 1950 of 2,000, written again from their definitions).
    expect(pairedMedianDifference(a, b, 42)).toEqual({ estimate: -4, lower: -5.5, upper: 5, pairs: 12 });
    expect(seededRandom(1)()).not.toBe(seededRandom(2)());
  });

  it('is a point when every pair differs by the same amount', () => {
    const d = pairedMedianDifference([1, 2, 3], [4, 5, 6]);
    expect(d).toEqual({ estimate: 3, lower: 3, upper: 3, pairs: 3 });
  });

  it('refuses samples of different lengths and reports nothing for none', () => {
    expect(() => pairedMedianDifference([1], [1, 2])).toThrow(/differ in length/);
    expect(pairedMedianDifference([], []).pairs).toBe(0);
  });
});

describe('paired mean difference', () => {
  it('takes the mean of the per-pair differences, where the median of a sparse count says 0', () => {
    // Dead calls in 4 passes of 10, none under B: the median difference is 0, the mean -1.2.
    const a = [3, 3, 3, 3, 0, 0, 0, 0, 0, 0];
    const b = a.map(() => 0);
    expect(pairedMedianDifference(a, b).estimate).toBe(0);
    const d = pairedMeanDifference(a, b, 3);
    expect(d.estimate).toBeCloseTo(-1.2, 12);
    expect(d.lower).toBeLessThan(-1.2);
    // A resample without any of the four has chance 0.6^10 = 0.6%: below the 2.5% tail.
    expect(d.upper).toBeLessThan(0);
    expect(d.upper).toBeGreaterThan(-1.2);
  });

  it('gives the same interval for the same seed and a point when every pair differs alike', () => {
    const a = [5, 1, 7, 3, 9, 2];
    const b = [1, 4, 2, 8, 5, 7];
    expect(pairedMeanDifference(a, b, 42)).toEqual({ estimate: 0, lower: -19 / 6, upper: 3.5, pairs: 6 }); // as above
    expect(pairedMeanDifference([1, 2, 3], [3, 4, 5])).toEqual({ estimate: 2, lower: 2, upper: 2, pairs: 3 });
  });

  it('refuses samples of different lengths and reports nothing for none', () => {
    expect(() => pairedMeanDifference([1], [])).toThrow(/differ in length/);
    expect(pairedMeanDifference([], [])).toMatchObject({ pairs: 0, estimate: Number.NaN });
    // No resample has a figure either: the ends are NaN, as the estimate is.
    expect(pairedMeanDifference([], [])).toEqual({ pairs: 0, estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN });
  });
});
