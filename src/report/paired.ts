// One paired comparison per metric. Pass rates: McNemar's test on the discordant pairs
// (continuity-corrected) and, for the difference, the interval that inverts that same test
// (stats.ts pairedComparison), so the verdict, the p-value and the interval cannot disagree.
// Counts: the mean of the per-pair differences, and times: their median, each with a seeded
// bootstrap interval. Every difference is B minus A.
import { median, pairedMeanDifference, pairedMedianDifference } from './bootstrap.ts';
import { isErrored, passClean, passErrored } from './metrics.ts';
import type { MetricName } from './choices.ts';
import type { Pairing } from './pairing.ts';
import type { PassRecord, StepRun } from './passes.ts';
import { countScale, shownQuantity } from './precision.ts';
import { pairedComparison, pairsMultipleToSettle } from './stats.ts';

export { COMPARED_METRICS, type MetricName } from './choices.ts';
export { SIGNIFICANCE } from './stats.ts';

/**
 * `same`: no pair differs, or (counts and times) the interval is 0 to 0 at the precision shown;
 * `unclear`: pairs differ, but not beyond what noise would do at 95%. A rate's verdict is its
 * test's (p < 0.05), which is its interval's (clear of 0) by construction; the words print an
 * interval end that rounds to 0 with the digit that shows its side (words.ts). A count's is
 * decided on its interval as shown (precision.ts).
 */
export type Verdict = 'better' | 'worse' | 'unclear' | 'same' | 'no_pairs';

interface Common {
  metric: MetricName;
  label: string;
  better: 'higher' | 'lower';
  /** What one pair is: `step-runs` or `passes`. */
  pairsOf: 'step-runs' | 'passes';
  pairs: number;
  /** Pairs left out of this metric (an errored side, missing tokens, no answer on a side). */
  excluded: number;
  /** Null when there are no pairs. */
  difference: { estimate: number; lower: number; upper: number } | null;
  verdict: Verdict;
}

export interface ProportionComparison extends Common {
  kind: 'proportion';
  a: { count: number; n: number };
  b: { count: number; n: number };
  /** Discordant pairs: true only under A, true only under B. */
  aOnly: number;
  bOnly: number;
  p: number;
  /** How many times the pairs would settle a difference this size (80% power); null when not asked. */
  settleMultiple: number | null;
}

export interface CountComparison extends Common {
  kind: 'count';
  /** `score`: a figure from 0 to 1 per step-run (tool selection, selection.ts), better higher. */
  unit: 'calls' | 'rounds' | 'tokens' | 'ms' | 'score';
  /**
   * What `difference` is of the per-pair differences: the mean for counts (a sparse count, such
   * as dead calls in one rung of nine, has a median difference of 0 whatever the arm does), the
   * median for times (skewed by a few slow steps).
   */
  statistic: 'mean' | 'median';
  a: { total: number; mean: number | null; median: number | null };
  b: { total: number; mean: number | null; median: number | null };
  /** Every pair has equal values (a `same` that is not only a matter of rounding). */
  identical: boolean;
}

export type MetricComparison = ProportionComparison | CountComparison;

type Level<T> = { level: 'step'; of: (s: StepRun) => T } | { level: 'pass'; of: (p: PassRecord) => T };
type Def =
  | ({ metric: MetricName; label: string; kind: 'proportion'; better: 'higher' | 'lower' } & Level<boolean | undefined>)
  | ({ metric: MetricName; label: string; kind: 'count'; unit: CountComparison['unit']; better?: 'higher' } & Level<number | undefined>);

const decided = <T>(f: (s: StepRun) => T) => (s: StepRun): T | undefined => (isErrored(s) ? undefined : f(s));
const sum = (p: PassRecord, f: (s: StepRun) => number): number => p.steps.reduce((total, s) => total + f(s), 0);
/** A step-run's selection figure, when its trace recorded the reference and the figure is defined there. */
const selected = (f: (s: NonNullable<StepRun['selection']>) => number | null) =>
  decided((s): number | undefined => (s.selection === undefined ? undefined : f(s.selection) ?? undefined));
