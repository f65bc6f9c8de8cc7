// What the commands print: a comparison in any format, and the HTML report of one run.
import type { CompareOptions, ComparisonReport } from './compare.ts';
import { compareLoaded } from './compare.ts';
import { comparisonDocument, runDocument } from './render/document.ts';
import { renderHtml } from './render/html.ts';
import { plots } from './render/plots.ts';
import { renderMarkdown, renderTerminal } from './render/text.ts';
import { renderRunEnd, runEnd } from './render/runEnd.ts';
import { passesHtml, PASSES_STYLE } from './render/transcriptHtml.ts';
import { passGrids } from './transcript/run.ts';
import type { LoadedRun } from './summary.ts';
import type { Format } from './choices.ts';
import { armsOf, loadRun, stableNumbers, summarizeLoaded } from './summary.ts';

export { FORMATS, type Format } from './choices.ts';

/** The comparison as JSON (docs/report.md "compare --format json"): two-space, final newline. */
export function comparisonJson(report: ComparisonReport): string {
  return `${JSON.stringify(report, stableNumbers, 2)}\n`;
}

export async function renderComparison(report: ComparisonReport, runs: LoadedRun[], format: Format): Promise<string> {
  if (format === 'json') return comparisonJson(report);
  const doc = comparisonDocument(report);
  if (format === 'table') return renderTerminal(doc);
  if (format === 'md') return renderMarkdown(doc);
  const input = runs.map((run, i) => ({ summary: report.summaries[i]!, passes: run.passes }));
  return renderHtml(doc, plots({ runs: input, comparison: report }));
}

/** `ladder compare <a> [b]`: the report (for the exit code) and its text in `format`. */
export async function compareOutput(
  dirA: string,
  dirB: string | undefined,
  options: CompareOptions & { format?: Format } = {},
): Promise<{ report: ComparisonReport; text: string }> {
  const load = { ...(options.prices === undefined ? {} : { prices: options.prices }) };
  const a = await loadRun(dirA, load);
  const b = dirB === undefined ? undefined : await loadRun(dirB, load);
  const report = compareLoaded(a, b, options);
  return { report, text: await renderComparison(report, b === undefined ? [a] : [a, b], options.format ?? 'table') };
}

/** `ladder report <run>`: one run's HTML, its arms compared when it has two or more, and every pass's transcript. */
export async function runReportHtml(dir: string, options: CompareOptions = {}): Promise<string> {
  const run = await loadRun(dir, { ...(options.prices === undefined ? {} : { prices: options.prices }) });
  const comparison = armsOf(run).length > 1 ? compareLoaded(run, undefined, options) : null;
  const summary = comparison?.summaries[0] ?? summarizeLoaded(run);
  const passes = { style: PASSES_STYLE, body: passesHtml(await passGrids(run, { external: run.manifest.agent !== undefined })) };
  return renderHtml(runDocument(summary, comparison), plots({ runs: [{ summary, passes: run.passes }], comparison }), [passes]);
}

/** The last screen of `ladder run` (render/runEnd.ts): the run in `dir`, shown to the user as `where`. */
export async function runEndLines(dir: string, where: string, ladder: string): Promise<string[]> {
  const run = await loadRun(dir);
  const comparison = armsOf(run).length > 1 ? compareLoaded(run, undefined) : null;
  const summary = comparison?.summaries[0] ?? summarizeLoaded(run);
  return renderRunEnd(runEnd({ summary, comparison, passes: run.passes, where, ladder }));
}
