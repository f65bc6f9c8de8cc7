// What `ladder rescore` says and writes: the step-runs whose verdict flipped, per rung, arm and
// step; the checks it could not judge again and how many step-runs that touches; and the
// rescored summary, written beside the run's own summary.json.
import { writeOutputFile } from './outputFile.ts';
import { compareLoaded } from './compare.ts';
import { renderComparison } from './output.ts';
import { runDocument } from './render/document.ts';
import { renderTerminal } from './render/text.ts';
import { rescoreRun } from './rescore.ts';
import type { RescoreOptions, RescoreReport, RescoreResult } from './rescore.ts';
import type { RunSummary } from './summary.ts';
import { armsOf, stableNumbers, summarizeLoaded } from './summary.ts';
import { plural } from './words.ts';

export const RESCORED_SUMMARY = 'summary.rescored.json';

/** summary.json's format for the rescored figures, with what rescoring did under `rescore`. */
export type RescoredSummary = RunSummary & { rescore: RescoreReport };

export function rescoredSummary(result: RescoreResult): RescoredSummary {
  return { ...summarizeLoaded(result.rescored), rescore: result.report };
}

export function writeRescoredSummary(file: string, summary: RescoredSummary): void {
  writeOutputFile('--out', file, `${JSON.stringify(summary, stableNumbers, 2)}\n`);
}

const list = (passes: number[]): string => `${passes.length === 1 ? 'pass' : 'passes'} ${passes.join(', ')}`;

/** The lines printed before the comparison. */
export function rescoreLines(result: RescoreResult, written: string): string[] {
  const { report } = result;
  const files = report.rungFiles.map((f) => (f.file === null ? `${f.rung} (no file)` : `${f.file}${f.changed ? ' (changed since the run)' : ''}`));
  const lines = [`rescored ${result.recorded.manifest.runId}, ${plural(report.stepRuns, 'step-run')}, with ${files.join(', ')}`];
  lines.push(...report.rungNotes);
  // Flips grouped by rung, arm, step, direction and reason: one line each.
  const groups = new Map<string, { head: string; why: string; passes: number[] }>();
  for (const f of report.flipped) {
    const head = `${f.rung}, arm ${f.arm}: step ${f.step} ${f.to === 'failed' ? 'passed -> failed' : 'failed -> passed'}`;
    const key = `${head}\u0000${f.why}`;
    const group = groups.get(key) ?? { head, why: f.why, passes: [] };
    group.passes.push(f.pass);
    groups.set(key, group);
  }
  for (const g of groups.values()) lines.push(`${g.head} in ${list(g.passes)}${g.why === '' ? '' : `: ${g.why}`}`);
  if (report.flipped.length === 0) lines.push('no step-run changed its verdict');
  // Checks not judged again, under one line per reason: which check, of which step, in how many step-runs.
  const reasons = [...new Set(report.notJudged.map((n) => n.why))];
  for (const why of reasons) {
    lines.push(`not re-evaluated, ${why}:`);
    for (const n of report.notJudged.filter((x) => x.why === why)) lines.push(`  ${n.rung} step ${n.step} ${n.check} in ${plural(n.stepRuns, 'step-run')}`);
  }
  for (const problem of report.snapshotProblems) lines.push(`snapshot unreadable: ${problem}`);
  if (report.kept.length > 0) {
    const keep = report.kept.length === 1 ? 'step-run keeps its recorded verdict' : 'step-runs keep their recorded verdicts';
    lines.push(`${report.kept.length} ${keep}, which a check not re-evaluated could change (listed under rescore.kept in ${written})`);
  }
  lines.push(`wrote ${written}`);
  return lines;
}

/**
 * `ladder rescore`: judges the run again, writes the rescored summary to `file`, and returns
 * the lines to print and the comparison of the rescored arms (one arm: its figures).
 */
export async function rescoreOutput(dir: string, options: RescoreOptions & { file: string; shownAs: string }): Promise<{ lines: string[]; text: string }> {
  const result = await rescoreRun(dir, options);
  const summary = rescoredSummary(result);
  writeRescoredSummary(options.file, summary);
  const { rescored } = result;
  const text = armsOf(rescored).length > 1
    ? await renderComparison(compareLoaded(rescored, undefined), [rescored], 'table')
    : renderTerminal(runDocument(summary, null));
  return { lines: rescoreLines(result, options.shownAs), text: text.trimEnd() };
}
