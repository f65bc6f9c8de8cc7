import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCompare } from '../../src/cli/compare.ts';
import { runReport } from '../../src/cli/report.ts';
import { compareRuns, gateFailures, parseGates } from '../../src/report/compare.ts';
import type { ArmComparison } from '../../src/report/compare.ts';
import { compareOutput } from '../../src/report/output.ts';
import type { MetricName } from '../../src/report/paired.ts';
import { settleText } from '../../src/report/words.ts';
import { tempDir, writeRun } from './runBuilder.ts';
import type { PassSpec, StepSpec } from './runBuilder.ts';

let dir: string;
let remove: () => void;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

/** `n` passes of one arm: pass i gets the steps `steps(i)`. */
function passes(arm: string, n: number, steps: (i: number) => StepSpec[], rung = 'r'): PassSpec[] {
  return Array.from({ length: n }, (_, pass) => ({ arm, rung, pass, steps: steps(pass) }));
}

const metric = (c: ArmComparison, name: MetricName) => c.metrics.find((m) => m.metric === name)!;
const deadCalls = (n: number): StepSpec => ({ calls: [{ key: 'k', outcome: 'failed' }, ...Array.from({ length: n }, () => ({ key: 'k', outcome: 'failed' as const }))] });

describe('compare the arms of one run', () => {
  it('uses the all-off arm as A and pairs pass i of each arm', async () => {
    // off passes 2 of 10 steps, on passes all 10: 8 discordant pairs, all for B.
    writeRun(dir, { passes: [...passes('on', 10, () => [{}]), ...passes('off', 10, (i) => [{ passed: i < 2 }])] });
    const report = await compareRuns(dir);
    const [c] = report.comparisons;
    expect(report.kind).toBe('arms');
    expect(c!.label).toBe('on against off');
    expect([c!.a.arm, c!.b.arm]).toEqual(['off', 'on']);
    const rate = metric(c!, 'step_pass_rate');
    expect(rate).toMatchObject({ kind: 'proportion', pairs: 10, aOnly: 0, bOnly: 8, a: { count: 2 }, b: { count: 10 }, verdict: 'better' });
    expect(rate.kind === 'proportion' && rate.p).toBeCloseTo(0.0133283, 6); // McNemar's, corrected: (8 - 1) / sqrt 8 = 2.47
    expect(rate.difference!.estimate).toBeCloseTo(0.8, 12);
    expect(c!.summary).toMatch(/^on against off \(10 paired passes\): step pass rate \+80 points \(95% CI \+\d+ to \+\d+; p = 0\.01\)/);
  });

  it('compares every other arm against the baseline when there are three', async () => {
    writeRun(dir, { arms: ['on', 'off', 'breaker=off'], passes: [...passes('on', 2, () => [{}]), ...passes('off', 2, () => [{}]), ...passes('breaker=off', 2, () => [{}])] });
    const report = await compareRuns(dir);
    expect(report.comparisons.map((c) => c.label)).toEqual(['on against off', 'breaker=off,circuit=on,repeats=on,deadline=on,roster=on,cap=on against off']);
  });

  it('refuses a run with one arm and says what to do', async () => {
    writeRun(dir, { arms: ['on'], passes: passes('on', 2, () => [{}]) });
    await expect(compareRuns(dir)).rejects.toThrow(/one arm \(on\), nothing to compare; run with --arms on,off, or name a second run/);
  });

  it('calls a difference inside the noise that, with the passes it would take to settle it', async () => {
    writeRun(dir, { passes: [...passes('on', 10, (i) => [{ passed: i !== 3 }]), ...passes('off', 10, (i) => [{ passed: i > 2 }])] });
    const [c] = (await compareRuns(dir)).comparisons;
    const rate = metric(c!, 'step_pass_rate');
    expect(rate).toMatchObject({ aOnly: 1, bOnly: 3, verdict: 'unclear' });
    expect(c!.summary).toContain('step pass rate +20 points');
    expect(c!.summary).toMatch(/not distinguishable from noise at this N \(p = 0\.62\); about \d+x more passes would settle it/);
    expect(settleText(1.2)).toBe('somewhat more passes would likely settle it');
    expect(settleText(3.4)).toBe('about 3x more passes would settle it');
  });

  it('counts fewer dead calls per 10 passes with a bootstrap interval on the paired mean', async () => {
    writeRun(dir, { passes: [...passes('on', 10, () => [deadCalls(0)]), ...passes('off', 10, (i) => [deadCalls(i < 5 ? 3 : 1)])] });
    const [c] = (await compareRuns(dir)).comparisons;
    const dead = metric(c!, 'dead_calls');
    // off: 5 passes with 3 dead calls and 5 with 1 (20 in all); on: none.
    expect(dead).toMatchObject({ kind: 'count', statistic: 'mean', pairs: 10, a: { total: 20, mean: 2 }, b: { total: 0 }, verdict: 'better' });
    expect(dead.difference!.estimate).toBe(-2);
    expect(dead.difference!.lower).toBeGreaterThanOrEqual(-3);
    expect(dead.difference!.upper).toBeLessThanOrEqual(-1);
    expect(c!.summary).toMatch(/dead calls: 20 fewer per 10 passes \(mean of paired differences, 95% CI [\d.]+ fewer to [\d.]+ fewer; A 20, B 0 per 10 passes \(means\) over 10 paired passes\)/);
  });

  it('treats more ceilings under B as worse, since less of it is better', async () => {
    writeRun(dir, { passes: [...passes('on', 8, () => [{ passed: false, reason: 'ceiling' }]), ...passes('off', 8, () => [{ passed: false }])] });
    const [c] = (await compareRuns(dir)).comparisons;
    expect(metric(c!, 'ceiling_share').verdict).toBe('worse');
    expect(metric(c!, 'step_pass_rate').verdict).toBe('same');
    expect(c!.worse).toEqual(['ceiling_share']);
  });

  it('leaves errored step-runs and passes without token counts out of their comparisons, and says so', async () => {
    writeRun(dir, { passes: [
      ...passes('on', 3, (i) => [{ reason: i === 0 ? 'errored' : 'answered', passed: i !== 0, tokens: [[10, i === 1 ? null : 5]] }]),
      ...passes('off', 3, () => [{ tokens: [[10, 5]] }]),
    ] });
    const [c] = (await compareRuns(dir)).comparisons;
    expect(metric(c!, 'step_pass_rate')).toMatchObject({ pairs: 2, excluded: 1 });
    expect(metric(c!, 'tokens_out')).toMatchObject({ pairs: 2, excluded: 1 });
    expect(metric(c!, 'tokens_in')).toMatchObject({ pairs: 3, excluded: 0 });
    expect(c!.leftOutText).toBe('Left out: 1 step pair with an errored side; 1 pass pair with an errored side; tokens out: 1 pair where a side reported no token count.');
  });

  it('gives the same report for the same seed', async () => {
    writeRun(dir, { passes: [...passes('on', 6, (i) => [{ ms: 100 + i * 7 }]), ...passes('off', 6, (i) => [{ ms: 90 + ((i * 37) % 50) }])] });
    expect(await compareRuns(dir, undefined, { seed: 9 })).toEqual(await compareRuns(dir, undefined, { seed: 9 }));
  });
});

