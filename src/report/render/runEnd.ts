// What `ladder run` prints when it ends: one screen, not the whole comparison. The synthetic
// notice, the headline, the step pass rate per rung, what went wrong with the command that shows
// it, and the commands to run next. Every figure is a cell or sentence of the full report,
// taken from the same builders (document.ts, words.ts), so the two never disagree; `ladder
// compare` and `ladder run --summary full` print the rest.
import { join } from 'node:path';
import type { ArmComparison, ComparisonReport } from '../compare.ts';
import { passErrored } from '../metrics.ts';
import type { PassRecord } from '../passes.ts';
import type { RunSummary } from '../summary.ts';
import { carriesNothing, conversationsSentence, metricSentence, plural, ranBy } from '../words.ts';
import type { Table } from './document.ts';
import { rungTable, VERDICT } from './document.ts';
import { summaryTables } from './summaryTables.ts';
import { terminalTable, wrap } from './text.ts';

export interface RunEnd {
  /** Which agent at which version, beside the model, when an external agent ran the steps; null for the built-in loop. */
  who: string | null;
  /** The agent's steps that ran as new conversations, when some did (words.ts, conversationsSentence). */
  conversations: string | null;
  notice: string | null;
  /** Per comparison (or the one arm): its headline and its rows per rung. */
  parts: { headline: string[]; table: Table }[];
  /** At most three lines, each with the command that shows more. */
  problems: string[];
  next: { command: string; what: string }[];
}

export interface RunEndInput {
  summary: RunSummary;
  /** The comparison of the run's arms; null for a run of one arm. */
  comparison: ComparisonReport | null;
  passes: readonly PassRecord[];
  /** The results folder as the user should type it, and the command that runs Ladder. */
  where: string;
  ladder: string;
}

/** Columns of the full table, in this order: the same cells, fewer of them. */
function project(t: Table, columns: string[], caption: string, names: string[] = columns): Table {
  const at = columns.map((c) => t.columns.indexOf(c));
  if (at.includes(-1)) throw new Error(`runEnd: the table "${t.caption}" has no column ${columns[at.indexOf(-1)]}`);
  return { caption, columns: names, align: at.map((i) => t.align[i]!), rows: t.rows.map((r) => at.map((i) => r[i] ?? '')) };
}

/** The other metrics by verdict, named only: their figures are in the full comparison. */
function othersLine(c: ArmComparison): string | null {
  const named = [
    ...c.metrics.filter((m) => m.metric !== 'step_pass_rate' && !carriesNothing(m)).map((m) => ({ label: m.label, verdict: m.verdict })),
    ...(c.cost.status === 'compared' ? [{ label: c.cost.label, verdict: c.cost.verdict }] : []),
  ];
  const groups = (['better', 'worse', 'unclear'] as const)
    .map((v) => ({ v, labels: named.filter((m) => m.verdict === v).map((m) => m.label) }))
    .filter((g) => g.labels.length > 0)
    .map((g) => `${VERDICT[g.v]}${g.v === 'unclear' ? ' in' : ' on'} ${g.labels.join(', ')}`);
  return groups.length === 0 ? null : `Other metrics: ${groups.join('; ')}.`;
}

function comparisonPart(c: ArmComparison): RunEnd['parts'][number] {
  const step = c.metrics.find((m) => m.metric === 'step_pass_rate')!;
  // The start of the full report's summary sentence (words.ts summarySentence), word for word.
  const headline = `${c.label} (${plural(c.shared.passes, 'paired pass', 'paired passes')}): ${metricSentence(step)}.`;
  const others = othersLine(c);
  const table = project(rungTable(c), ['rung', 'A', 'B', 'B - A (95% CI)', 'verdict'],
    `Step pass rate per rung, B (${c.b.arm}) minus A (${c.a.arm}), paired`, ['rung', `A: ${c.a.arm}`, `B: ${c.b.arm}`, 'B - A (95% CI)', 'verdict']);
  return { headline: others === null ? [headline] : [headline, others], table };
}

