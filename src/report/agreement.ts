// How far a judge's verdicts agree with the deterministic checks' on the same step-runs
// (`ladder judge agreement`): raw agreement, and Cohen's kappa, which discounts the agreement
// two raters would reach by chance given how often each says "pass". A judge that passes every
// step agrees 90% with checks that pass 90% of steps, and has a kappa of 0: it told nothing.
import { wilson, Z95 } from './stats.ts';
import type { Interval } from './stats.ts';

/** One step-run rated twice: by its deterministic checks, and by the judge. */
export interface RatedPair {
  checks: boolean;
  judge: boolean;
}

export interface Agreement {
  n: number;
  /** Both passed, both failed, the checks alone passed, the judge alone passed. */
  bothPassed: number;
  bothFailed: number;
  checksOnly: number;
  judgeOnly: number;
  /** Share of step-runs with the same verdict; null with none. */
  raw: number | null;
  rawInterval: Interval;
  /** Cohen's kappa; null when it is undefined (no step-runs, or both raters gave one verdict to all). */
  kappa: number | null;
  kappaInterval: Interval | null;
  /** Why kappa is null, in one line. */
  kappaWhy?: string;
}

export function agreement(pairs: readonly RatedPair[]): Agreement {
  const n = pairs.length;
  const bothPassed = pairs.filter((p) => p.checks && p.judge).length;
  const bothFailed = pairs.filter((p) => !p.checks && !p.judge).length;
  const checksOnly = pairs.filter((p) => p.checks && !p.judge).length;
  const judgeOnly = n - bothPassed - bothFailed - checksOnly;
  const counts = { n, bothPassed, bothFailed, checksOnly, judgeOnly };
  const agreed = bothPassed + bothFailed;
  const rawInterval = wilson(agreed, n);
  if (n === 0) return { ...counts, raw: null, rawInterval, kappa: null, kappaInterval: null, kappaWhy: 'no step-runs were rated' };
  const observed = agreed / n;
  // Chance agreement: both say pass, or both say fail, each at its own rate.
  const checksPass = (bothPassed + checksOnly) / n;
  const judgePass = (bothPassed + judgeOnly) / n;
  const chance = checksPass * judgePass + (1 - checksPass) * (1 - judgePass);
  if (chance === 1) {
    return {
      ...counts, raw: observed, rawInterval, kappa: null, kappaInterval: null,
      kappaWhy: 'both gave one verdict to every step-run, so agreement by chance is certain; rate step-runs that pass and fail',
    };
  }
  const kappa = (observed - chance) / (1 - chance);
  // Cohen's (1960) large-sample standard error; at a few dozen step-runs it is rough, which
  // the interval's width shows rather than hides.
  const se = Math.sqrt((observed * (1 - observed)) / (n * (1 - chance) ** 2));
  return {
    ...counts, raw: observed, rawInterval, kappa,
    kappaInterval: { lower: Math.max(-1, kappa - Z95 * se), upper: Math.min(1, kappa + Z95 * se) },
  };
}

/**
 * Landis and Koch's (1977) words for a kappa, the ones most readers know; a judge below
 * "substantial" should not gate a run alone.
 */
export function kappaWords(kappa: number): string {
  if (kappa < 0) return 'worse than chance';
  if (kappa <= 0.2) return 'slight';
  if (kappa <= 0.4) return 'fair';
  if (kappa <= 0.6) return 'moderate';
  if (kappa <= 0.8) return 'substantial';
  return 'almost perfect';
}
