// How many times the pairs a difference needs (src/report/stats.ts, pairsMultipleToSettle), by
// value: the ordering tests in stats.test.ts hold for many wrong formulas.
import { describe, expect, it } from 'vitest';
import { pairsMultipleToSettle } from '../../src/report/stats.ts';

describe('pairsMultipleToSettle', () => {
  // (Z95 sqrt(d) + z80 sqrt(d - diff^2))^2 / diff^2 / n, with d the discordant share and diff the
  // difference's: 1 vs 9 of 40 is d = 0.25, diff = 0.2; 4 vs 6 is d = 0.25, diff = 0.05.
  it.each([
    [1, 9, 40, 1.16564423],
    [9, 1, 40, 1.16564423],
    [4, 6, 40, 19.56314888],
    [0, 20, 40, 0.32642171],
  ])('is %i against %i of %i pairs: %f times the pairs there are', (aOnly, bOnly, n, times) => {
    expect(pairsMultipleToSettle(aOnly, bOnly, n)).toBeCloseTo(times, 7);
  });
});
