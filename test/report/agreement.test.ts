// Agreement between a judge and the checks: the counts, raw agreement, Cohen's kappa and their
// intervals, worked by hand on small tables.
import { describe, expect, it } from 'vitest';
import { agreement, kappaWords } from '../../src/report/agreement.ts';
import type { RatedPair } from '../../src/report/agreement.ts';
import { wilson } from '../../src/report/stats.ts';

/** A table of step-runs: both pass, both fail, checks alone pass, judge alone passes. */
function table(bothPassed: number, bothFailed: number, checksOnly: number, judgeOnly: number): RatedPair[] {
  return [
    ...Array.from({ length: bothPassed }, () => ({ checks: true, judge: true })),
    ...Array.from({ length: bothFailed }, () => ({ checks: false, judge: false })),
    ...Array.from({ length: checksOnly }, () => ({ checks: true, judge: false })),
    ...Array.from({ length: judgeOnly }, () => ({ checks: false, judge: true })),
  ];
}

describe('agreement', () => {
  it('counts each cell and computes raw agreement and kappa by hand', () => {
    // 20 both pass, 15 both fail, 5 checks only, 10 judge only: n = 50.
    const a = agreement(table(20, 15, 5, 10));
    expect([a.n, a.bothPassed, a.bothFailed, a.checksOnly, a.judgeOnly]).toStrictEqual([50, 20, 15, 5, 10]);
    expect(a.raw).toBeCloseTo(0.7, 12);
    expect(a.rawInterval).toStrictEqual(wilson(35, 50));
    // Checks pass 25/50, judge passes 30/50: chance = 0.5*0.6 + 0.5*0.4 = 0.5; kappa = (0.7-0.5)/0.5.
    expect(a.kappa).toBeCloseTo(0.4, 12);
    // se = sqrt(0.7*0.3 / (50*0.25)) = sqrt(0.0168)
    const se = Math.sqrt(0.0168);
    expect(a.kappaInterval!.lower).toBeCloseTo(0.4 - 1.959963984540054 * se, 12);
    expect(a.kappaInterval!.upper).toBeCloseTo(0.4 + 1.959963984540054 * se, 12);
    expect(a.kappaWhy).toBeUndefined();
  });

  it('gives a judge that passes everything a kappa of 0 however high its raw agreement', () => {
    const a = agreement(table(9, 0, 0, 1));
    expect(a.raw).toBeCloseTo(0.9, 12);
    expect(a.kappa).toBe(0);
  });

  it('keeps the interval inside [-1, 1]: perfect agreement and perfect disagreement', () => {
    const perfect = agreement(table(3, 2, 0, 0));
    expect(perfect.kappa).toBe(1);
    expect(perfect.kappaInterval).toStrictEqual({ lower: 1, upper: 1 });
    const opposite = agreement(table(0, 0, 3, 3));
    expect(opposite.kappa).toBe(-1);
    expect(opposite.kappaInterval).toStrictEqual({ lower: -1, upper: -1 });
    // A wide interval at small n is clipped, not reported beyond the scale.
    const small = agreement(table(2, 1, 1, 0));
    expect(small.kappaInterval!.upper).toBe(1);
    expect(small.kappaInterval!.lower).toBeGreaterThan(-1);
    expect(small.kappaInterval!.lower).toBeLessThan(small.kappa!);
    const worse = agreement(table(0, 1, 2, 1));
    expect(worse.kappaInterval!.lower).toBe(-1);
    expect(worse.kappaInterval!.upper).toBeLessThan(1);
  });

  it('has no kappa when both raters give one verdict to every step-run, or there are none', () => {
    const same = agreement(table(4, 0, 0, 0));
    expect(same.raw).toBe(1);
    expect(same.kappa).toBeNull();
    expect(same.kappaInterval).toBeNull();
    expect(same.kappaWhy).toMatch(/^both gave one verdict to every step-run/);
    expect(agreement(table(0, 4, 0, 0)).kappa).toBeNull();
    const none = agreement([]);
    expect(none).toStrictEqual({
      n: 0, bothPassed: 0, bothFailed: 0, checksOnly: 0, judgeOnly: 0, raw: null, rawInterval: { lower: 0, upper: 1 },
      kappa: null, kappaInterval: null, kappaWhy: 'no step-runs were rated',
    });
  });

  it('words a kappa on Landis and Koch\'s scale, each bound in the lower band', () => {
    expect([-0.01, 0, 0.2, 0.21, 0.4, 0.41, 0.6, 0.61, 0.8, 0.81, 1].map(kappaWords)).toStrictEqual([
      'worse than chance', 'slight', 'slight', 'fair', 'fair', 'moderate', 'moderate', 'substantial', 'substantial', 'almost perfect', 'almost perfect',
    ]);
  });
});
