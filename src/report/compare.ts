// `ladder compare`: two runs (before and after, arms matched by name) or the arms of one run
// (each against the baseline, the arm with everything off when there is one).
import { DEFAULT_REPORT_SEED } from './choices.ts';
import type { MetricComparison, MetricName, ProportionComparison } from './paired.ts';
import { COMPARED_METRICS, compareMetrics, perRung } from './paired.ts';
import type { PriceTable } from '../models/prices.ts';
import { compareCost } from './costCompare.ts';
import type { CostComparison } from './costCompare.ts';
import type { LeftOut } from './pairing.ts';
import { pair } from './pairing.ts';
import type { LoadedRun, RunSummary } from './summary.ts';
import { agentField, armsOf, loadRun, summarizeLoaded, SYNTHETIC_NOTICE } from './summary.ts';
import { ReportInputError } from '../results/read.ts';
import { agentWords, conversationsSentence, leftOutSentence, plural, summarySentence } from './words.ts';
import type { RunAgent } from './words.ts';

export const COMPARISON_FORMAT = 1;
export { DEFAULT_REPORT_SEED };

export interface RunInfo {
  runId: string;
  dir: string;
  model: { spec: string; synthetic: boolean };
  /** The external agent that ran the steps, and its version; absent for the built-in loop. */
  agent?: RunAgent;
  status: string;
  ladderVersion: string;
  gitSha: string | null;
}

export interface ArmComparison {
  /** e.g. `on against off`, or `after against before, arm on`. */
  label: string;
  a: { runId: string; arm: string };
  b: { runId: string; arm: string };
  shared: { rungs: string[]; passes: number; stepRuns: number };
  leftOut: LeftOut;
  metrics: MetricComparison[];
  rungs: { rung: string; stepPassRate: ProportionComparison }[];
  /** Metrics on which B is significantly worse than A (p < 0.05, or a 95% interval clear of 0). */
  worse: MetricName[];
  summary: string;
  leftOutText: string | null;
  /** Cost per passed step, paired; says why when there is no cost to compare. */
  cost: CostComparison;
}

export interface ComparisonReport {
  format: number;
  kind: 'arms' | 'runs';
  notice: string | null;
  seed: number;
  a: RunInfo;
  b: RunInfo;
  comparisons: ArmComparison[];
  /** What a reader must know before trusting the figures (arms or rungs that differ, ignored traces). */
  notes: string[];
  summaries: RunSummary[];
}

export interface CompareOptions {
  /** Bootstrap seed (DEFAULT_REPORT_SEED). */
  seed?: number;
  /** `--prices`: reprice both runs with this table instead of the prices they recorded. */
  prices?: PriceTable;
}

function info(run: LoadedRun): RunInfo {
  const m = run.manifest;
  return {
    runId: m.runId, dir: run.dir, model: { spec: m.model.spec, synthetic: m.model.synthetic === true }, ...agentField(m),
    status: m.status, ladderVersion: m.ladderVersion, gitSha: m.gitSha,
  };
}

function compareSides(label: string, a: LoadedRun, armA: string, b: LoadedRun, armB: string, seed: number): ArmComparison {
  const pairing = pair(a.passes.filter((p) => p.arm === armA), b.passes.filter((p) => p.arm === armB));
  const metrics = compareMetrics(pairing, seed);
  return {
    label,
    a: { runId: a.manifest.runId, arm: armA },
    b: { runId: b.manifest.runId, arm: armB },
    shared: { rungs: pairing.rungs, passes: pairing.passes.length, stepRuns: pairing.steps.length },
    leftOut: pairing.leftOut,
    metrics,
    rungs: perRung(pairing),
    worse: metrics.filter((m) => m.verdict === 'worse').map((m) => m.metric),
    summary: summarySentence(label, pairing.passes.length, metrics),
    leftOutText: leftOutSentence(pairing.leftOut, metrics),
    cost: compareCost(pairing, a.pricing, b.pricing, seed),
  };
}