/** A pass's extra calls, when every step of it recorded the reference. */
const extraCalls = (p: PassRecord): number | undefined =>
  (p.steps.every((s) => s.selection !== undefined) ? sum(p, (s) => s.selection!.extra) : undefined);
const tokens = (p: PassRecord, field: 'tokensIn' | 'tokensOut', missing: 'tokensInMissing' | 'tokensOutMissing') =>
  (sum(p, (s) => s[missing]) > 0 ? undefined : sum(p, (s) => s[field]));

const DEFS: Def[] = [
  { metric: 'step_pass_rate', label: 'step pass rate', kind: 'proportion', better: 'higher', level: 'step', of: decided((s) => s.passed) },
  { metric: 'clean_run_rate', label: 'clean-run rate', kind: 'proportion', better: 'higher', level: 'pass',
    of: (p) => (passErrored(p) ? undefined : passClean(p)) },
  { metric: 'ceiling_share', label: 'ceiling share', kind: 'proportion', better: 'lower', level: 'step',
    of: decided((s) => s.reason === 'ceiling') },
  { metric: 'dead_calls', label: 'dead calls', kind: 'count', unit: 'calls', level: 'pass', of: (p) => sum(p, (s) => s.deadCalls) },
  { metric: 'identical_repeats', label: 'identical repeats', kind: 'count', unit: 'calls', level: 'pass', of: (p) => sum(p, (s) => s.repeats) },
  { metric: 'zero_tool_rounds', label: 'zero-tool rounds', kind: 'count', unit: 'rounds', level: 'pass', of: (p) => sum(p, (s) => s.zeroToolRounds) },
  { metric: 'tokens_in', label: 'tokens in', kind: 'count', unit: 'tokens', level: 'pass', of: (p) => tokens(p, 'tokensIn', 'tokensInMissing') },
  { metric: 'tokens_out', label: 'tokens out', kind: 'count', unit: 'tokens', level: 'pass', of: (p) => tokens(p, 'tokensOut', 'tokensOutMissing') },
  { metric: 'step_ms', label: 'step time', kind: 'count', unit: 'ms', level: 'step', of: decided((s) => s.ms) },
  { metric: 'time_to_answer', label: 'answer-to-end time', kind: 'count', unit: 'ms', level: 'step',
    of: (s) => (s.answeredAt === undefined ? undefined : Math.max(0, s.endT - s.answeredAt)) },
  { metric: 'tool_precision', label: 'tool precision', kind: 'count', unit: 'score', better: 'higher', level: 'step', of: selected((x) => x.precision) },
  { metric: 'tool_recall', label: 'tool recall', kind: 'count', unit: 'score', better: 'higher', level: 'step', of: selected((x) => x.recall) },
  { metric: 'tool_f1', label: 'tool F1', kind: 'count', unit: 'score', better: 'higher', level: 'step', of: selected((x) => x.f1) },
  { metric: 'path_efficiency', label: 'path efficiency', kind: 'count', unit: 'score', better: 'higher', level: 'step', of: selected((x) => x.efficiency) },
  { metric: 'extra_calls', label: 'extra calls', kind: 'count', unit: 'calls', level: 'pass', of: extraCalls },
];

function values<T>(def: Level<T | undefined>, pairing: Pairing): { a: T[]; b: T[]; excluded: number } {
  const pairs: [unknown, unknown][] = def.level === 'step'
    ? pairing.steps.map((p) => [p.a, p.b])
    : pairing.passes.map((p) => [p.a, p.b]);
  const of = def.of as (x: unknown) => T | undefined;
  const a: T[] = [];
  const b: T[] = [];
  for (const [x, y] of pairs) {
    const va = of(x);
    const vb = of(y);
    if (va === undefined || vb === undefined) continue;
    a.push(va);
    b.push(vb);
  }
  return { a, b, excluded: pairs.length - a.length };
}

