// The report's statistics do what they claim, over the grids of test/report/simulation.ts (exact
// sums, and a seeded simulation for pass@k): the bars issue 12 set (the paired interval's moved
// with the one method of issue 20, docs/report.md says why), published with the grids in
// docs/report.md. A method that misses a bar is a finding to fix in src/report/, never a bar to move.
import { describe, expect, it } from 'vitest';
import { normalTail, pairedComparison, pairedScore, wilson } from '../../src/report/stats.ts';
import { mcnemarExact, pairCells, pairedCoverage, pairedSize, pairedWidth, passKBias, tangoInterval, wilsonCoverage } from './simulation.ts';
import type { Interval } from '../../src/report/stats.ts';
import { Z95 } from '../../src/report/stats.ts';

describe('the step pass rate interval, over rates 0.05..0.95 and every n from 5 to 100', () => {
  it('covers 94-96% on average and never below 90%', () => {
    const grid = wilsonCoverage();
    expect(grid.cells).toHaveLength(19 * 96);
    expect(grid.mean).toBeGreaterThanOrEqual(0.94);
    expect(grid.mean).toBeLessThanOrEqual(0.96);
    expect(grid.min.value).toBeGreaterThanOrEqual(0.9);
  });

  it('is a grid fine enough to catch the plain score interval at 5% over 11 step-runs', () => {
    // Why the report uses the modified interval: the plain one covers 89.8% there (and at 95%).
    const plain = wilsonCoverage(wilson);
    expect(plain.min).toMatchObject({ label: 'p=0.05', n: 11 });
    expect(plain.min.value).toBeCloseTo(0.95 ** 11 + 11 * 0.05 * 0.95 ** 10, 12); // only x = 0 and 1 cover
  });
});

describe('the paired-difference interval, over 10..100 pairs with correlated arms', () => {
  // A computation with nothing to wait for, so its time limit only stops a starved run: 72 s at
  // a load average of 38 on 2 cores, past the suite's 60 s.
  it('covers at least 95% in every cell, and on average no more than 98.5%', () => {
    // The one method's price: an interval that inverts a test whose size stays under 5% covers
    // 1 - size at equal arms, 98% there on average, so the bar of issue 12 (mean at most 97%)
    // is out of reach for any such interval; this bar keeps it from growing wider unseen.
    const grid = pairedCoverage();
    expect(grid.cells).toHaveLength(3_549);
    expect(grid.min.value).toBeGreaterThanOrEqual(0.95);
    expect(grid.mean).toBeGreaterThanOrEqual(0.95);
    expect(grid.mean).toBeLessThanOrEqual(0.985);
  }, 300_000);

  it('costs at most a third more width than Tango\'s uncorrected interval, a tenth at 100 pairs', () => {
    for (const [pA, pB, rho] of [[0.5, 0.5, 0.6], [0.5, 0.7, 0.4], [0.3, 0.5, 0]] as const) {
      const ratio = (n: number): number => pairedWidth(pA, pB, rho, n) / pairedWidth(pA, pB, rho, n, tangoInterval);
      expect(ratio(10)).toBeLessThan(1.34);
      expect(ratio(10)).toBeGreaterThan(1.2);
      expect(ratio(100)).toBeLessThan(1.13);
    }
  });

  it('is a grid that catches the exact interval for the share of discordant pairs, scaled by their observed share', () => {
    // Clopper-Pearson for the share of the m discordant pairs that favour B, mapped to the
    // difference as (m / n)(2 theta - 1): it inverts the exact test, but takes m / n as known.
    // Where every discordant pair favours B the difference is the share itself, and the upper
    // end is its estimate: coverage falls to 34% at 11 pairs (arm rates 0.5 and 0.6, rho 0.8).
    const tail = (x: number, m: number, t: number): number => { // P(X >= x), X ~ Bin(m, t)
      // log C(m, i) built up term by term: one pass, not a product per term (this grid calls it
      // millions of times; the quadratic form took over 40 s on a loaded machine).
      let logC = 0;
      for (let j = 1; j <= x; j += 1) logC += Math.log((m - x + j) / j);
      let s = 0;
      for (let i = x; i <= m; i += 1) {
        if (i > x) logC += Math.log((m - i + 1) / i);
        s += Math.exp(logC + (i === 0 ? 0 : i * Math.log(t)) + (m - i === 0 ? 0 : (m - i) * Math.log(1 - t)));
      }
      return s;
    };
    const bisect = (below: (t: number) => boolean): number => {
      let lo = 0;
      let hi = 1;
      for (let i = 0; i < 40; i += 1) {
        const mid = (lo + hi) / 2;
        if (below(mid)) lo = mid;
        else hi = mid;
      }
      return (lo + hi) / 2;
    };
    const cache = new Map<string, Interval>();
    const share = (x: number, m: number): Interval => {
      const key = `${x}/${m}`;
      if (!cache.has(key)) {
        cache.set(key, m === 0 ? { lower: 0, upper: 1 } : {
          lower: x === 0 ? 0 : bisect((t) => tail(x, m, t) < 0.025),
          upper: x === m ? 1 : bisect((t) => 1 - tail(x + 1, m, t) > 0.025),
        });
      }
      return cache.get(key)!;
    };
    const plugIn = (aOnly: number, bOnly: number, n: number): Interval => {
      const m = aOnly + bOnly;
      const t = share(bOnly, m);
      return { lower: (m / n) * (2 * t.lower - 1), upper: (m / n) * (2 * t.upper - 1) };
    };
    const grid = pairedCoverage(plugIn);
    expect(grid.min).toMatchObject({ label: 'pA=0.5 pB=0.6 rho=0.8', n: 11 });
    expect(grid.min.value).toBeLessThan(0.34);
  });

  it('is a grid that catches the Agresti-Min interval the report used before', () => {
    // Agresti-Min: the Wald interval after adding 1/2 to each cell. It falls to 86% at 18 pairs.
    const agrestiMin = (aOnly: number, bOnly: number, n: number): Interval => {
      const m = n + 2;
      const centre = (bOnly - aOnly) / m;
      const half = Z95 * Math.sqrt((bOnly + aOnly + 1 - (bOnly - aOnly) ** 2 / m) / (m * m));
      return { lower: centre - half, upper: centre + half };
    };
    expect(pairedCoverage(agrestiMin).min.value).toBeLessThan(0.87);
  });

  it('builds each cell from the margins and the correlation asked for', () => {
    // pA = pB = 0.5, rho = 0.6: both pass with 0.25 + 0.6 * 0.25 = 0.4, so each way 0.1.
    const c = pairCells(0.5, 0.5, 0.6)!;
    expect(c.aOnly).toBeCloseTo(0.1, 12);
    expect(c.bOnly).toBeCloseTo(0.1, 12);
    expect(pairCells(0.2, 0.3, 0.8)).toBeNull(); // both pass more often than A alone does: no such pair
  });
});

