// The report's statistics checked against what they claim, over grids of true rates and sizes.
// Coverage and size are exact sums over the binomial (or multinomial) outcomes, which is both
// cheaper and sharper than sampling; pass@k and pass^k are checked by seeded simulation, as a
// user's runs would draw them, and by their exact expectation. Printed by
// `npm run stats:simulate`; bars asserted by test/report/simulation.test.ts.
import { seededRandom } from '../../src/report/bootstrap.ts';
import { passK } from '../../src/report/metrics.ts';
import { modifiedWilson, pairedComparison, pairedScore, SIGNIFICANCE } from '../../src/report/stats.ts';
import type { Interval } from '../../src/report/stats.ts';
import { Z95 } from '../../src/report/stats.ts';

const MAX_N = 100;
const LOG_FACTORIAL = (() => {
  const table = new Float64Array(MAX_N + 1);
  for (let i = 1; i <= MAX_N; i += 1) table[i] = table[i - 1]! + Math.log(i);
  return table;
})();
const logChoose = (n: number, k: number): number => LOG_FACTORIAL[n]! - LOG_FACTORIAL[k]! - LOG_FACTORIAL[n - k]!;
/** x log p, with 0 log 0 = 0. */
const xlog = (x: number, p: number): number => (x === 0 ? 0 : x * Math.log(p));

function binomialPmf(n: number, p: number): number[] {
  return Array.from({ length: n + 1 }, (_, x) => Math.exp(logChoose(n, x) + xlog(x, p) + xlog(n - x, 1 - p)));
}

const covers = (interval: Interval, value: number): boolean => interval.lower <= value + 1e-12 && value - 1e-12 <= interval.upper;

export interface Cell {
  label: string;
  n: number;
  value: number;
}

export interface Grid {
  cells: Cell[];
  mean: number;
  min: Cell;
  max: Cell;
}

function grid(cells: Cell[]): Grid {
  const byValue = [...cells].sort((x, y) => x.value - y.value);
  return { cells, mean: cells.reduce((s, c) => s + c.value, 0) / cells.length, min: byValue[0]!, max: byValue.at(-1)! };
}

const range = (from: number, to: number, step = 1): number[] => {
  const out: number[] = [];
  for (let x = from; x <= to + 1e-9; x += step) out.push(Math.round(x * 1e6) / 1e6);
  return out;
};

/** Rates 0.05, 0.10 .. 0.95 and every n from 5 to 100. */
export const WILSON_RATES = range(0.05, 0.95, 0.05);
export const WILSON_NS = range(5, 100);

/** Exact coverage of the step pass rate's interval: sum of P(x) over the x whose interval holds p. */
export function wilsonCoverage(interval = modifiedWilson): Grid {
  const cells: Cell[] = [];
  for (const p of WILSON_RATES) {
    for (const n of WILSON_NS) {
      const pmf = binomialPmf(n, p);
      let value = 0;
      for (let x = 0; x <= n; x += 1) if (covers(interval(x, n), p)) value += pmf[x]!;
      cells.push({ label: `p=${p}`, n, value });
    }
  }
  return grid(cells);
}

/** Arm A's and arm B's true pass rates, and the correlation of a pair's two outcomes. */
export const PAIRED_MARGINS: readonly (readonly [number, number])[] = [
  [0.1, 0.1], [0.5, 0.5], [0.9, 0.9], [0.2, 0.3], [0.5, 0.6], [0.8, 0.9], [0.3, 0.5], [0.5, 0.7], [0.7, 0.9],
];
export const PAIRED_CORRELATIONS = [0, 0.2, 0.4, 0.6, 0.8];
export const PAIRED_NS = range(10, 100);

/** The discordant cells of a pair with these margins and correlation; null when no such pair exists. */
export function pairCells(pA: number, pB: number, rho: number): { aOnly: number; bOnly: number } | null {
  const both = pA * pB + rho * Math.sqrt(pA * (1 - pA) * pB * (1 - pB));
  const aOnly = pA - both;
  const bOnly = pB - both;
  return aOnly < 0 || bOnly < 0 || 1 - both - aOnly - bOnly < 0 ? null : { aOnly, bOnly };
}

type PairedInterval = (aOnly: number, bOnly: number, n: number) => Interval;

/**
 * Exact coverage of the paired-difference interval: the sum, over every split of n pairs into
 * a A-only, b B-only and the rest concordant, of its multinomial probability where the
 * interval holds pB - pA. Intervals depend on (a, b, n) alone, so each n's table is made once.
 */
