// summary.json: the metrics of one run per arm, per rung and per step, streamed from its
// traces. The field order here is the file format (docs/report.md "summary.json").
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { priceOf, shippedPrices } from '../models/prices.ts';
import type { PriceTable, Pricing } from '../models/prices.ts';
import type { Metrics } from './metrics.ts';
import { isErrored, metrics, passClean, passErrored } from './metrics.ts';
import type { PassRecord, StepRun, TraceTally } from './passes.ts';
import { emptyTraceTally, readPasses } from './passes.ts';
import type { Manifest } from '../results/manifest.ts';
import { ranBy } from './words.ts';
import type { Conversations, RunAgent } from './words.ts';
import { canonicalArm, listTraces, readManifest } from '../results/read.ts';

export const SUMMARY_FORMAT = 1;

export const SYNTHETIC_NOTICE = 'Synthetic agents exercise the harness; they do not measure any model.';

export interface StepSummary {
  step: number;
  metrics: Metrics;
}

export interface RungSummary {
  rung: string;
  metrics: Metrics;
  steps: StepSummary[];
}

export interface ArmSummary {
  arm: string;
  overall: Metrics;
  rungs: RungSummary[];
}

export interface RunSummary {
  format: number;
  runId: string;
  status: Manifest['status'];
  model: { spec: string; synthetic: boolean };
  /** `--agent`: the external agent that ran the steps, and its version; absent for the built-in loop. */
  agent?: RunAgent;
  /**
   * An external agent's steps after the first read for carrying the earlier steps (step.end
   * `carried`), and how many ran as new conversations; absent when none was read (the built-in
   * loop, one-step rungs, runs recorded before it was).
   */
  conversations?: Conversations;
  /** Set when the model is synthetic: what these figures can and cannot say. */
  notice: string | null;
  ladderVersion: string;
  gitSha: string | null;
  /** Passes per rung and arm the run asked for. */
  passesPlanned: number;
  traces: TraceTally & { passes: number };
  arms: ArmSummary[];
  /** What the model's tokens cost, and where the price comes from (or why there is none). */
  pricing: Pricing;
}

/** A run read back: its manifest and one compact record per complete pass. */
export interface LoadedRun {
  dir: string;
  manifest: Manifest;
  passes: PassRecord[];
  traces: TraceTally & { passes: number };
  pricing: Pricing;
}

export interface LoadOptions {
  /** Reprice the run with this table (`--prices`); by default the price the run recorded, else the shipped table's. */
  prices?: PriceTable;
}

/** The price of a run's tokens: a table given, else the manifest's record, else the shipped table. */
export function pricingOf(manifest: Manifest, prices?: PriceTable): Pricing {
  if (prices === undefined && manifest.model.price !== undefined) return manifest.model.price;
  return priceOf(manifest.model, prices ?? shippedPrices(), manifest.replay?.runId);
}

/** Streams every trace of a run; complete passes only, the first of any duplicate kept. */
export async function loadRun(dir: string, options: LoadOptions = {}): Promise<LoadedRun> {
  const manifest = readManifest(dir);
  const traces = emptyTraceTally();
  const byId = new Map<string, PassRecord>();
  for (const path of listTraces(dir)) {
    await readPasses(dir, path, traces, (pass) => {
      const id = `${pass.rung}\u0000${pass.arm}\u0000${pass.pass}`;
      if (byId.has(id)) traces.duplicates += 1;
      else byId.set(id, pass);
    });
  }
  const armOrder = orderOf(manifest.arms.map(canonicalArm));
  const rungOrder = orderOf(manifest.rungs.map((r) => r.name));
  const passes = [...byId.values()].sort(
    (x, y) => rungOrder(x.rung, y.rung) || armOrder(x.arm, y.arm) || x.pass - y.pass,
  );
  return { dir, manifest, passes, traces: { ...traces, passes: passes.length }, pricing: pricingOf(manifest, options.prices) };
}

/** A step-run's verdict judged again (`ladder rescore`), in place of the one its trace records. */
export interface StepVerdict {
  passed: boolean;
  failedChecks: number;
  answeredAt: number | undefined;
}

export function verdictKey(rung: string, arm: string, pass: number, step: number): string {
  return `${rung}\u0000${arm}\u0000${pass}\u0000${step}`;
}

/**
 * The run with some step-runs' verdicts replaced (keyed by verdictKey, arm canonical). A pass
 * with a replaced step passes when it ended without a harness error and every step passed, as
 * the runner decides it.
 */
export function withVerdicts(run: LoadedRun, verdicts: ReadonlyMap<string, StepVerdict>): LoadedRun {
  const passes = run.passes.map((pass): PassRecord => {
    let changed = false;
    const steps = pass.steps.map((step) => {
      const verdict = verdicts.get(verdictKey(pass.rung, pass.arm, pass.pass, step.step));
      if (verdict === undefined) return step;
      changed = true;
      return { ...step, ...verdict };
    });
    return changed ? { ...pass, steps, passed: pass.error === undefined && steps.every((s) => s.passed) } : pass;
  });
  return { ...run, passes };
}

