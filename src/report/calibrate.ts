// `ladder rungs calibrate`: each rung's declared effect (rungs/*.yaml `effect`), proved. The
// rung's own pathology (synthetic:mix, every pathology striking at each decision, p = 1) runs
// a few passes on both of the effect's arms at a fast time factor, and the effect is there
// when the paired difference on its metric favours the declared arm with a 95% interval clear
// of zero, or, for a control (`same`), when the interval covers zero.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Effect } from '../rungs/schema.ts';
import { executeRun } from '../runner/run.ts';
import { prepareRun } from '../runner/prepare.ts';
import type { PreparedRun } from '../runner/prepare.ts';
import { findRungFiles, loadRungFiles } from '../runner/rungFiles.ts';
import type { MetricComparison } from './paired.ts';
import { compareMetrics } from './paired.ts';
import { pair } from './pairing.ts';
import { loadRun } from './summary.ts';
import { DEFAULT_REPORT_SEED } from './compare.ts';
import { quantity, signedBound, signedPoints } from './words.ts';

/**
 * Passes per arm: pathologies at p = 1 are deterministic, so a few pairs show an effect. A
 * one-step rung needs 6 discordant pairs of 6 for the interval to clear zero (McNemar's test,
 * corrected: 5 / sqrt 6 = 2.04 > 1.96, p = 0.041; 5 of 5 give p = 0.074); 7 leave a pass to spare.
 */
export const CALIBRATE_PASSES = 7;
/** Every rung's shape holds at 1/100 (docs/runner.md "Time factor"). */
export const CALIBRATE_TIME_FACTOR = 0.01;
/** Each rung's own pathology, at every decision. */
export const CALIBRATE_MODEL = 'synthetic:mix?p=1';

export interface CalibrateOptions {
  rungs: string[];
  cwd: string;
  passes?: number;
  timeFactor?: number;
  seed?: number;
  /** The synthetic agents (default each rung's own pathology at p = 1). */
  model?: string;
  concurrency?: number;
  /** An external agent (`--agent`) runs the steps, the synthetic policy behind its model gateway. */
  agent?: string;
  /** Where the calibration runs are left; a temp folder, removed after, by default. */
  out?: string;
  tempBase?: string;
  progress?: NodeJS.WritableStream & { isTTY?: boolean };
  signal?: AbortSignal;
}

export interface CalibrationRow {
  rung: string;
  effect: Effect | undefined;
  /** The effect's metric as compared (B minus A), when the rung declares one and ran. */
  measured?: MetricComparison;
  ok: boolean;
  /** What was measured, in words; or why the rung could not be calibrated. */
  text: string;
}

/** What the effect's metric shows for one rung, and whether that is the declared effect. */
export function judgeEffect(effect: Effect, metric: MetricComparison): { ok: boolean; text: string } {
  const d = metric.difference;
  if (d === null) return { ok: false, text: 'no pairs to compare (errored or missing passes)' };
  const [a, b] = effect.arms;
  const shown = describe(metric);
  if (effect.better === 'same') return { ok: d.lower <= 0 && d.upper >= 0, text: shown };
  // B minus A: positive favours B on a higher-is-better metric, A on a lower-is-better one.
  const favoursB = metric.better === 'higher' ? d.lower > 0 : d.upper < 0;
  const favoursA = metric.better === 'higher' ? d.upper < 0 : d.lower > 0;
  return { ok: effect.better === b ? favoursB : effect.better === a && favoursA, text: shown };
}

/** `67% -> 100%, +33 points (95% CI +2 to +56)`, or `6 -> 1, -5 (95% CI -5 to -5)` per pass. */
function describe(m: MetricComparison): string {
  const d = m.difference!;
  if (m.kind === 'proportion') {
    const rate = (x: { count: number; n: number }) => `${Math.round((100 * x.count) / Math.max(1, x.n))}%`;
    return `${rate(m.a)} -> ${rate(m.b)}, ${signedPoints(d.estimate)} points (95% CI ${signedBound(d.lower)} to ${signedBound(d.upper)})`;
  }
  const side = (x: { mean: number | null; median: number | null }) => quantity((m.statistic === 'mean' ? x.mean : x.median) ?? 0, m.unit);
  const signed = (v: number) => `${v > 0 ? '+' : v < 0 ? '-' : ''}${quantity(Math.abs(v), m.unit)}`;
  return `${side(m.a)} -> ${side(m.b)} ${m.statistic} per ${m.pairsOf === 'passes' ? 'pass' : 'step'}, ` +
    `${signed(d.estimate)} (95% CI ${signed(d.lower)} to ${signed(d.upper)})`;
}