export function pairedCoverage(interval: PairedInterval = pairedComparison): Grid {
  const cells: Cell[] = [];
  for (const n of PAIRED_NS) {
    const table: Interval[][] = [];
    for (let a = 0; a <= n; a += 1) {
      const row: Interval[] = [];
      for (let b = 0; a + b <= n; b += 1) row.push(interval(a, b, n));
      table.push(row);
    }
    for (const [pA, pB] of PAIRED_MARGINS) {
      for (const rho of PAIRED_CORRELATIONS) {
        const c = pairCells(pA, pB, rho);
        if (c === null) continue;
        const truth = pB - pA;
        let value = 0;
        for (let a = 0; a <= n; a += 1) {
          for (let b = 0; a + b <= n; b += 1) {
            if (!covers(table[a]![b]!, truth)) continue;
            const rest = n - a - b;
            value += Math.exp(logChoose(n, a) + logChoose(n - a, b) + xlog(a, c.aOnly) + xlog(b, c.bOnly) + xlog(rest, 1 - c.aOnly - c.bOnly));
          }
        }
        cells.push({ label: `pA=${pA} pB=${pB} rho=${rho}`, n, value });
      }
    }
  }
  return grid(cells);
}

/**
 * Tango's (1998) score interval, the report's before it took the continuity correction: the
 * same statistic with none (pairedScore's continuity 0), inverted by bisection. Kept here as
 * the yardstick of what the correction costs in width.
 */
