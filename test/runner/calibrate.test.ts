// `ladder rungs calibrate` through real processes: an effect that is there, one that is not,
// and an effect between two arms that differ in a step parameter (ceiling=x2), whose runs show
// the parameter in the folder, the trace and the step's ceiling.
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCalibrate } from '../../src/cli/rungs.ts';
import { judgeEffect } from '../../src/report/calibrate.ts';
import type { MetricComparison } from '../../src/report/paired.ts';
import type { Effect } from '../../src/rungs/schema.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import { listTraces } from '../../src/results/store.ts';
import { removeTempDirs, ROOT, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const FIXTURES = ['right', 'wrong', 'ceiling'].map((n) => `test/runner/fixtures/calibrate/cal-${n}.yaml`);
let lines: string[];
let code: number;
let out: string;

beforeAll(async () => {
  out = join(await tempDir('ladder-calibrate-'), 'runs');
  lines = [];
  code = await runCalibrate({ rungs: FIXTURES, passes: 6, out }, (line) => lines.push(line), { cwd: ROOT, progress: devNull() });
}, 180_000);

function devNull(): NodeJS.WritableStream {
  return new PassThrough().resume();
}

describe('ladder rungs calibrate', () => {
  it('prints one row per rung and fails on the effect that is not there', () => {
    expect(code).toBe(1);
    const row = (name: string) => lines.find((l) => l.startsWith(name))!;
    expect(row('cal-right')).toMatch(/on better than off on step_pass_rate\s+0% -> 100%, \+100 points .*\s+ok$/);
    expect(row('cal-wrong')).toMatch(/off = on on step_pass_rate \(control\)\s+0% -> 100%.*NOT THERE$/);
    expect(row('cal-ceiling')).toMatch(/off = off,ceiling=x2 on ceiling_share \(control\)\s+100% -> 100%.*ok$/);
    expect(lines.at(-1)).toBe('1 of 3 rungs do not show their effect');
  });

  it('runs an arm with a step parameter as its own folder, with the step\'s ceiling doubled', async () => {
    const traces = (await listTraces(join(out, 'arms-1'))).filter((t) => t.startsWith('cal-ceiling/'));
    expect(traces.sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `cal-ceiling/off/${i}.jsonl`).concat([0, 1, 2, 3, 4, 5].map((i) => `cal-ceiling/off_ceiling-x2/${i}.jsonl`)));
    for (const [folder, arm, ceiling] of [['off', 'off', 4], ['off_ceiling-x2', 'off,ceiling=x2', 8]] as const) {
      const { events } = await readTraceAll(join(out, 'arms-1', 'traces', 'cal-ceiling', folder, '0.jsonl'));
      expect(events.find((e) => e.type === 'pass.start')).toMatchObject({ arm });
      expect(events.find((e) => e.type === 'step.start')).toMatchObject({ ceiling });
      expect(events.filter((e) => e.type === 'tool.call')).toHaveLength(ceiling);
    }
  });

  it('says so in one line when a rung declares no effect, and exits 2 on a rung that cannot be read', async () => {
    const said: string[] = [];
    const err: string[] = [];
    expect(await runCalibrate({ rungs: ['no-such-rung'], passes: 1 }, (l) => said.push(l), { cwd: ROOT, progress: devNull(), err: (l) => err.push(l) })).toBe(2);
    expect({ said, err }).toEqual({ said: [], err: [expect.stringMatching(/^ladder rungs calibrate: no-such-rung: no rung file matches/)] });
    const none: string[] = [];
    expect(await runCalibrate({ rungs: ['test/runner/fixtures/tiny-catalog.yaml'], passes: 1 }, (l) => none.push(l), { cwd: ROOT, progress: devNull() })).toBe(1);
    expect(none.find((l) => l.startsWith('tiny-catalog'))).toMatch(/none declared\s+declares no effect; add one .*NOT THERE$/);
  });
});

describe('judgeEffect', () => {
  const proportion = (lower: number, upper: number): MetricComparison => ({
    metric: 'step_pass_rate', label: 'step pass rate', better: 'higher', pairsOf: 'step-runs', pairs: 4, excluded: 0,
    difference: { estimate: (lower + upper) / 2, lower, upper }, verdict: 'unclear', kind: 'proportion',
    a: { count: 0, n: 4 }, b: { count: 4, n: 4 }, aOnly: 0, bOnly: 4, p: 0.125, settleMultiple: null,
  });
  const count = (lower: number, upper: number): MetricComparison => ({
    metric: 'dead_calls', label: 'dead calls', better: 'lower', pairsOf: 'passes', pairs: 4, excluded: 0,
    difference: { estimate: (lower + upper) / 2, lower, upper }, verdict: 'unclear', kind: 'count', unit: 'calls', statistic: 'mean',
    a: { total: 20, mean: 5, median: 5 }, b: { total: 0, mean: 0, median: 0 }, identical: false,
  });
  const effect = (better: string, metric: Effect['metric'] = 'step_pass_rate'): Effect => ({ arms: ['off', 'on'], better, metric, why: 'x' });

  it('needs the interval clear of zero on the declared arm\'s side (B minus A)', () => {
    expect(judgeEffect(effect('on'), proportion(0.1, 0.9)).ok).toBe(true);
    expect(judgeEffect(effect('on'), proportion(0, 0.9)).ok).toBe(false);
    expect(judgeEffect(effect('off'), proportion(-0.9, -0.1)).ok).toBe(true);
    expect(judgeEffect(effect('off'), proportion(0.1, 0.9)).ok).toBe(false);
    expect(judgeEffect(effect('on'), proportion(-0.9, -0.1)).ok).toBe(false);
  });

  it('reads lower as better for counts', () => {
    expect(judgeEffect(effect('on', 'dead_calls'), count(-5, -1)).ok).toBe(true);
    expect(judgeEffect(effect('on', 'dead_calls'), count(1, 5)).ok).toBe(false);
    expect(judgeEffect(effect('off', 'dead_calls'), count(1, 5)).ok).toBe(true);
    expect(judgeEffect(effect('on', 'dead_calls'), count(-5, 0)).ok).toBe(false);
  });

  it('holds a control when its interval covers zero, ends included', () => {
    expect(judgeEffect(effect('same'), proportion(-0.2, 0.2)).ok).toBe(true);
    expect(judgeEffect(effect('same'), proportion(0, 0.5)).ok).toBe(true);
    expect(judgeEffect(effect('same'), proportion(-0.5, 0)).ok).toBe(true);
    expect(judgeEffect(effect('same'), proportion(0.1, 0.5)).ok).toBe(false);
    expect(judgeEffect(effect('same'), proportion(-0.5, -0.1)).ok).toBe(false);
  });

  it('fails a rung with no pairs to compare', () => {
    expect(judgeEffect(effect('on'), { ...proportion(0, 0), difference: null }).ok).toBe(false);
  });
});
