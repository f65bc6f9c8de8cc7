// Pairing two sides' passes by rung and pass index, and their step-runs by step
// (src/report/pairing.ts), over hand-built passes; and what it counts as left out.
import { describe, expect, it } from 'vitest';
import { pair } from '../../src/report/pairing.ts';
import { passRecord, stepRun } from './records.ts';

describe('pair', () => {
  it('pairs passes by rung and pass index, in A\'s order, and counts the passes and rungs without a partner', () => {
    const a = [passRecord(1, [stepRun(0)], { rung: 'x' }), passRecord(0, [stepRun(0)], { rung: 'x' }), passRecord(0, [stepRun(0)], { rung: 'y' }),
      passRecord(2, [stepRun(0)], { rung: 'x' }), passRecord(0, [stepRun(0)], { rung: 'onlyA' }), passRecord(1, [stepRun(0)], { rung: 'onlyA' })];
    const b = [passRecord(0, [stepRun(0)], { rung: 'y' }), passRecord(0, [stepRun(0)], { rung: 'x' }), passRecord(1, [stepRun(0)], { rung: 'x' }),
      passRecord(1, [stepRun(0)], { rung: 'y' }), passRecord(0, [stepRun(0)], { rung: 'onlyB' })];
    const p = pair(a, b);
    expect(p.passes.map((x) => [x.rung, x.pass, x.a.rung, x.a.pass, x.b.rung, x.b.pass]))
      .toEqual([['x', 1, 'x', 1, 'x', 1], ['x', 0, 'x', 0, 'x', 0], ['y', 0, 'y', 0, 'y', 0]]);
    expect(p.rungs).toEqual(['x', 'y']);
    expect(p.leftOut).toEqual({
      rungsOnlyInA: ['onlyA'], rungsOnlyInB: ['onlyB'], passesOnlyInA: 3, passesOnlyInB: 2,
      stepRunsOnlyInA: 0, stepRunsOnlyInB: 0, erroredStepPairs: 0, erroredPassPairs: 0, seedMismatches: 0,
    });
  });

  it('pairs step-runs by step, not by position, and counts the steps only one side finished', () => {
    const a = [passRecord(0, [stepRun(0, { ms: 10 }), stepRun(1, { ms: 11 }), stepRun(3, { ms: 13 })])];
    const b = [passRecord(0, [stepRun(1, { ms: 21 }), stepRun(0, { ms: 20 }), stepRun(2, { ms: 22 }), stepRun(4, { ms: 24 })])];
    const p = pair(a, b);
    expect(p.steps.map((s) => [s.rung, s.pass, s.a.step, s.a.ms, s.b.step, s.b.ms])).toEqual([['r', 0, 0, 10, 0, 20], ['r', 0, 1, 11, 1, 21]]);
    expect(p.leftOut).toMatchObject({ stepRunsOnlyInA: 1, stepRunsOnlyInB: 2 });
  });

  it('counts the pairs with an errored side, on either side, and those whose seeds differ', () => {
    const errored = { reason: 'errored', passed: false } as const;
    const a = [
      passRecord(0, [stepRun(0, errored), stepRun(1)]),
      passRecord(1, [stepRun(0), stepRun(1)], { error: 'the harness stopped' }),
      passRecord(2, [stepRun(0), stepRun(1)], { seed: 40 }),
      passRecord(3, [stepRun(0), stepRun(1)]),
    ];
    const b = [
      passRecord(0, [stepRun(0), stepRun(1)]),
      passRecord(1, [stepRun(0), stepRun(1)]),
      passRecord(2, [stepRun(0), stepRun(1, errored)], { seed: 41 }),
      passRecord(3, [stepRun(0), stepRun(1)]),
    ];
    const p = pair(a, b);
    expect(p.leftOut).toMatchObject({ erroredStepPairs: 2, erroredPassPairs: 3, seedMismatches: 1 });
    expect(p.steps).toHaveLength(8);
  });

  it('pairs nothing between sides that share no rung', () => {
    const p = pair([passRecord(0, [stepRun(0)], { rung: 'x' })], [passRecord(0, [stepRun(0)], { rung: 'y' })]);
    expect({ rungs: p.rungs, passes: p.passes, steps: p.steps }).toEqual({ rungs: [], passes: [], steps: [] });
    expect(p.leftOut).toMatchObject({ rungsOnlyInA: ['x'], rungsOnlyInB: ['y'], passesOnlyInA: 1, passesOnlyInB: 1 });
  });
});
