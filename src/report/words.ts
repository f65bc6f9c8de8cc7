// Says in words what the numbers support, and no more: a difference inside the noise is
// called that, with the pairs it would take to settle it.
import type { CountComparison, MetricComparison, ProportionComparison } from './paired.ts';
import type { LeftOut } from './pairing.ts';
import { countScale as scaleOf, roundHalfAway, shownPoints, shownQuantity } from './precision.ts';
import { SIGNIFICANCE } from './stats.ts';

/** The external agent that ran a run's steps, as a report names it; absent for the built-in loop. */
export interface RunAgent {
  name: string;
  /** As the run recorded it ("unknown" when the agent could not say); null in runs made before versions were recorded. */
  version: string | null;
}

/** `codex 0.171.0`: an agent and its version, as every line that names one says it. */
export function agentWords(agent: RunAgent): string {
  return `${agent.name} ${agent.version ?? '(version not recorded)'}`;
}

/** Who ran a run's steps, as every first line says it: the agent and its version beside the model. */
export function ranBy(model: string, agent: RunAgent | undefined): string {
  return agent === undefined ? `model ${model}` : `agent ${agentWords(agent)}, model ${model}`;
}

/** How many of an external agent's steps after the first were read for carrying the earlier ones, and how many did not. */
export interface Conversations {
  read: number;
  separate: number;
}

/**
 * Said wherever a run is named (its last screen, `show`, `compare`, the report) when some of an
 * external agent's steps ran as new conversations: those steps were not the rung's task, which
 * leans on what the earlier steps found. Nothing when every step carried the earlier ones.
 */
export function conversationsSentence(c: Conversations | undefined): string | null {
  if (c === undefined || c.separate === 0) return null;
  const all = c.separate === c.read;
  return `Separate conversations: ${all ? `every step after the first (${c.separate})` : `${c.separate} of ${c.read} steps after the first`} ` +
    'began as a new conversation (its first model request did not carry the earlier steps\' prompts and tool results), ' +
    'so the agent did it without what the earlier steps found; an agent file keeps the conversation with continue (docs/agent.md).';
}

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
  return rate === null ? 'n/a' : `${roundHalfAway(rate * 100)}%`;
}

export function signedPoints(difference: number): string {
  const points = shownPoints(difference);
  return `${points > 0 ? '+' : ''}${points}`;
}

/**
 * An end of a rate difference's interval, in points. Whole points, except an end that is not 0
 * but rounds to it: that one gets the first digit that shows its side (+0.3, -0.02), so an
 * interval the test puts clear of 0 never reads as touching it.
 */
export function signedBound(difference: number): string {
  if (shownPoints(difference) !== 0 || difference === 0) return signedPoints(difference);
  const points = difference * 100;
  const digits = Math.min(20, -Math.floor(Math.log10(Math.abs(points))));
  return `${points > 0 ? '+' : '-'}${Math.abs(points).toFixed(digits)}`;
}

/**
 * A p-value to two decimals (three below 0.01), with more where those would print the 0.05
 * the verdict is decided at: 0.0496 is `p = 0.0496`, never `p = 0.05` beside a verdict.
 */
export function pValue(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  let digits = p < 0.01 ? 3 : 2;
  while (Number(p.toFixed(digits)) === SIGNIFICANCE && digits < 20) digits += 1;
  return `p = ${p.toFixed(digits)}`;
}

/** A count or a time, in its unit: ms below a second, seconds with one decimal above. */
export function quantity(value: number, unit: CountComparison['unit']): string {
  const shown = shownQuantity(value, unit);
  if (unit === 'ms') return Math.abs(shown) < 1000 ? `${shown} ms` : `${(shown / 1000).toFixed(1)} s`;
  if (unit === 'score') return shown.toFixed(2);
  return grouped(shown);
}

/** A signed count or time as shown: `+5`, `-1.2 s`, and `0` (never `+0` or `-0`). */
export function signedQuantity(value: number, unit: CountComparison['unit']): string {
  return `${shownQuantity(value, unit) > 0 ? '+' : ''}${quantity(value, unit)}`;
}