/** Which way B moved, by an interval: wholly above 0, wholly below, or neither. */
function moved(lower: number, upper: number): 'higher' | 'lower' | null {
  return lower > 0 ? 'higher' : upper < 0 ? 'lower' : null;
}

function verdictOf(shown: 'higher' | 'lower' | null, better: 'higher' | 'lower'): Verdict {
  return shown === null ? 'unclear' : shown === better ? 'better' : 'worse';
}

function proportion(def: Extract<Def, { kind: 'proportion' }>, pairing: Pairing): ProportionComparison {
  const { a, b, excluded } = values<boolean>(def, pairing);
  const n = a.length;
  let aOnly = 0, bOnly = 0, aCount = 0, bCount = 0;
  a.forEach((va, i) => {
    const vb = b[i]!;
    if (va) aCount += 1;
    if (vb) bCount += 1;
    if (va && !vb) aOnly += 1;
    if (vb && !va) bOnly += 1;
  });
  const { p, ...difference } = pairedComparison(aOnly, bOnly, n);
  const verdict: Verdict = n === 0 ? 'no_pairs' : aOnly + bOnly === 0 ? 'same' : verdictOf(moved(difference.lower, difference.upper), def.better);
  return {
    metric: def.metric, label: def.label, better: def.better, pairsOf: def.level === 'step' ? 'step-runs' : 'passes',
    pairs: n, excluded, difference: n === 0 ? null : difference, verdict, kind: 'proportion', a: { count: aCount, n }, b: { count: bCount, n },
    aOnly, bOnly, p, settleMultiple: verdict === 'unclear' ? (pairsMultipleToSettle(aOnly, bOnly, n) ?? null) : null,
  };
}

function count(def: Extract<Def, { kind: 'count' }>, pairing: Pairing, seed: number): CountComparison {
  const { a, b, excluded } = values<number>(def, pairing);
  const statistic = def.unit === 'ms' ? 'median' : 'mean';
  const d = statistic === 'median' ? pairedMedianDifference(a, b, seed) : pairedMeanDifference(a, b, seed);
  const total = (xs: number[]): number => xs.reduce((s, x) => s + x, 0);
  const side = (xs: number[]) => ({ total: total(xs), mean: xs.length === 0 ? null : total(xs) / xs.length, median: xs.length === 0 ? null : median(xs) });
  const identical = a.every((x, i) => x === b[i]);
  const { factor } = countScale(def.unit);
  const lower = shownQuantity(d.lower * factor, def.unit);
  const upper = shownQuantity(d.upper * factor, def.unit);
  const verdict: Verdict = a.length === 0 ? 'no_pairs' : identical || (lower === 0 && upper === 0) ? 'same'
    : verdictOf(moved(lower, upper), def.better ?? 'lower');
  return {
    metric: def.metric, label: def.label, better: def.better ?? 'lower', pairsOf: def.level === 'step' ? 'step-runs' : 'passes',
    pairs: a.length, excluded,
    difference: a.length === 0 ? null : { estimate: d.estimate, lower: d.lower, upper: d.upper },
    verdict, kind: 'count', unit: def.unit, statistic, a: side(a), b: side(b), identical: a.length > 0 && identical,
  };
}

export function compareMetrics(pairing: Pairing, seed: number): MetricComparison[] {
  return DEFS.map((def) => (def.kind === 'proportion' ? proportion(def, pairing) : count(def, pairing, seed)));
}

/** The step pass rate per rung: the rows of the forest plot. */
export function perRung(pairing: Pairing): { rung: string; stepPassRate: ProportionComparison }[] {
  const def = DEFS[0] as Extract<Def, { kind: 'proportion' }>;
  // A step-level metric reads the step pairs only, so the rung's step pairs are all it is given.
  return pairing.rungs.map((rung) => ({ rung, stepPassRate: proportion(def, { ...pairing, steps: pairing.steps.filter((s) => s.rung === rung) }) }));
}
