// What every format says, as headings, paragraphs and tables; the terminal, Markdown and HTML
// renderers only lay it out, so the three never disagree on a figure.
import type { ArmComparison, ComparisonReport } from '../compare.ts';
import { traceNotes } from '../compare.ts';
import type { MetricComparison } from '../paired.ts';
import type { ArmSummary, RunSummary } from '../summary.ts';
import { carriesNothing, countScale, leftOutMetrics, percent, plural, pValue, quantity, ranBy, signedBound, signedPoints, signedQuantity } from '../words.ts';
import { formatUsd } from '../../models/prices.ts';
import type { CostComparison } from '../costCompare.ts';
import { costLine, costTimeTables } from './costTimeTables.ts';
import { summaryTables } from './summaryTables.ts';
import { ownServers, toolUseComparison, toolUseTable } from './toolUseTables.ts';

export interface Table {
  caption: string;
  columns: string[];
  /** Per column: numbers read best right-aligned. */
  align: ('left' | 'right')[];
  rows: string[][];
  /** One line under the table: what it leaves out, and why. */
  note?: string;
}

export interface Section {
  heading: string;
  paragraphs: string[];
  tables: Table[];
}

export interface Document {
  title: string;
  /** Said first and plainly in every format (the synthetic-agent notice). */
  notice: string | null;
  intro: string[];
  sections: Section[];
}

/** A verdict as every format words it. */
export const VERDICT: Record<MetricComparison['verdict'], string> = {
  better: 'B better', worse: 'B worse', unclear: 'no clear difference', same: 'same', no_pairs: 'no pairs',
};

function metricRow(m: MetricComparison): string[] {
  if (m.kind === 'proportion') {
    const side = (x: { count: number; n: number }): string => `${x.count}/${x.n} ${percent(x.n === 0 ? null : x.count / x.n)}`;
    const d = m.difference;
    const diff = d === null ? '-' : `${signedPoints(d.estimate)} pts (${signedBound(d.lower)} to ${signedBound(d.upper)})`;
    return [m.label, `${m.pairs} ${m.pairsOf}`, side(m.a), side(m.b), diff, m.pairs === 0 ? '-' : pValue(m.p).replace('p = ', ''), VERDICT[m.verdict]];
  }
  const { factor, per } = countScale(m);
  const value = (x: number | null): string => (x === null ? '-' : quantity(x * factor, m.unit));
  const signed = (x: number): string => signedQuantity(x * factor, m.unit);
  const stat = m.statistic;
  const d = m.difference;
  const diff = d === null ? '-' : `${signed(d.estimate)} (${signed(d.lower)} to ${signed(d.upper)})`;
  return [`${m.label} ${per} (${stat})`, `${m.pairs} ${m.pairsOf}`, value(m.a[stat]), value(m.b[stat]), diff, '-', VERDICT[m.verdict]];
}

const note = (text: string | null): { note?: string } => (text === null ? {} : { note: text });

/** Cost per passed step as a row of the paired metrics; empty when there is no cost to compare. */
function costRows(c: CostComparison): string[][] {
  if (c.status !== 'compared') return [];
  const side = (x: CostComparison['a']): string => (x === null || x.perPassedStep === null ? '-' : formatUsd(x.perPassedStep));
  const signed = (x: number): string => `${x > 0 ? '+' : ''}${formatUsd(x)}`;
  const d = c.difference;
  const diff = d === null ? '-' : `${signed(d.estimate)} (${signed(d.lower)} to ${signed(d.upper)})`;
  return [[`${c.label} (ratio of sums)`, `${c.pairs} ${c.pairsOf}`, side(c.a), side(c.b), diff, '-', VERDICT[c.verdict]]];
}

function costParagraph(c: CostComparison): string[] {
  if (c.status !== 'compared') return [`Cost: not compared; ${c.note}.`];
  return c.note === null ? [] : [`Cost: ${c.note}.`];
}

/** A run's spending, summed over its arms; null when any part has no price. */
function spentOf(s: RunSummary): number | null {
  let total = 0;
  for (const arm of s.arms) {
    if (arm.overall.cost.usd === null) return null;
    total += arm.overall.cost.usd;
  }
  return total;
}

/** The step pass rate per rung, paired: the full report's table and the rows of the run's last screen. */
export function rungTable(c: ArmComparison): Table {
  return {
    caption: 'Step pass rate per rung, paired',
    columns: ['rung', 'pairs', 'A', 'B', 'B - A (95% CI)', 'p', 'verdict'],
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
    rows: c.rungs.map((r) => [r.rung, ...metricRow(r.stepPassRate).slice(1)]),
  };
}

/** The arm a comparison names, in the runs compared. */
function armOf(summaries: readonly RunSummary[], side: { runId: string; arm: string }): ArmSummary | undefined {
  return summaries.find((s) => s.runId === side.runId)?.arms.find((arm) => arm.arm === side.arm);
}