function change(value: number, unit: CountComparison['unit']): string {
  const [less, more] = unit === 'ms' ? ['shorter', 'longer'] : unit === 'score' ? ['lower', 'higher'] : ['fewer', 'more'];
  const shown = shownQuantity(value, unit);
  if (shown === 0) return unit === 'ms' ? '0 ms' : 'no change';
  return `${quantity(Math.abs(value), unit)} ${shown < 0 ? less : more}`;
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
  const head = `${m.label} ${signedPoints(d.estimate)} points (95% CI ${signedBound(d.lower)} to ${signedBound(d.upper)}`;
  if (m.verdict !== 'unclear') return `${head}; ${pValue(m.p)})`;
  const settle = settleText(m.settleMultiple);
  return `${head}), ${NOISE} (${pValue(m.p)})${settle === null ? '' : `; ${settle}`}`;
}

/** Counts of calls and rounds read best per 10 passes (small whole numbers); tokens per pass. */
export function countScale(m: CountComparison): { factor: number; per: string } {
  return scaleOf(m.unit);
}

function countSentence(m: CountComparison): string {
  const { factor, per } = countScale(m);
  const pairs = plural(m.pairs, `paired ${m.pairsOf === 'passes' ? 'pass' : 'step-run'}`, `paired ${m.pairsOf}`);
  // The same figures as the table's A and B columns: the statistic, at the table's scale.
  const stat = m.statistic;
  const sides = `A ${quantity((m.a[stat] ?? 0) * factor, m.unit)}, B ${quantity((m.b[stat] ?? 0) * factor, m.unit)}` +
    `${m.unit === 'ms' ? '' : ` ${per}`} (${stat}s) over ${pairs}`;
  if (m.verdict === 'no_pairs') return `${m.label}: no pairs to compare`;
  if (m.verdict === 'same') return m.identical ? `${m.label} the same in every pair (${sides})` : `${m.label}: no difference at the precision shown (${sides})`;
  const d = m.difference!;
  const at = (x: number): string => change(x * factor, m.unit);
  const interval = d.lower === d.upper ? `every resample ${at(d.lower)}` : `95% CI ${at(d.lower)} to ${at(d.upper)}`;
  const head = `${m.label}: ${at(d.estimate)} ${per} (${stat} of paired differences, ${interval}`;
  return m.verdict === 'unclear' ? `${head}), ${NOISE} (${sides})` : `${head}; ${sides})`;
}

/**
 * A metric whose every figure, as shown, is zero in both arms (no dead calls anywhere, answers
 * under a millisecond from the end): its row says nothing, so it is left out and named instead.
 * Never the step pass rate, the figure every report leads with.
 */
export function carriesNothing(m: MetricComparison): boolean {
  if (m.metric === 'step_pass_rate') return false;
  if (m.verdict === 'no_pairs') return true;
  if (m.verdict !== 'same') return false;
  if (m.kind === 'proportion') return m.a.count === 0 && m.b.count === 0;
  const { factor } = countScale(m);
  const zero = (x: number | null) => x === null || shownQuantity(x * factor, m.unit) === 0;
  return zero(m.a[m.statistic]) && zero(m.b[m.statistic]) && (m.difference === null || (zero(m.difference.lower) && zero(m.difference.upper)));
}

/** The one line naming the metrics left out by carriesNothing, or null. */
export function leftOutMetrics(metrics: readonly MetricComparison[]): string | null {
  const left = metrics.filter(carriesNothing);
  const zero = left.filter((m) => m.verdict !== 'no_pairs').map((m) => (m.kind === 'count' && m.unit === 'ms' ? `${m.label} (under a millisecond)` : m.label));
  const none = left.filter((m) => m.verdict === 'no_pairs').map((m) => m.label);
  const parts = [...(zero.length > 0 ? [`zero in both arms: ${zero.join(', ')}`] : []), ...(none.length > 0 ? [`no pairs to compare: ${none.join(', ')}`] : [])];
  return parts.length === 0 ? null : `Not shown, ${parts.join('; ')}.`;
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
