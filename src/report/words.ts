// Says in words what the numbers support, and no more: a difference inside the noise is
// called that, with the pairs it would take to settle it.
import type { CountComparison, MetricComparison, ProportionComparison } from './paired.ts';
import type { LeftOut } from './pairing.ts';

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** Digits grouped by thousands without a locale, so output is the same on every machine. */
export function grouped(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const withCommas = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}

export function percent(rate: number | null): string {
  return rate === null ? 'n/a' : `${Math.round(rate * 100)}%`;
}

export function signedPoints(difference: number): string {
  const points = Math.round(difference * 100);
  return `${points > 0 ? '+' : ''}${points}`;
}

export function pValue(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p.toFixed(p < 0.01 ? 3 : 2)}`;
}

/** A count or a time, in its unit: ms below a second, seconds with one decimal above. */
export function quantity(value: number, unit: CountComparison['unit']): string {
  if (unit === 'ms') return Math.abs(value) < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
  const rounded = Math.round(value * 10) / 10;
  return grouped(rounded);
}

function change(value: number, unit: CountComparison['unit']): string {
  const [less, more] = unit === 'ms' ? ['shorter', 'longer'] : ['fewer', 'more'];
  if (value === 0) return 'no change';
  return `${quantity(Math.abs(value), unit)} ${value < 0 ? less : more}`;
}

const NOISE = 'not distinguishable from noise at this N';

export function settleText(multiple: number | null): string | null {
  if (multiple === null || !Number.isFinite(multiple)) return null;
  if (multiple < 1.5) return 'somewhat more passes would likely settle it';
  if (multiple > 100) return 'over 100x more passes would be needed; any difference is small';
  return `about ${Math.round(multiple)}x more passes would settle it`;
}

function proportionSentence(m: ProportionComparison): string {
  if (m.verdict === 'no_pairs') return `${m.label}: no pairs to compare`;
  if (m.verdict === 'same') return `${m.label} the same in every pair (no discordant pair among ${plural(m.pairs, m.pairsOf === 'passes' ? 'pass' : 'step-run', m.pairsOf)})`;
  const d = m.difference!;
  const head = `${m.label} ${signedPoints(d.estimate)} points (95% CI ${signedPoints(d.lower)} to ${signedPoints(d.upper)}`;
  if (m.verdict !== 'unclear') return `${head}; ${pValue(m.p)})`;
  const settle = settleText(m.settleMultiple);
  return `${head}), ${NOISE} (${pValue(m.p)})${settle === null ? '' : `; ${settle}`}`;
}

/** Counts of calls and rounds read best per 10 passes (small whole numbers); tokens per pass. */
export function countScale(m: CountComparison): { factor: number; per: string } {
  if (m.unit === 'ms') return { factor: 1, per: 'per step-run' };
  if (m.unit === 'tokens') return { factor: 1, per: 'per pass' };
  return { factor: 10, per: 'per 10 passes' };
}

function countSentence(m: CountComparison): string {
  const { factor, per } = countScale(m);
  const pairs = plural(m.pairs, `paired ${m.pairsOf === 'passes' ? 'pass' : 'step-run'}`, `paired ${m.pairsOf}`);
  const totals = m.unit === 'ms'
    ? `median ${quantity(m.a.median ?? 0, m.unit)} in A, ${quantity(m.b.median ?? 0, m.unit)} in B over ${pairs}`
    : `${quantity(m.a.total, m.unit)} in A, ${quantity(m.b.total, m.unit)} in B over ${pairs}`;
  if (m.verdict === 'no_pairs') return `${m.label}: no pairs to compare`;
  if (m.verdict === 'same') return `${m.label} the same in every pair (${totals})`;
  const d = m.difference!;
  const at = (x: number): string => change(x * factor, m.unit);
  const interval = d.lower === d.upper ? `every resample ${at(d.lower)}` : `95% CI ${at(d.lower)} to ${at(d.upper)}`;
  const head = `${m.label}: ${at(d.estimate)} ${per} (${m.statistic} of paired differences, ${interval}`;
  return m.verdict === 'unclear' ? `${head}), ${NOISE} (${totals})` : `${head}; ${totals})`;
}

export function metricSentence(m: MetricComparison): string {
  return m.kind === 'proportion' ? proportionSentence(m) : countSentence(m);
}

/** The paragraph a reader takes away: the step pass rate, what clearly changed, what did not. */
export function summarySentence(label: string, passes: number, metrics: MetricComparison[]): string {
  const [stepPassRate, ...rest] = metrics;
  const clear = rest.filter((m) => m.verdict === 'better' || m.verdict === 'worse');
  const unclear = rest.filter((m) => m.verdict === 'unclear').map((m) => m.label);
  const parts = [metricSentence(stepPassRate!), ...clear.map(metricSentence)];
  if (unclear.length > 0) parts.push(`no clear difference in ${unclear.join(', ')}`);
  return `${label} (${plural(passes, 'paired pass', 'paired passes')}): ${parts.join('; ')}.`;
}

export function leftOutSentence(left: LeftOut, metrics: MetricComparison[]): string | null {
  const parts: string[] = [];
  const rungs = (names: string[], side: string): void => {
    if (names.length > 0) parts.push(`${names.length === 1 ? 'rung' : 'rungs'} ${names.join(', ')} only in ${side}`);
  };
  rungs(left.rungsOnlyInA, 'A');
  rungs(left.rungsOnlyInB, 'B');
  if (left.passesOnlyInA > 0) parts.push(`${plural(left.passesOnlyInA, 'pass', 'passes')} only in A`);
  if (left.passesOnlyInB > 0) parts.push(`${plural(left.passesOnlyInB, 'pass', 'passes')} only in B`);
  if (left.stepRunsOnlyInA > 0) parts.push(`${plural(left.stepRunsOnlyInA, 'step-run')} only in A`);
  if (left.stepRunsOnlyInB > 0) parts.push(`${plural(left.stepRunsOnlyInB, 'step-run')} only in B`);
  if (left.erroredStepPairs > 0) parts.push(`${plural(left.erroredStepPairs, 'step pair')} with an errored side`);
  if (left.erroredPassPairs > 0) parts.push(`${plural(left.erroredPassPairs, 'pass pair')} with an errored side`);
  if (left.seedMismatches > 0) parts.push(`${plural(left.seedMismatches, 'pair')} with different seeds (paired by index only)`);
  for (const m of metrics) {
    if (m.metric.startsWith('tokens') && m.excluded > 0) parts.push(`${m.label}: ${plural(m.excluded, 'pair')} where a side reported no token count`);
  }
  return parts.length === 0 ? null : `Left out: ${parts.join('; ')}.`;
}
