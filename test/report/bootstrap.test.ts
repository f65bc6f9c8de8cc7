// The seeded percentile bootstraps of src/report/bootstrap.ts at the exact positions of their
// percentiles, and the ratio of sums with its left-out resamples. Values marked "independent"
// come from a separate implementation (mulberry32, resampling with replacement, the sorted
// statistics' positions floor(0.025 (R - 1)) and ceil(0.975 (R - 1)), R = 2,000), written again
// from those definitions; their data are chosen so that the neighbours of each position differ.
import { describe, expect, it } from 'vitest';
import { pairedMeanDifference, pairedRatioDifference } from '../../src/report/bootstrap.ts';

describe('the percentile positions', () => {
  it('takes the 50th and 1,951st of 2,000 sorted resample means (independent)', () => {
    const a = [0.13, 1.71, 2.29, 3.57, 4.91, 5.03, 6.47, 7.89, 8.11, 9.37, 10.59];
    const b = [1.02, 1.33, 3.86, 3.1, 6.77, 5.51, 8.93, 7.44, 9.05, 9.96, 12.21];
    // Their neighbours: 0.2554545454545456 and 0.25909090909090965 below; 1.3745454545454547 and
    // 1.3790909090909091 above.
    expect(pairedMeanDifference(a, b, 5)).toEqual({ estimate: 0.8281818181818185, lower: 0.2554545454545458, upper: 1.375454545454546, pairs: 11 });
  });
});

describe('pairedRatioDifference', () => {
  it('is the difference of the ratios of sums, not of the means of per-pair ratios', () => {
    // A: 4 / 2 = 2; B: 10 / 4 = 2.5 (its per-pair ratios, 1 and 3, average 2).
    expect(pairedRatioDifference({ num: [1, 3], den: [1, 1] }, { num: [1, 9], den: [1, 3] }).estimate).toBe(0.5);
  });

  it('is a point when every pair has the same ratio on each side', () => {
    // A's pairs are 2 per unit, B's 3: every resample's difference is 1.
    expect(pairedRatioDifference({ num: [2, 4, 1], den: [1, 2, 0.5] }, { num: [3, 6, 1.5], den: [1, 2, 0.5] }))
      .toEqual({ estimate: 1, lower: 1, upper: 1, pairs: 3, undefinedResamples: 0 });
  });

  it('leaves out the resamples where a side has nothing to divide by, and counts them', () => {
    // A's second pair has nothing to divide by: a resample of it alone (chance 1/4; 499 of these
    // 2,000, independent) is left out. The others differ by 0 (the first pair twice: 1 - 1) or
    // -1 (both pairs: 1 - 2), so the interval is -1 to 0.
    expect(pairedRatioDifference({ num: [1, 1], den: [1, 0] }, { num: [1, 1], den: [1, 1] }, 1))
      .toEqual({ estimate: -1, lower: -1, upper: 0, pairs: 2, undefinedResamples: 499 });
  });

  it('takes its percentiles among the resamples kept (independent)', () => {
    const d = pairedRatioDifference({ num: [1.37, 2.51, 0.79, 3.23, 2.03, 4.41], den: [1, 2, 0, 3, 1, 2] },
      { num: [2.09, 1.27, 1.53, 2.71, 0.57, 3.33], den: [2, 1, 1, 0, 0, 3] }, 3);
    // 1,995 kept: positions 49 and 1,945 (of 2,000 they would be 49 and 1,950).
    expect(d).toEqual({ estimate: 0.049523809523809526, lower: -1.045714285714286, upper: 3.2974999999999994, pairs: 6, undefinedResamples: 5 });
  });

  it('takes the 50th and 1,951st of 2,000 kept (independent)', () => {
    const d = pairedRatioDifference({ num: [1.37, 2.51, 0.79, 3.23, 2.03, 4.41, 1.19], den: [1, 2, 1.5, 3, 1, 2, 0.7] },
      { num: [2.09, 1.27, 1.53, 2.71, 0.57, 3.33, 2.61], den: [2, 1, 1, 0.5, 1.5, 3, 1.1] }, 2);
    // Neighbours: -0.7772664835164833 and -0.7678082191780826 below; 1.050763912122226 and 1.0671553913645806 above.
    expect(d).toEqual({ estimate: 0.010422560113154011, lower: -0.7692277188460395, upper: 1.0633644133644133, pairs: 7, undefinedResamples: 0 });
  });

  it('has no estimate when a side has nothing to divide by at all, nor with no pairs', () => {
    const none = { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN, undefinedResamples: 0 };
    expect(pairedRatioDifference({ num: [1], den: [0] }, { num: [1], den: [1] })).toEqual({ ...none, pairs: 1 });
    expect(pairedRatioDifference({ num: [], den: [] }, { num: [], den: [] })).toEqual({ ...none, pairs: 0 });
  });

  it('refuses sides of unequal length, naming the four lengths', () => {
    expect(() => pairedRatioDifference({ num: [1, 2], den: [1] }, { num: [1, 2], den: [1, 1] }))
      .toThrow(/^paired samples differ in length: 2, 1, 2 and 2$/);
    expect(() => pairedRatioDifference({ num: [1], den: [1] }, { num: [1, 2], den: [1] })).toThrow(RangeError);
    expect(() => pairedRatioDifference({ num: [1], den: [1] }, { num: [1], den: [1, 2] })).toThrow(RangeError);
  });
});