/** The effect in words: `on better on dead_calls`, `same step_pass_rate (control)`. */
export function effectText(effect: Effect | undefined): string {
  if (effect === undefined) return 'none declared';
  const [a, b] = effect.arms;
  if (effect.better === 'same') return `${a} = ${b} on ${effect.metric} (control)`;
  return `${effect.better} better than ${effect.better === a ? b : a} on ${effect.metric}`;
}

/** Runs every rung's calibration, grouped by the arms its effect compares; one row per rung. */
export async function calibrate(options: CalibrateOptions): Promise<CalibrationRow[]> {
  const files = findRungFiles(options.rungs, options.cwd);
  const loaded = await loadRungFiles(files, options.cwd);
  const rows = new Map<string, CalibrationRow>();
  const groups = new Map<string, { arms: [string, string]; files: string[] }>();
  for (const { rung, file } of loaded) {
    if (rung.effect === undefined) {
      rows.set(rung.name, { rung: rung.name, effect: undefined, ok: false, text: 'declares no effect; add one (docs/runner.md)' });
      continue;
    }
    const key = rung.effect.arms.join(';');
    const group = groups.get(key) ?? { arms: rung.effect.arms, files: [] };
    group.files.push(file);
    groups.set(key, group);
  }
  const base = options.out ?? (await mkdtemp(join(options.tempBase ?? tmpdir(), 'ladder-calibrate-')));
  try {
    let index = 0;
    for (const group of groups.values()) {
      const out = join(base, `arms-${index++}`);
      const prepared: PreparedRun = await prepareRun({
        rungs: group.files, model: options.model ?? CALIBRATE_MODEL, arms: group.arms, passes: options.passes ?? CALIBRATE_PASSES,
        seed: options.seed ?? 1, timeFactor: options.timeFactor ?? CALIBRATE_TIME_FACTOR, out,
        ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
        ...(options.agent === undefined ? {} : { agent: options.agent }),
      }, { cwd: options.cwd, env: {} });
      const result = await executeRun(prepared, {
        progress: options.progress ?? process.stderr,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.tempBase === undefined ? {} : { tempBase: options.tempBase }),
      });
      const run = await loadRun(out);
      for (const { rung } of prepared.rungs) {
        const effect = rung.effect!;
        const [a, b] = effect.arms;
        const pairing = pair(run.passes.filter((p) => p.rung === rung.name && p.arm === a), run.passes.filter((p) => p.rung === rung.name && p.arm === b));
        const measured = compareMetrics(pairing, DEFAULT_REPORT_SEED).find((m) => m.metric === effect.metric)!;
        const incomplete = result.status !== 'complete' ? ` (run ${result.status}: ${result.errors.join('; ') || 'passes missing'})` : '';
        const judged = judgeEffect(effect, measured);
        rows.set(rung.name, { rung: rung.name, effect, measured, ok: judged.ok && incomplete === '', text: judged.text + incomplete });
      }
    }
  } finally {
    if (options.out === undefined) await rm(base, { recursive: true, force: true });
  }
  return loaded.map(({ rung }) => rows.get(rung.name)!);
}

/** The table `ladder rungs calibrate` prints: one row per rung, then the verdict. */
export function calibrationTable(rows: readonly CalibrationRow[]): string[] {
  const cells = rows.map((r) => [r.rung, effectText(r.effect), r.text, r.ok ? 'ok' : 'NOT THERE']);
  const head = ['rung', 'declared effect', 'measured (A -> B, B minus A)', 'result'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(widths[i]!)).join('  ').trimEnd();
  const failed = rows.filter((r) => !r.ok).length;
  return [
    line(head),
    ...cells.map(line),
    failed === 0 ? `every effect is there (${rows.length} rungs)` : `${failed} of ${rows.length} rungs do not show their effect`,
  ];
}