export function tangoInterval(aOnly: number, bOnly: number, n: number): Interval {
  if (n === 0) return { lower: -1, upper: 1 };
  const estimate = (bOnly - aOnly) / n;
  const crossing = (below: number, above: number, level: number): number => {
    let lo = below;
    let hi = above;
    for (let i = 0; i < 60; i += 1) {
      const mid = (lo + hi) / 2;
      if (pairedScore(aOnly, bOnly, n, mid, 0) > level) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  return { lower: crossing(-1, estimate, Z95), upper: crossing(estimate, 1, -Z95) };
}

/** The arms and correlations whose expected interval width docs/report.md shows, as cells of the coverage grid. */
export const WIDTH_CELLS: readonly (readonly [number, number, number])[] = [[0.5, 0.5, 0.6], [0.5, 0.7, 0.4], [0.8, 0.9, 0.4], [0.3, 0.5, 0]];
export const WIDTH_NS = [10, 20, 50, 100];

/** Expected width of a paired interval (sum over every split of its width times its probability). */
export function pairedWidth(pA: number, pB: number, rho: number, n: number, interval: PairedInterval = pairedComparison): number {
  const c = pairCells(pA, pB, rho)!;
  let width = 0;
  for (let a = 0; a <= n; a += 1) {
    for (let b = 0; a + b <= n; b += 1) {
      const i = interval(a, b, n);
      width += (i.upper - i.lower) * Math.exp(logChoose(n, a) + logChoose(n - a, b) + xlog(a, c.aOnly) + xlog(b, c.bOnly) + xlog(n - a - b, 1 - c.aOnly - c.bOnly));
    }
  }
  return width;
}

/**
 * Exact (conditional) McNemar test, two-sided: of m discordant pairs, B-only is Binomial(m, 1/2)
 * under no difference, and p is twice the smaller tail, at most 1. The report's test before;
 * kept to show that the continuity-corrected test rejects only where it does.
 */
export function mcnemarExact(aOnly: number, bOnly: number): number {
  const m = aOnly + bOnly;
  let tail = 0;
  for (let i = 0; i <= Math.min(aOnly, bOnly); i += 1) tail += Math.exp(logChooseAny(m, i) - m * Math.LN2);
  return Math.min(1, 2 * tail);
}

/** log C(n, k) for any n (the table above stops at MAX_N). */
function logChooseAny(n: number, k: number): number {
  let sum = 0;
  for (let j = 1; j <= k; j += 1) sum += Math.log((n - k + j) / j);
  return sum;
}

/** Share of pairs that are discordant, when the arms are truly equal (each way half of them). */
export const MCNEMAR_DISCORDANCE = [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1];
export const MCNEMAR_NS = range(10, 100);

/** The report's test of no difference: its p is the comparison's, so its size is the interval's too. */
const reportTest = (aOnly: number, bOnly: number): number => pairedComparison(aOnly, bOnly, aOnly + bOnly).p;

/**
 * Exact size of a test of no difference (p < SIGNIFICANCE), the report's by default: the
 * discordant count m is Binomial(n, discordance), and given m, B-only is Binomial(m, 1/2)
 * under equal arms. The report's p depends on the discordant pairs alone.
 */
export function pairedSize(test: (aOnly: number, bOnly: number) => number = reportTest): Grid {
  const rejects: number[] = []; // P(reject | m discordant pairs)
  for (let m = 0; m <= MAX_N; m += 1) {
    let r = 0;
    for (let b = 0; b <= m; b += 1) if (test(m - b, b) < SIGNIFICANCE) r += Math.exp(logChoose(m, b) - m * Math.LN2);
    rejects.push(r);
  }
  const cells: Cell[] = [];
  for (const d of MCNEMAR_DISCORDANCE) {
    for (const n of MCNEMAR_NS) {
      const pmf = binomialPmf(n, d);
      cells.push({ label: `discordant=${d}`, n, value: pmf.reduce((s, p, m) => s + p * rejects[m]!, 0) });
    }
  }
  return grid(cells);
}

/**
 * Rungs' true pass rates (nine rungs, as shipped: spread out, all middling, mostly high), passes
 * per rung, and the runs each cell draws. Over 2,000 runs the standard error of a cell's mean is
 * at most a third of a point here (measured: 0.32), so a 1-point error would be a bias, not the
 * luck of the draw; with one rung of three passes it would be 0.65 points, too close to the bar.
 */
export const PASSK_RUNG_RATES: readonly (readonly number[])[] = [
  [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
  [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
  [0.6, 0.7, 0.8, 0.85, 0.9, 0.9, 0.95, 0.95, 0.98],
];
export const PASSK_NS = [3, 5, 10, 20];
export const PASSK_RUNS = 2_000;
export const PASSK_SEED = 12;

export interface PassKCell {
  label: string;
  n: number;
  k: number;
  /** Mean over the runs of the estimate, minus the truth (mean over rungs of 1-(1-p)^k, p^k). */
  passAtKError: number;
  passHatKError: number;
  /** The same, with the expectation summed exactly over every count of clean passes. */
  passAtKExactError: number;
  passHatKExactError: number;
  /** Standard error of the simulated mean (the larger of the two estimators'). */
  standardError: number;
}

/**
 * pass@k and pass^k as the report computes them (metrics.ts passK, the mean over rungs), over
 * PASSK_RUNS seeded runs of Bernoulli passes, against their true values; and their exact
 * expectations, which for an unbiased estimator equal the truth up to rounding.
 */
export function passKBias(): PassKCell[] {
  const random = seededRandom(PASSK_SEED);
  const cells: PassKCell[] = [];
  for (const rates of PASSK_RUNG_RATES) {
    for (const n of PASSK_NS) {
      const sums = new Float64Array(2 * (n + 1));
      const squares = new Float64Array(2 * (n + 1));
      for (let run = 0; run < PASSK_RUNS; run += 1) {
        const groups = rates.map((p) => {
          let c = 0;
          for (let i = 0; i < n; i += 1) if (random() < p) c += 1;
          return { c, n };
        });
        for (const { k, passAtK, passHatK } of passK(groups)) {
          sums[2 * k]! += passAtK;
          sums[2 * k + 1]! += passHatK;
          squares[2 * k]! += passAtK * passAtK;
          squares[2 * k + 1]! += passHatK * passHatK;
        }
      }
      const pmfs = rates.map((p) => binomialPmf(n, p));
      for (let k = 1; k <= n; k += 1) {
        const truthAt = rates.reduce((s, p) => s + 1 - (1 - p) ** k, 0) / rates.length;
        const truthHat = rates.reduce((s, p) => s + p ** k, 0) / rates.length;
        let exactAt = 0;
        let exactHat = 0;
        rates.forEach((_, r) => {
          for (let c = 0; c <= n; c += 1) {
            const [one] = passK([{ c, n }]).filter((x) => x.k === k);
            exactAt += (pmfs[r]![c]! * one!.passAtK) / rates.length;
            exactHat += (pmfs[r]![c]! * one!.passHatK) / rates.length;
          }
        });
        cells.push({
          label: `rates=${rates.join('/')}`, n, k,
          passAtKError: sums[2 * k]! / PASSK_RUNS - truthAt, passHatKError: sums[2 * k + 1]! / PASSK_RUNS - truthHat,
          passAtKExactError: exactAt - truthAt, passHatKExactError: exactHat - truthHat,
          standardError: Math.max(standardError(sums[2 * k]!, squares[2 * k]!), standardError(sums[2 * k + 1]!, squares[2 * k + 1]!)),
        });
      }
    }
  }
  return cells;
}

function standardError(sum: number, squares: number): number {
  const mean = sum / PASSK_RUNS;
  return Math.sqrt(Math.max(0, squares / PASSK_RUNS - mean * mean) / PASSK_RUNS);
}

const pct = (x: number, digits = 1): string => `${(100 * x).toFixed(digits)}%`;

function bands(cells: Cell[], edges: number[], pick: (xs: number[]) => number, format: (x: number) => string): string[] {
  return edges.slice(0, -1).map((from, i) => {
    const xs = cells.filter((c) => c.n >= from && c.n < edges[i + 1]!).map((c) => c.value);
    return xs.length === 0 ? '-' : format(pick(xs));
  });
}

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const byLabel = (cells: Cell[]): Map<string, Cell[]> => {
  const out = new Map<string, Cell[]>();
  for (const c of cells) out.set(c.label, [...(out.get(c.label) ?? []), c]);
  return out;
};

/** The grids as Markdown, as docs/report.md shows them. */
export function simulationReport(): string {
  const min = (xs: number[]): number => Math.min(...xs);
  const max = (xs: number[]): number => Math.max(...xs);
  const w = wilsonCoverage();
  const wEdges = [5, 10, 20, 50, 101];
  const wRows = [...byLabel(w.cells)].map(([label, cells]) => [label, ...bands(cells, wEdges, min, (x) => pct(x)), pct(cells.reduce((s, c) => s + c.value, 0) / cells.length)]);
  const p = pairedCoverage();
  const pEdges = [10, 20, 50, 101];
  const conservative = (cells: Cell[]): number => cells.filter((c) => c.value > 0.97).length;
  const pRows = [...byLabel(p.cells)].map(([label, cells]) => [label, ...bands(cells, pEdges, min, (x) => pct(x)), pct(cells.reduce((s, c) => s + c.value, 0) / cells.length), String(conservative(cells))]);
  const m = pairedSize();
  const mRows = [...byLabel(m.cells)].map(([label, cells]) => [label, ...bands(cells, pEdges, max, (x) => pct(x, 2))]);
  const widthRows = WIDTH_CELLS.flatMap(([pA, pB, rho]) => WIDTH_NS.map((n) => {
    const ours = pairedWidth(pA, pB, rho, n);
    const tango = pairedWidth(pA, pB, rho, n, tangoInterval);
    return [`pA=${pA} pB=${pB} rho=${rho}`, String(n), (100 * ours).toFixed(1), (100 * tango).toFixed(1), `${(100 * (ours / tango - 1)).toFixed(0)}%`];
  }));
  const k = passKBias();
  const kRows: string[][] = [];
  for (const rates of PASSK_RUNG_RATES) {
    for (const n of PASSK_NS) {
      const cells = k.filter((c) => c.label === `rates=${rates.join('/')}` && c.n === n);
      const worst = (f: (c: PassKCell) => number): string => (100 * Math.max(...cells.map((c) => Math.abs(f(c))))).toFixed(2);
      kRows.push([rates.join(', '), String(n), `1..${n}`, worst((c) => c.passAtKError), worst((c) => c.passHatKError),
        (100 * Math.max(...cells.map((c) => c.standardError))).toFixed(2),
        Math.max(...cells.flatMap((c) => [Math.abs(c.passAtKExactError), Math.abs(c.passHatKExactError)])).toExponential(0)]);
    }
  }
  return [
    `**Step pass rate, modified Wilson 95%** (${w.cells.length} cells): mean coverage ${pct(w.mean, 2)}, lowest ${pct(w.min.value, 1)} (${w.min.label}, n=${w.min.n}). Lowest coverage per band of n:`,
    '',
    table(['true rate', 'n 5-9', 'n 10-19', 'n 20-49', 'n 50-100', 'mean'], wRows),
    '',
    `**Paired difference, continuity-corrected score 95%** (${p.cells.length} cells): mean coverage ${pct(p.mean, 2)}, lowest ${pct(p.min.value, 1)} (${p.min.label}, n=${p.min.n}), ${conservative(p.cells)} conservative cells (above 97%). Lowest coverage per band of pairs:`,
    '',
    table(['arms and correlation', 'n 10-19', 'n 20-49', 'n 50-100', 'mean', 'cells > 97%'], pRows),
    '',
    `**Its test, equal arms** (McNemar's, continuity-corrected; the interval excludes 0 exactly when it rejects) (${m.cells.length} cells): highest rejection rate ${pct(m.max.value, 2)} (${m.max.label}, n=${m.max.n}), mean ${pct(m.mean, 2)}. Highest per band of pairs:`,
    '',
    table(['share of pairs discordant', 'n 10-19', 'n 20-49', 'n 50-100'], mRows),
    '',
    '**What the correction costs**: expected width of the interval, in points, against Tango\'s uncorrected score interval (the report\'s before, whose test is not the one behind p):',
    '',
    table(['arms and correlation', 'pairs', 'width', 'Tango width', 'wider by'], widthRows),
    '',
    `**pass@k and pass^k** (nine rungs, ${PASSK_RUNS} seeded runs per cell, seed ${PASSK_SEED}): largest error of the mean estimate, in points, over k; the exact expectation's largest error beside it.`,
    '',
    table(['rung pass rates', 'passes', 'k', 'pass@k error', 'pass^k error', 'standard error', 'exact error'], kRows),
  ].join('\n');
}