/** A run of one arm: its own step pass rate, overall and per rung, from its outcomes table. */
function armPart(s: RunSummary): RunEnd['parts'][number] {
  const arm = s.arms[0]!;
  const outcomes = summaryTables(arm)[0]!;
  const columns = ['rung', 'attempts', 'errored (steps/passes)', 'step pass rate (95% CI)'];
  const all = project(outcomes, columns, `Step pass rate per rung (arm ${arm.arm})`);
  const overall = all.rows.find((r) => r[0] === 'all rungs');
  // Step rows (indented) and the overall row are left to the full report and the headline.
  const table = { ...all, rows: all.rows.filter((r) => !r[0]!.startsWith(' ') && r !== overall) };
  return { headline: [`Arm ${arm.arm} (${plural(s.traces.passes, 'pass', 'passes')}): step pass rate ${overall?.[3] ?? '-'}.`], table };
}

function problemLines(input: RunEndInput, details: string): string[] {
  const { summary: s, passes, where, ladder } = input;
  const lines: string[] = [];
  const errored = s.arms.reduce((n, arm) => n + (arm.overall.erroredPasses ?? 0), 0);
  const first = passes.find(passErrored);
  if (errored > 0 && first !== undefined) {
    const name = `${first.rung} ${first.arm} pass ${first.pass}`;
    const why = 'a provider or harness failure, left out of every rate';
    lines.push(errored === 1
      ? `Errored: 1 pass, ${name} (${why}): ${ladder} show ${where} ${first.rung} --arm ${first.arm} --pass ${first.pass}`
      : `Errored: ${errored} passes, the first ${name} (${why}): ${ladder} show ${where} lists them`);
  }
  const t = s.traces;
  const lost = [
    ...(t.damaged > 0 ? [plural(t.damaged, 'damaged pass', 'damaged passes')] : []),
    ...(t.incomplete > 0 ? [`${plural(t.incomplete, 'pass', 'passes')} cut short`] : []),
  ];
  if (lost.length > 0) lines.push(`Left out of every figure: ${lost.join(', ')} (their traces do not read whole): ${ladder} show ${where} lists them`);
  const other = [
    ...(t.duplicates > 0 ? [plural(t.duplicates, 'duplicate pass', 'duplicate passes')] : []),
    ...(t.fileStates.empty > 0 ? [plural(t.fileStates.empty, 'empty trace file')] : []),
    ...(t.unfinishedSteps > 0 ? [plural(t.unfinishedSteps, 'unfinished step')] : []),
  ];
  if (other.length > 0) lines.push(`Ignored: ${other.join(', ')}: ${details}`);
  return lines;
}

/** The last screen of `ladder run`, from the figures its full report prints. */
export function runEnd(input: RunEndInput): RunEnd {
  const { summary, comparison, where, ladder } = input;
  const compare = comparison === null ? [] : [{ command: `${ladder} compare ${where}`, what: 'every metric, and each arm\'s own tables' }];
  const details = comparison === null ? `${ladder} report ${where} gives them` : `${ladder} compare ${where} gives them`;
  return {
    who: summary.agent === undefined ? null : `Run ${summary.runId}: ${ranBy(summary.model.spec, summary.agent)}.`,
    conversations: conversationsSentence(summary.conversations),
    notice: summary.notice,
    parts: comparison === null ? [armPart(summary)] : comparison.comparisons.map(comparisonPart),
    problems: problemLines(input, details),
    next: [
      { command: `${ladder} show ${where}`, what: 'the passes that did not pass, and why; add a rung for one as a transcript' },
      { command: `${ladder} report ${where}`, what: `HTML with plots and transcripts (writes ${join(where, 'report.html')})` },
      ...compare,
    ],
  };
}

/** The last screen as terminal lines. Problem and command lines are never wrapped: they paste back whole. */
export function renderRunEnd(end: RunEnd): string[] {
  const out: string[] = [];
  if (end.who !== null) out.push(...wrap(end.who));
  if (end.conversations !== null) out.push(...wrap(`NOTE: ${end.conversations}`), '');
  if (end.notice !== null) out.push(...wrap(`NOTE: ${end.notice}`), '');
  for (const part of end.parts) {
    for (const p of part.headline) out.push(...wrap(p));
    out.push('', ...terminalTable(part.table), '');
  }
  if (end.problems.length > 0) out.push(...end.problems, '');
  const width = Math.max(...end.next.map((n) => n.command.length));
  out.push('Next:', ...end.next.map((n) => `  ${n.command.padEnd(width)}  ${n.what}`));
  return out;
}