/** What was ignored reading a run's traces, and a status other than complete. */
export function traceNotes(s: RunSummary, name: string): string[] {
  const t = s.traces;
  const parts: string[] = [];
  if (t.incomplete > 0) parts.push(`${plural(t.incomplete, 'incomplete pass', 'incomplete passes')} ignored`);
  if (t.duplicates > 0) parts.push(`${plural(t.duplicates, 'duplicate pass', 'duplicate passes')} ignored`);
  if (t.damaged > 0) parts.push(`${plural(t.damaged, 'damaged pass', 'damaged passes')} left out`);
  if (t.fileStates.empty > 0) parts.push(`${plural(t.fileStates.empty, 'empty trace file')} ignored`);
  if (t.unfinishedSteps > 0) parts.push(`${plural(t.unfinishedSteps, 'unfinished step')} ignored`);
  if (t.harnessErrors > 0) parts.push(`${plural(t.harnessErrors, 'pass', 'passes')} ended by a harness error (counted as errored)`);
  if (s.status !== 'complete') parts.push(`status ${s.status}`);
  const conversations = conversationsSentence(s.conversations);
  return [
    ...(parts.length === 0 ? [] : [`${name} (${s.runId}): ${parts.join(', ')}.`]),
    ...(conversations === null ? [] : [`${name} (${s.runId}): ${conversations}`]),
    ...contentNotes(s, name),
  ];
}

/** What the traces hold of the conversation, when it is not all of it. */
function contentNotes(s: RunSummary, name: string): string[] {
  const { full, redacted, none } = s.traces.content;
  const notes: string[] = [];
  if (redacted > 0) {
    notes.push(`${name} (${s.runId}): ${redacted === s.traces.passes ? 'redacted' : `${plural(redacted, 'pass', 'passes')} redacted`} ` +
      '(--redact content): traces hold hashes and sizes, not the conversation.');
  }
  if (none > 0 && full + redacted > 0) {
    notes.push(`${name} (${s.runId}): ${plural(none, 'pass', 'passes')} in trace format 1, which holds no conversation.`);
  } else if (none > 0) {
    notes.push(`${name} (${s.runId}): trace format 1, which holds no conversation (no transcripts, no replay).`);
  }
  return notes;
}

function runNotes(a: LoadedRun, b: LoadedRun): string[] {
  const notes: string[] = [];
  if (a.manifest.model.spec !== b.manifest.model.spec) {
    notes.push(`The runs used different models: ${a.manifest.model.spec} (A) and ${b.manifest.model.spec} (B).`);
  }
  const agentA = agentField(a.manifest).agent;
  const agentB = agentField(b.manifest).agent;
  if (JSON.stringify(agentA) !== JSON.stringify(agentB)) {
    const said = (agent: RunAgent | undefined): string => (agent === undefined ? "Ladder's own loop" : agentWords(agent));
    notes.push(`The runs were made by different agents: ${said(agentA)} (A) and ${said(agentB)} (B); pairs still share rung, pass and seed.`);
  }
  const shaB = new Map(b.manifest.rungs.map((r) => [r.name, r.sha256]));
  const changed = a.manifest.rungs.filter((r) => shaB.has(r.name) && shaB.get(r.name) !== r.sha256).map((r) => r.name);
  if (changed.length > 0) notes.push(`Rung files changed between the runs: ${changed.join(', ')}; their pairs compare different tasks.`);
  const armsB = armsOf(b);
  const onlyA = armsOf(a).filter((arm) => !armsB.includes(arm));
  const onlyB = armsB.filter((arm) => !armsOf(a).includes(arm));
  if (onlyA.length > 0) notes.push(`Arms only in A, not compared: ${onlyA.join(', ')}.`);
  if (onlyB.length > 0) notes.push(`Arms only in B, not compared: ${onlyB.join(', ')}.`);
  return notes;
}

