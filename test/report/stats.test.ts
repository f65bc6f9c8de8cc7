import { describe, expect, it } from 'vitest';
import { mcnemarExact, modifiedWilson, pairedDifference, pairsMultipleToSettle, passAtK, passHatK, tangoScore, wilson, Z95 } from '../../src/report/stats.ts';
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

describe('mcnemarExact', () => {
  // Exact two-sided binomial p-values, 2 * P(X <= min(b, c)) for X ~ Bin(b + c, 1/2), worked by
  // hand and matching R's binom.test(min, b + c)$p.value: 1 of 7 -> 2 * 8/128 = 0.125;
  // 0 of 5 -> 2/32 = 0.0625; 2 of 12 -> 2 * 79/4096 = 0.038574; 5 of 20 -> 0.041389.
  it.each([
    [1, 6, 0.125],
    [6, 1, 0.125],
    [0, 5, 0.0625],
    [2, 10, 0.0385742],
    [5, 15, 0.0413895],
  ])('gives the exact p-value for %i against %i', (b, c, p) => {
    expect(mcnemarExact(b, c)).toBeCloseTo(p, 6);
  });

  it('is 1 with no discordant pairs', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
  });

  it('is capped at 1 when the split is even', () => {
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(0, 1)).toBe(1);
  });

  it('stays finite for thousands of pairs', () => {
    const p = mcnemarExact(900, 1100);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(0.001);
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
 * An independent oracle for Tango's statistic: the constrained maximum of the multinomial
 * likelihood found numerically (golden-section search over pA-only = q), not by the closed form.
 */
function scoreByHand(aOnly: number, bOnly: number, n: number, d: number): number {
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
  return (bOnly - aOnly - n * d) / Math.sqrt(n * (2 * q + d - d * d));
}

describe('pairedDifference (Tango score interval)', () => {
  it('estimates B minus A over all pairs', () => {
    expect(pairedDifference(2, 8, 50).estimate).toBeCloseTo(0.12, 12);
  });

  it.each([
    [2, 8, 50],
    [1, 0, 4],
    [0, 3, 8],
    [7, 1, 21],
    [5, 15, 40],
  ])('puts each bound where the score statistic, maximised by hand, is -+z: %i against %i of %i', (aOnly, bOnly, n) => {
    const d = pairedDifference(aOnly, bOnly, n);
    expect(scoreByHand(aOnly, bOnly, n, d.lower)).toBeCloseTo(Z95, 5);
    expect(scoreByHand(aOnly, bOnly, n, d.upper)).toBeCloseTo(-Z95, 5);
    expect(tangoScore(aOnly, bOnly, n, d.lower)).toBeCloseTo(Z95, 8);
    expect(d.lower).toBeLessThan(d.estimate);
    expect(d.upper).toBeGreaterThan(d.estimate);
  });

  it('is +-z^2 / (n + z^2) with no discordant pair', () => {
    // With no discordant pair the statistic at d > 0 is -sqrt(n d / (1 - d)): it is -z at
    // d = z^2 / (n + z^2) = 3.841459 / 13.841459 for n = 10.
    const d = pairedDifference(0, 0, 10);
    expect(d.estimate).toBe(0);
    expect(d.upper).toBeCloseTo(0.2775327, 6);
    expect(d.lower).toBeCloseTo(-0.2775327, 6);
  });

  it('ends at -1 or 1 when every pair went one way', () => {
    expect(pairedDifference(0, 6, 6).upper).toBe(1);
    expect(pairedDifference(6, 0, 6).lower).toBe(-1);
    // All n pairs discordant for B: the statistic is sqrt(n (1 - d) / (1 + d)), which is z at
    // d = (n - z^2) / (n + z^2) = 2.158541 / 9.841459 for n = 6.
    expect(pairedDifference(0, 6, 6).lower).toBeCloseTo(0.2193314, 6);
  });

  it('is symmetric when the arms swap', () => {
    const ab = pairedDifference(2, 8, 50);
    const ba = pairedDifference(8, 2, 50);
    expect(ba.estimate).toBeCloseTo(-ab.estimate, 12);
    expect(ba.lower).toBeCloseTo(-ab.upper, 12);
    expect(ba.upper).toBeCloseTo(-ab.lower, 12);
  });

  it('narrows as the pairs grow at the same rates', () => {
    const small = pairedDifference(2, 8, 50);
    const large = pairedDifference(20, 80, 500);
    expect(large.upper - large.lower).toBeLessThan((small.upper - small.lower) / 2);
  });

  it('says nothing is known with no pairs', () => {
    expect(pairedDifference(0, 0, 0)).toEqual({ estimate: 0, lower: -1, upper: 1 });
  });

  it('refuses more discordant pairs than pairs', () => {
    expect(() => pairedDifference(6, 3, 8)).toThrow(/count must be a whole number from 0 to n = 8, got 9/);
  });

  it('scores a difference with no spread under it as 0 when it fits the pairs exactly, else as infinitely far', () => {
    // No discordant pair at d = 0, or all n pairs for B at d = 1: q = 0 and the variance n (2q + d - d^2) is 0,
    // as is the excess bOnly - aOnly - n d.
    expect(tangoScore(0, 0, 10, 0)).toBe(0);
    expect(tangoScore(0, 6, 6, 1)).toBe(0);
    // 1 and 2 of 5 at d = 1: q = 0, excess 2 - 1 - 5 = -4; at d = -1: q = 1, excess 2 - 1 + 5 = 6.
    expect(tangoScore(1, 2, 5, 1)).toBe(-Infinity);
    expect(tangoScore(1, 2, 5, -1)).toBe(Infinity);
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
  });
});