describe('compare two runs', () => {
  it('matches arms by name, pairs by rung and pass index, and says what was left out', async () => {
    const a = writeRun(join(dir, 'a'), { runId: 'before', arms: ['on', 'off', 'breaker=off'], rungs: [{ name: 'r1', sha256: '1' }, { name: 'r2' }],
      passes: [...passes('on', 3, () => [{}], 'r1'), ...passes('on', 1, () => [{}], 'r2')] });
    const b = writeRun(join(dir, 'b'), { runId: 'after', rungs: [{ name: 'r1', sha256: '2' }, { name: 'r3' }],
      passes: [...passes('on', 2, () => [{}, {}], 'r1'), ...passes('on', 1, () => [{}], 'r3')] });
    const report = await compareRuns(a, b);
    const on = report.comparisons.find((c) => c.a.arm === 'on')!;
    expect(report.comparisons.map((c) => c.label)).toEqual(['after against before, arm on', 'after against before, arm off']);
    expect(on.shared).toEqual({ rungs: ['r1'], passes: 2, stepRuns: 2 });
    expect(on.leftOut).toMatchObject({ rungsOnlyInA: ['r2'], rungsOnlyInB: ['r3'], passesOnlyInA: 2, passesOnlyInB: 1, stepRunsOnlyInB: 2 });
    expect(report.notes).toEqual([
      'Rung files changed between the runs: r1; their pairs compare different tasks.',
      'Arms only in A, not compared: breaker=off,circuit=on,repeats=on,deadline=on,roster=on,cap=on.',
      // The test runs are written in trace format 1 (test/report/runBuilder.ts).
      'A (before): trace format 1, which holds no conversation (no transcripts, no replay).',
      'B (after): trace format 1, which holds no conversation (no transcripts, no replay).',
    ]);
  });

  it('counts pairs whose seeds differ', async () => {
    const a = writeRun(join(dir, 'a'), { passes: passes('on', 2, () => [{}]) });
    const b = writeRun(join(dir, 'b'), { passes: passes('on', 2, () => [{}]).map((p) => ({ ...p, seed: 99 })) });
    const [c] = (await compareRuns(a, b)).comparisons;
    expect(c!.leftOut.seedMismatches).toBe(2);
    expect(c!.leftOutText).toContain('2 pairs with different seeds (paired by index only)');
  });

  it('refuses two runs that share no arm', async () => {
    const a = writeRun(join(dir, 'a'), { arms: ['on'], passes: passes('on', 1, () => [{}]) });
    const b = writeRun(join(dir, 'b'), { arms: ['off'], passes: passes('off', 1, () => [{}]) });
    await expect(compareRuns(a, b)).rejects.toThrow(/share no arm \(on against off\); compare runs made with the same --arms/);
  });
});