/** The baseline of one run: the arm with every mechanism off, else the first arm. */
export function baselineArm(arms: string[]): string {
  return arms.includes('off') ? 'off' : arms[0]!;
}

export function compareLoaded(a: LoadedRun, b: LoadedRun | undefined, options: CompareOptions = {}): ComparisonReport {
  const seed = options.seed ?? DEFAULT_REPORT_SEED;
  const synthetic = a.manifest.model.synthetic === true || b?.manifest.model.synthetic === true;
  const summaries = b === undefined ? [summarizeLoaded(a)] : [summarizeLoaded(a), summarizeLoaded(b)];
  let comparisons: ArmComparison[];
  let notes: string[];
  if (b === undefined) {
    const arms = armsOf(a);
    if (arms.length < 2) {
      throw new ReportInputError(
        `${a.dir}: one arm (${arms[0] ?? 'none'}), nothing to compare; run with --arms on,off, or name a second run to compare against`,
      );
    }
    const base = baselineArm(arms);
    comparisons = arms.filter((arm) => arm !== base).map((arm) => compareSides(`${arm} against ${base}`, a, base, a, arm, seed));
    notes = traceNotes(summaries[0]!, 'Run');
  } else {
    const armsB = armsOf(b);
    const shared = armsOf(a).filter((arm) => armsB.includes(arm));
    if (shared.length === 0) {
      throw new ReportInputError(`${a.dir} and ${b.dir} share no arm (${armsOf(a).join(', ')} against ${armsB.join(', ')}); compare runs made with the same --arms`);
    }
    // Runs of two agents: each side is labelled by its agent, so every sentence says who is B and who A.
    const agentA = agentField(a.manifest).agent;
    const agentB = agentField(b.manifest).agent;
    const side = (run: LoadedRun, agent: RunAgent | undefined): string =>
      (JSON.stringify(agentA) === JSON.stringify(agentB) || agent === undefined ? run.manifest.runId : `${run.manifest.runId} (${agentWords(agent)})`);
    const label = (arm: string): string => `${side(b, agentB)} against ${side(a, agentA)}, arm ${arm}`;
    comparisons = shared.map((arm) => compareSides(label(arm), a, arm, b, arm, seed));
    notes = [...runNotes(a, b), ...traceNotes(summaries[0]!, 'A'), ...traceNotes(summaries[1]!, 'B')];
  }
  return {
    format: COMPARISON_FORMAT,
    kind: b === undefined ? 'arms' : 'runs',
    notice: synthetic ? SYNTHETIC_NOTICE : null,
    seed,
    a: info(a),
    b: info(b ?? a),
    comparisons,
    notes,
    summaries,
  };
}

export async function compareRuns(dirA: string, dirB?: string, options: CompareOptions = {}): Promise<ComparisonReport> {
  const load = { ...(options.prices === undefined ? {} : { prices: options.prices }) };
  const a = await loadRun(dirA, load);
  const b = dirB === undefined ? undefined : await loadRun(dirB, load);
  return compareLoaded(a, b, options);
}

/** Checks gate names before any work, so a typo fails fast with the list of valid ones. */
export function parseGates(names: readonly string[]): MetricName[] {
  const gates = names.flatMap((n) => n.split(',')).map((n) => n.trim()).filter((n) => n !== '');
  for (const gate of gates) {
    if (!(COMPARED_METRICS as readonly string[]).includes(gate)) {
      throw new ReportInputError(`--gate ${gate}: not a compared metric; use one of ${COMPARED_METRICS.join(', ')}`);
    }
  }
  return gates as MetricName[];
}

/** The gated metrics (the step pass rate always) on which some B is significantly worse than its A. */
export function gateFailures(report: ComparisonReport, gates: readonly MetricName[]): { label: string; metric: MetricName }[] {
  const checked = new Set<MetricName>(['step_pass_rate', ...gates]);
  return report.comparisons.flatMap((c) => c.worse.filter((m) => checked.has(m)).map((metric) => ({ label: c.label, metric })));
}