/** Sorts by position in `known`, then unknown names alphabetically after them. */
export function orderOf(known: string[]): (x: string, y: string) => number {
  const at = (name: string): number => {
    const i = known.indexOf(name);
    return i < 0 ? known.length : i;
  };
  return (x, y) => at(x) - at(y) || (x < y ? -1 : x > y ? 1 : 0);
}

export function uniqueInOrder(values: string[]): string[] {
  return [...new Set(values)];
}

export function armsOf(run: LoadedRun): string[] {
  const listed = run.manifest.arms.map(canonicalArm);
  return uniqueInOrder([...listed, ...run.passes.map((p) => p.arm)]);
}

function stepRunsOf(passes: PassRecord[]): StepRun[] {
  return passes.flatMap((p) => p.steps);
}

function summarizeArm(arm: string, passes: PassRecord[], pricing: Pricing): ArmSummary {
  const rungs = uniqueInOrder(passes.map((p) => p.rung));
  const rungSummaries = rungs.map((rung): RungSummary => {
    const own = passes.filter((p) => p.rung === rung);
    const decided = own.filter((p) => !passErrored(p));
    const group = { c: decided.filter(passClean).length, n: decided.length };
    const stepIndexes = [...new Set(stepRunsOf(own).map((s) => s.step))].sort((x, y) => x - y);
    const steps = stepIndexes.map((step): StepSummary => {
      const runs = stepRunsOf(own).filter((s) => s.step === step);
      const usable = runs.filter((s) => !isErrored(s));
      return { step, metrics: metrics(runs, null, [{ c: usable.filter((s) => s.passed).length, n: usable.length }], pricing) };
    });
    return { rung, metrics: metrics(stepRunsOf(own), own, [group], pricing), steps };
  });
  const groups = rungSummaries.map((r) => ({ c: r.metrics.cleanRunRate!.count, n: r.metrics.cleanRunRate!.n }));
  return { arm, overall: metrics(stepRunsOf(passes), passes, groups, pricing), rungs: rungSummaries };
}

/** `{conversations}` when some step was read for carrying the earlier ones (summary.json is unchanged for the rest). */
export function conversationsField(passes: readonly PassRecord[]): { conversations?: Conversations } {
  const read = passes.flatMap((p) => p.steps).filter((s) => s.carried !== undefined);
  return read.length === 0 ? {} : { conversations: { read: read.length, separate: read.filter((s) => s.carried === false).length } };
}

/** `{agent}` when an external agent ran the steps, else nothing: a run of the built-in loop reads as before. */
export function agentField(manifest: Manifest): { agent?: RunAgent } {
  const agent = manifest.agent;
  return agent === undefined ? {} : { agent: { name: agent.name, version: agent.version ?? null } };
}

/** A run's model, with the agent and its version beside it when an external agent ran the steps. */
export function whoRan(manifest: Manifest): string {
  const { agent } = agentField(manifest);
  return agent === undefined ? manifest.model.spec : ranBy(manifest.model.spec, agent);
}

export function summarizeLoaded(run: LoadedRun): RunSummary {
  const { manifest } = run;
  const synthetic = manifest.model.synthetic === true;
  return {
    format: SUMMARY_FORMAT,
    runId: manifest.runId,
    status: manifest.status,
    model: { spec: manifest.model.spec, synthetic },
    ...agentField(manifest),
    ...conversationsField(run.passes),
    notice: synthetic ? SYNTHETIC_NOTICE : null,
    ladderVersion: manifest.ladderVersion,
    gitSha: manifest.gitSha,
    passesPlanned: manifest.passes,
    traces: run.traces,
    arms: armsOf(run).map((arm) => summarizeArm(arm, run.passes.filter((p) => p.arm === arm), run.pricing)),
    pricing: run.pricing,
  };
}

/** The summary of the run in `dir` (what the runner writes to summary.json at the end). */
export async function summarizeRun(dir: string, options: LoadOptions = {}): Promise<RunSummary> {
  return summarizeLoaded(await loadRun(dir, options));
}

/**
 * Fractions are rounded to 6 decimals: a p-value's last bits come from Math.exp and Math.log,
 * which may differ between Node versions, and a figure must not change when nothing did.
 */
export function stableNumbers(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1e6) / 1e6 : value;
}

/** summary.json's text: two-space JSON and a final newline, the same bytes for the same run. */
export function summaryJson(summary: RunSummary): string {
  return `${JSON.stringify(summary, stableNumbers, 2)}\n`;
}

export async function writeSummary(dir: string): Promise<RunSummary> {
  const summary = await summarizeRun(dir);
  writeFileSync(join(dir, 'summary.json'), summaryJson(summary));
  return summary;
}