describe('gates and exit codes', () => {
  // B (on) passes 0 of 8 where A (off) passed 8 of 8, and makes more dead calls.
  const worse = () => writeRun(dir, { passes: [...passes('on', 8, () => [{ passed: false, ...deadCalls(1) }]), ...passes('off', 8, () => [{}])] });

  it('always gates on the step pass rate, and on the metrics named', async () => {
    worse();
    const report = await compareRuns(dir);
    expect(gateFailures(report, []).map((f) => f.metric)).toEqual(['step_pass_rate']);
    expect(gateFailures(report, ['dead_calls']).map((f) => f.metric)).toEqual(['step_pass_rate', 'dead_calls']);
    expect(() => parseGates(['dead_calls,nope'])).toThrow(/--gate nope: not a compared metric; use one of step_pass_rate, /);
  });

  it('exits 1 with --fail-if-worse when B is significantly worse, 0 without it, 2 on bad input', async () => {
    worse();
    const lines: string[] = [];
    const world = { out: () => {}, err: (l: string) => void lines.push(l) };
    expect(await runCompare({ runA: dir }, world)).toBe(0);
    expect(await runCompare({ runA: dir, 'fail-if-worse': true }, world)).toBe(1);
    expect(lines).toEqual(['ladder compare: B is significantly worse than A on step_pass_rate (on against off)']);
    expect(await runCompare({ runA: join(dir, 'missing') }, world)).toBe(2);
    expect(lines[1]).toMatch(/^ladder compare: .*missing: no such results folder/);
  });

  it('exits 0 under --fail-if-worse when B is better', async () => {
    writeRun(dir, { passes: [...passes('on', 8, () => [{}]), ...passes('off', 8, () => [{ passed: false }])] });
    expect(await runCompare({ runA: dir, 'fail-if-worse': true, gate: ['dead_calls'] }, { out: () => {}, err: () => {} })).toBe(0);
  });

  it('writes the chosen format to --output instead of standard output', async () => {
    worse();
    const printed: string[] = [];
    const output = join(dir, 'out.md');
    expect(await runCompare({ runA: dir, format: 'md', output }, { out: (t) => void printed.push(t), err: () => {} })).toBe(0);
    expect(printed).toEqual([]);
    expect(readFileSync(output, 'utf8')).toMatch(/^# Ladder comparison of the arms of run\n\n> \*\*Note:\*\* Synthetic agents exercise the harness; they do not measure any model\./);
    const json = JSON.parse((await compareOutput(dir, undefined, { format: 'json' })).text) as { format: number; comparisons: unknown[] };
    expect(json.format).toBe(1);
    expect(json.comparisons).toHaveLength(1);
  });

  it('ladder report writes the HTML next to the run unless told where', async () => {
    writeRun(dir, { arms: ['on'], passes: passes('on', 2, () => [{}]) });
    const said: string[] = [];
    expect(await runReport({ run: dir }, { out: (l) => void said.push(l) })).toBe(0);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
    expect(said).toEqual([`ladder report: wrote ${join(dir, 'report.html')}`]);
    expect(await runReport({ run: join(dir, 'missing') }, { err: (l) => void said.push(l) })).toBe(2);
  });
});