/**
 * The per-tool table goes first when the runs call the tools of one server of their own (not
 * counting the harness's): the report is then a server author's, and which tool agents misuse
 * is the first thing they read. Otherwise it follows the rung table.
 */
function comparisonSection(c: ArmComparison, summaries: readonly RunSummary[]): Section {
  const [a, b] = [armOf(summaries, c.a), armOf(summaries, c.b)];
  const tools = a === undefined || b === undefined ? [] : toolUseComparison(a, b, { a: `${c.a.runId}/${c.a.arm}`, b: `${c.b.runId}/${c.b.arm}` });
  const authorFirst = ownServers([a, b].filter((x): x is ArmSummary => x !== undefined)).length === 1;
  const metrics: Table = {
    caption: `Paired metrics, B (${c.b.runId}/${c.b.arm}) minus A (${c.a.runId}/${c.a.arm}), 95% intervals`,
    columns: ['metric', 'pairs', 'A', 'B', 'B - A (95% CI)', 'p', 'verdict'],
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
    rows: [...c.metrics.filter((m) => !carriesNothing(m)).map(metricRow), ...costRows(c.cost)],
    ...note(leftOutMetrics(c.metrics)),
  };
  const shared = `Shared: ${plural(c.shared.rungs.length, 'rung')} (${c.shared.rungs.join(', ') || 'none'}), ` +
    `${plural(c.shared.passes, 'paired pass', 'paired passes')}, ${plural(c.shared.stepRuns, 'paired step-run')}.`;
  return {
    heading: c.label,
    paragraphs: [c.summary, shared, c.leftOutText ?? 'Left out: nothing; every pass and step-run has its pair.', ...costParagraph(c.cost)],
    tables: authorFirst ? [...tools, metrics, rungTable(c)] : [metrics, rungTable(c), ...tools],
  };
}

function runLine(name: string, s: RunSummary): string {
  const t = s.traces;
  // "Run: run x" says run twice; "A: run x" names the side.
  return `${name === 'Run' ? 'Run' : `${name}: run`} ${s.runId} (${s.status}), ${ranBy(s.model.spec, s.agent)}, git ${s.gitSha?.slice(0, 12) ?? 'unknown'}, ` +
    `${plural(t.passes, 'complete pass', 'complete passes')} from ${plural(t.files, 'trace')} (${plural(t.events, 'event')}).`;
}

const PROBLEMS_SHOWN = 3; // the rest are in the JSON (summaries[].traces.problems)

function firstProblems(name: string, s: RunSummary): string[] {
  const shown = s.traces.problems.slice(0, PROBLEMS_SHOWN).map((p) => `${name}: ${p}`);
  const more = s.traces.problems.length - shown.length;
  return more > 0 ? [...shown, `${name}: ${plural(more, 'more problem')} in the JSON output (traces.problems).`] : shown;
}

export function summarySections(s: RunSummary, name: string): Section[] {
  return s.arms.map((arm) => ({
    heading: `${name}: ${s.runId}, arm ${arm.arm}`,
    paragraphs: [],
    tables: [...summaryTables(arm), ...toolUseTable(arm), ...costTimeTables(arm, s.pricing, s.model.spec)],
  }));
}

/** `ladder compare`: the comparisons first, then each side's own figures. */
export function comparisonDocument(r: ComparisonReport): Document {
  const runs = r.kind === 'runs' ? [['A', r.summaries[0]!], ['B', r.summaries[1]!]] as const : [['Run', r.summaries[0]!]] as const;
  const title = r.kind === 'runs' ? `Ladder comparison: ${r.b.runId} (B) against ${r.a.runId} (A)` : `Ladder comparison of the arms of ${r.a.runId}`;
  return {
    title,
    notice: r.notice,
    intro: [
      ...runs.map(([name, s]) => runLine(name, s)),
      ...runs.map(([name, s]) => costLine(name, s.pricing, spentOf(s), s.traces.passes)),
      ...r.notes,
      ...runs.flatMap(([name, s]) => firstProblems(name, s)),
      `Pairs: pass i of A against pass i of B, same rung and seed. Intervals are 95%; bootstrap seed ${r.seed}.`,
    ],
    sections: [...r.comparisons.map((c) => comparisonSection(c, r.summaries)), ...runs.flatMap(([name, s]) => summarySections(s, name))],
  };
}

/** `ladder report`: one run; its arms compared when it has more than one. */
export function runDocument(s: RunSummary, comparison: ComparisonReport | null): Document {
  return {
    title: `Ladder report: ${s.runId}`,
    notice: s.notice,
    intro: [runLine('Run', s), costLine('Run', s.pricing, spentOf(s), s.traces.passes), ...(comparison?.notes ?? traceNotes(s, 'Run')), ...s.traces.problems],
    sections: [...(comparison?.comparisons.map((c) => comparisonSection(c, [s])) ?? []), ...summarySections(s, 'Run')],
  };
}