describe('the paired test with truly equal arms', () => {
  it('rejects at most 5% of the time in every cell', () => {
    const grid = pairedSize();
    expect(grid.max.value).toBeLessThanOrEqual(0.05);
    // Not vacuous: with every pair discordant it comes close to the bar.
    expect(grid.max.value).toBeGreaterThan(0.045);
  });

  it('would not without the continuity correction: up to 7.8% with every pair discordant', () => {
    // The same statistic with continuity 0: (b - c) / sqrt(b + c), the uncorrected McNemar test.
    const uncorrected = pairedSize((aOnly, bOnly) => (aOnly + bOnly === 0 ? 1 : 2 * normalTail(Math.abs(pairedScore(aOnly, bOnly, aOnly + bOnly, 0, 0)))));
    expect(uncorrected.max.value).toBeGreaterThan(0.078);
    expect(uncorrected.max).toMatchObject({ label: 'discordant=1', n: 21 });
  });

  it('rejects only where the exact conditional test does, for every split of up to 200 discordant pairs', () => {
    // So its size is at most the exact test's, which is at most 5% for every number of
    // discordant pairs: the exact test's bound, inherited. The exact test rejects 12 splits more
    // (6 each way: 4 against 13, 15 against 29, 25 against 42, ...), the power the correction gives up.
    let onlyExact = 0;
    for (let m = 1; m <= 200; m += 1) {
      for (let b = 0; b <= m; b += 1) {
        const ours = pairedComparison(m - b, b, m).p < 0.05;
        const exact = mcnemarExact(m - b, b) < 0.05;
        if (ours && !exact) throw new Error(`${m - b} against ${b}: rejected by the corrected test only`);
        if (exact && !ours) onlyExact += 1;
      }
    }
    expect(onlyExact).toBe(12);
  });
});

describe('pass@k and pass^k', () => {
  const cells = passKBias();

  it('are unbiased on simulated Bernoulli passes: mean error under 1 point over 2,000 runs', () => {
    for (const c of cells) {
      expect(Math.abs(c.passAtKError), `${c.label} n=${c.n} k=${c.k}`).toBeLessThan(0.01);
      expect(Math.abs(c.passHatKError), `${c.label} n=${c.n} k=${c.k}`).toBeLessThan(0.01);
    }
  });

  it('have an exact expectation equal to the truth', () => {
    for (const c of cells) {
      expect(Math.abs(c.passAtKExactError)).toBeLessThan(1e-9);
      expect(Math.abs(c.passHatKExactError)).toBeLessThan(1e-9);
    }
  });
});
