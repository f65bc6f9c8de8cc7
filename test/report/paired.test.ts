// The paired comparison of each metric (src/report/paired.ts) over hand-built passes: which
// pairs each metric counts, the figures it gives, and its verdict at the edges where rounding
// and the one test behind p and the interval meet. Every pass and figure is built inside its
// test (the mutation battery's coverage is per test).
import { describe, expect, it } from 'vitest';
import type { CountComparison, MetricComparison, MetricName, ProportionComparison } from '../../src/report/paired.ts';
import { compareMetrics, perRung } from '../../src/report/paired.ts';
import { pair } from '../../src/report/pairing.ts';
import type { PassRecord, StepRun } from '../../src/report/passes.ts';
import { passRecord, stepRun } from './records.ts';
import { selection, tally } from '../../src/report/selection.ts';
import { metricSentence } from '../../src/report/words.ts';

/** One pass a side per pair, each of one step-run: [A's step, B's step]. */
function onePerPass(pairs: [Partial<StepRun>, Partial<StepRun>][]): { a: PassRecord[]; b: PassRecord[] } {
  return {
    a: pairs.map(([x], i) => passRecord(i, [stepRun(0, x)])),
    b: pairs.map(([, y], i) => passRecord(i, [stepRun(0, y)])),
  };
}

const times = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);

function compared(a: PassRecord[], b: PassRecord[], name: MetricName): MetricComparison {
  return compareMetrics(pair(a, b), 1).find((m) => m.metric === name)!;
}

function proportion(a: PassRecord[], b: PassRecord[], name: MetricName): ProportionComparison {
  const m = compared(a, b, name);
  if (m.kind !== 'proportion') throw new Error(`${name} is not a proportion`);
  return m;
}

function count(a: PassRecord[], b: PassRecord[], name: MetricName): CountComparison {
  const m = compared(a, b, name);
  if (m.kind !== 'count') throw new Error(`${name} is not a count`);
  return m;
}

/** The step pass rate over pairs of [A passed, B passed]. */
function rate(pairs: [boolean, boolean][]): ProportionComparison {
  const { a, b } = onePerPass(pairs.map(([x, y]) => [{ passed: x }, { passed: y }]));
  return proportion(a, b, 'step_pass_rate');
}

/** A count metric over pairs of per-pass dead calls [A, B]. */
function deadCalls(pairs: [number, number][]): CountComparison {
  const { a, b } = onePerPass(pairs.map(([x, y]) => [{ deadCalls: x }, { deadCalls: y }]));
  return count(a, b, 'dead_calls');
}

describe('the metrics compared', () => {
  it('names each metric, what a pair of it is, which way is better and what statistic it takes', () => {
    // One pass pair of two step-runs: the step metrics count 2 pairs, the pass metrics 1.
    const a = [passRecord(0, [stepRun(0), stepRun(1)])];
    const b = [passRecord(0, [stepRun(0), stepRun(1)])];
    const rows = compareMetrics(pair(a, b), 1).map((m) => [m.metric, m.label, m.kind, m.better, m.pairsOf, m.pairs,
      m.kind === 'count' ? `${m.unit} ${m.statistic}` : '']);
    expect(rows).toEqual([
      ['step_pass_rate', 'step pass rate', 'proportion', 'higher', 'step-runs', 2, ''],
      ['clean_run_rate', 'clean-run rate', 'proportion', 'higher', 'passes', 1, ''],
      ['ceiling_share', 'ceiling share', 'proportion', 'lower', 'step-runs', 2, ''],
      ['dead_calls', 'dead calls', 'count', 'lower', 'passes', 1, 'calls mean'],
      ['identical_repeats', 'identical repeats', 'count', 'lower', 'passes', 1, 'calls mean'],
      ['zero_tool_rounds', 'zero-tool rounds', 'count', 'lower', 'passes', 1, 'rounds mean'],
      ['tokens_in', 'tokens in', 'count', 'lower', 'passes', 1, 'tokens mean'],
      ['tokens_out', 'tokens out', 'count', 'lower', 'passes', 1, 'tokens mean'],
      ['step_ms', 'step time', 'count', 'lower', 'step-runs', 2, 'ms median'],
      // Neither step answered: no pair.
      ['time_to_answer', 'answer-to-end time', 'count', 'lower', 'step-runs', 0, 'ms median'],
      // No step-run recorded the reference: no pair (the selection tests below give them one).
      ['tool_precision', 'tool precision', 'count', 'higher', 'step-runs', 0, 'score mean'],
      ['tool_recall', 'tool recall', 'count', 'higher', 'step-runs', 0, 'score mean'],
      ['tool_f1', 'tool F1', 'count', 'higher', 'step-runs', 0, 'score mean'],
      ['path_efficiency', 'path efficiency', 'count', 'higher', 'step-runs', 0, 'score mean'],
      ['extra_calls', 'extra calls', 'count', 'lower', 'passes', 0, 'calls mean'],
    ]);
  });
});

describe('pass rates', () => {
  it('counts each side and the discordant pairs of the decided step pairs, leaving an errored side out', () => {
    // Both pass, only A, only B (three times), neither; then an errored step on either side.
    const { a, b } = onePerPass([
      [{}, {}], [{}, { passed: false }], [{ passed: false }, {}], [{ passed: false }, {}], [{ passed: false }, {}],
      [{ passed: false }, { passed: false }],
      [{ passed: false, reason: 'errored' }, {}], [{}, { passed: false, reason: 'errored' }],
    ]);
    const m = proportion(a, b, 'step_pass_rate');
    expect({ a: m.a, b: m.b, aOnly: m.aOnly, bOnly: m.bOnly, pairs: m.pairs, excluded: m.excluded, verdict: m.verdict })
      .toEqual({ a: { count: 2, n: 6 }, b: { count: 4, n: 6 }, aOnly: 1, bOnly: 3, pairs: 6, excluded: 2, verdict: 'unclear' });
    // McNemar's, corrected: (|3 - 1| - 1) / sqrt 4 = 0.5, twice the normal tail beyond it.
    expect(m.p).toBeCloseTo(0.6170751, 6);
    expect(m.difference!.estimate).toBeCloseTo(2 / 6, 12);
    // Connor (1987): (1.959964 sqrt(4/6) + 0.841621 sqrt(4/6 - 1/9))^2 / (1/9) / 6.
    expect(m.settleMultiple!).toBeCloseTo(7.443378, 5);
  });

  it('says better when B passes significantly more, worse when less', () => {
    // 0 of 8 against 8 of 8: (8 - 1) / sqrt 8 = 2.47, p = 0.0133; the interval 0.195 to 1.
    const up = rate(times(8, [false, true]));
    expect({ verdict: up.verdict, settle: up.settleMultiple }).toEqual({ verdict: 'better', settle: null });
    expect(up.p).toBeCloseTo(0.0133283, 6);
    expect(up.difference!.lower).toBeCloseTo(0.195407, 6);
    expect(up.difference!.upper).toBe(1);
    const down = rate(times(8, [true, false]));
    expect([down.verdict, down.aOnly, down.bOnly]).toEqual(['worse', 8, 0]);
    expect(down.difference!.estimate).toBe(-1);
    expect(down.difference!.upper).toBeCloseTo(-0.195407, 6);
  });

  it('calls pairs that never differ the same, with an interval about 0 and nothing to settle', () => {
    const m = rate([[true, true], [false, false], [true, true], [true, true]]);
    expect({ verdict: m.verdict, p: m.p, settle: m.settleMultiple, a: m.a, b: m.b })
      .toEqual({ verdict: 'same', p: 1, settle: null, a: { count: 3, n: 4 }, b: { count: 3, n: 4 } });
    expect(m.difference!.estimate).toBe(0);
    // (4 d - 1)^2 = z^2 4 d (1 - d): the ends are -+0.699358.
    expect(m.difference!.upper).toBeCloseTo(0.699358, 6);
    expect(m.difference!.lower).toBeCloseTo(-0.699358, 6);
  });

  it('is unclear with nothing to settle when the pairs differ both ways alike', () => {
    const m = rate([[true, false], [false, true], [true, true], [false, false]]);
    expect({ verdict: m.verdict, p: m.p, aOnly: m.aOnly, bOnly: m.bOnly })
      .toEqual({ verdict: 'unclear', p: 1, aOnly: 1, bOnly: 1 });
    expect(m.settleMultiple).toBeNull();
  });

  it('has no pairs when every step pair has an errored side', () => {
    const m = rate([]);
    expect({ verdict: m.verdict, difference: m.difference, p: m.p, pairs: m.pairs, settle: m.settleMultiple })
      .toEqual({ verdict: 'no_pairs', difference: null, p: 1, pairs: 0, settle: null });
    const { a, b } = onePerPass([[{ passed: false, reason: 'errored' }, { passed: false, reason: 'errored' }]]);
    expect(proportion(a, b, 'step_pass_rate')).toMatchObject({ verdict: 'no_pairs', pairs: 0, excluded: 1, difference: null });
  });

  it('takes its verdict from the one test: all 5 pairs for B is unclear, all 6 better, and the interval says the same', () => {
    // 5 of 5: (5 - 1) / sqrt 5 = 1.79, p = 0.074, and the interval starts below 0. Before, the
    // exact test (p = 2/32) and Tango's interval (from +13 points) disagreed here.
    const five = rate(times(5, [false, true]));
    expect({ verdict: five.verdict, settle: five.settleMultiple! > 0 }).toEqual({ verdict: 'unclear', settle: true });
    expect(five.p).toBeCloseTo(0.0736383, 6);
    expect(five.difference!.lower).toBeCloseTo(-0.074112, 6);
    expect(metricSentence(five)).toBe('step pass rate +100 points (95% CI -7 to +100), not distinguishable from noise at this N (p = 0.07); somewhat more passes would likely settle it');
    // 6 of 6: 5 / sqrt 6 = 2.04, p = 0.041, and the interval starts above 0.
    const six = rate(times(6, [false, true]));
    expect({ verdict: six.verdict, settle: six.settleMultiple }).toEqual({ verdict: 'better', settle: null });
    expect(six.p).toBeCloseTo(0.0412268, 6);
    expect(six.difference!.lower).toBeCloseTo(0.033634, 6);
  });

  it('says better when p is just under 0.05, and prints the interval\'s start that rounds to 0 with the digit that shows it is above', () => {
    // 12 against 25 of 37: p = 0.0485, the interval starts at +0.21 points.
    const m = rate([...times(12, [true, false] as [boolean, boolean]), ...times(25, [false, true] as [boolean, boolean])]);
    expect(m.verdict).toBe('better');
    expect(m.p).toBeCloseTo(0.0485197, 6);
    expect(m.difference!.lower).toBeCloseTo(0.0021090, 6);
    expect(metricSentence(m)).toBe('step pass rate +35 points (95% CI +0.2 to +63; p = 0.049)');
  });

  it('is unclear when p is just over 0.05, and prints the end that rounds to 0 with the digit that shows it is past it', () => {
    // 25 against 42 of 200: p = 0.0506, the interval starts at -0.02 points.
    const up = rate([...times(25, [true, false] as [boolean, boolean]), ...times(42, [false, true] as [boolean, boolean]), ...times(133, [true, true] as [boolean, boolean])]);
    expect({ verdict: up.verdict, aOnly: up.aOnly, bOnly: up.bOnly, pairs: up.pairs }).toEqual({ verdict: 'unclear', aOnly: 25, bOnly: 42, pairs: 200 });
    expect(up.p).toBeCloseTo(0.0506172, 6);
    expect(up.difference!.lower).toBeCloseTo(-0.0002194, 6);
    expect(up.settleMultiple!).toBeCloseTo(1.807802, 5);
    expect(metricSentence(up)).toBe('step pass rate +9 points (95% CI -0.02 to +17), not distinguishable from noise at this N (p = 0.051); about 2x more passes would settle it');
    // 29 against 15 of 44, the nearest any split comes to p = 0.05: p = 0.0500164 is printed to
    // the digit that shows it is not 0.05, and the interval ends at +0.002 points.
    const down = rate([...times(29, [true, false] as [boolean, boolean]), ...times(15, [false, true] as [boolean, boolean])]);
    expect(down.verdict).toBe('unclear');
    expect(down.difference!.upper).toBeCloseTo(0.0000211, 6);
    expect(metricSentence(down)).toBe('step pass rate -32 points (95% CI -58 to +0.002), not distinguishable from noise at this N (p = 0.05002); about 2x more passes would settle it');
  });

  it('counts clean runs of passes with no errored side', () => {
    const clean = (n: number) => passRecord(n, [stepRun(0), stepRun(1)]);
    const failed = (n: number) => passRecord(n, [stepRun(0), stepRun(1, { passed: false })]);
    const a = [failed(0), failed(1), clean(2), passRecord(3, [stepRun(0)], { error: 'server died' }), clean(4)];
    const b = [clean(0), clean(1), clean(2), clean(3), passRecord(4, [stepRun(0), stepRun(1, { passed: false, reason: 'errored' })])];
    const m = proportion(a, b, 'clean_run_rate');
    expect({ a: m.a, b: m.b, aOnly: m.aOnly, bOnly: m.bOnly, excluded: m.excluded, pairsOf: m.pairsOf })
      .toEqual({ a: { count: 1, n: 3 }, b: { count: 3, n: 3 }, aOnly: 0, bOnly: 2, excluded: 2, pairsOf: 'passes' });
  });

  it('takes the ceiling share of decided step pairs, fewer being better', () => {
    const ceiling = { passed: false, reason: 'ceiling' } as const;
    const errored = { passed: false, reason: 'errored' } as const;
    const more = onePerPass([...times(8, [{}, ceiling] as [Partial<StepRun>, Partial<StepRun>]), [errored, ceiling], [{}, {}]]);
    const worse = proportion(more.a, more.b, 'ceiling_share');
    expect({ verdict: worse.verdict, a: worse.a, b: worse.b, excluded: worse.excluded })
      .toEqual({ verdict: 'worse', a: { count: 0, n: 9 }, b: { count: 8, n: 9 }, excluded: 1 });
    const fewer = onePerPass(times(8, [ceiling, { passed: false }] as [Partial<StepRun>, Partial<StepRun>]));
    expect(proportion(fewer.a, fewer.b, 'ceiling_share').verdict).toBe('better');
  });

  it('gives the step pass rate per rung, each rung from its own step pairs', () => {
    const a = [passRecord(0, [stepRun(0), stepRun(1)], { rung: 'x' }), passRecord(0, [stepRun(0, { passed: false })], { rung: 'y' })];
    const b = [passRecord(0, [stepRun(0), stepRun(1, { passed: false })], { rung: 'x' }), passRecord(0, [stepRun(0)], { rung: 'y' })];
    const rows = perRung(pair(a, b)).map((r) => [r.rung, r.stepPassRate.metric, r.stepPassRate.a, r.stepPassRate.b, r.stepPassRate.pairs]);
    expect(rows).toEqual([
      ['x', 'step_pass_rate', { count: 2, n: 2 }, { count: 1, n: 2 }, 2],
      ['y', 'step_pass_rate', { count: 0, n: 1 }, { count: 1, n: 1 }, 1],
    ]);
  });
});

describe('counts and times', () => {
  it('sums each count over a pass\'s step-runs, and compares the mean of the paired differences', () => {
    // Pass 0: A 1 + 2 dead calls against 0; pass 1: A 4 against B 1. Every pair differs by -3,
    // so every resample's mean is -3 too.
    const a = [passRecord(0, [stepRun(0, { deadCalls: 1, repeats: 2, zeroToolRounds: 1 }), stepRun(1, { deadCalls: 2, repeats: 1 })]),
      passRecord(1, [stepRun(0, { deadCalls: 4, repeats: 5, zeroToolRounds: 2 })])];
    const b = [passRecord(0, [stepRun(0), stepRun(1, { repeats: 1 })]), passRecord(1, [stepRun(0, { deadCalls: 1, repeats: 1, zeroToolRounds: 3 })])];
    const dead = count(a, b, 'dead_calls');
    expect({ a: dead.a, b: dead.b, difference: dead.difference, verdict: dead.verdict, identical: dead.identical, pairs: dead.pairs, excluded: dead.excluded })
      .toEqual({ a: { total: 7, mean: 3.5, median: 3.5 }, b: { total: 1, mean: 0.5, median: 0.5 }, difference: { estimate: -3, lower: -3, upper: -3 },
        verdict: 'better', identical: false, pairs: 2, excluded: 0 });
    // Repeats 3 and 5 against 1 and 1: differences -2 and -4, mean -3.
    expect(count(a, b, 'identical_repeats')).toMatchObject({ a: { total: 8, mean: 4 }, b: { total: 2, mean: 1 }, difference: { estimate: -3 } });
    // Zero-tool rounds 1 and 2 against 0 and 3: differences -1 and +1.
    expect(count(a, b, 'zero_tool_rounds')).toMatchObject({ a: { total: 3 }, b: { total: 3 }, difference: { estimate: 0 }, identical: false });
  });

  it('leaves a pass out of a token count when a side reported no count in any of its steps', () => {
    const a = [passRecord(0, [stepRun(0, { tokensIn: 100, tokensOut: 10 }), stepRun(1, { tokensIn: 50, tokensOut: 5 })]),
      passRecord(1, [stepRun(0, { tokensIn: 120, tokensOut: 12, tokensOutMissing: 1 })])];
    const b = [passRecord(0, [stepRun(0, { tokensIn: 80, tokensOut: 8 }), stepRun(1, { tokensIn: 40, tokensOut: 4 })]),
      passRecord(1, [stepRun(0, { tokensIn: 90, tokensOut: 9 }), stepRun(1, { tokensInMissing: 1 })])];
    expect(count(a, b, 'tokens_in')).toMatchObject({ pairs: 1, excluded: 1, a: { total: 150 }, b: { total: 120 }, difference: { estimate: -30, lower: -30, upper: -30 }, verdict: 'better' });
    expect(count(a, b, 'tokens_out')).toMatchObject({ pairs: 1, excluded: 1, a: { total: 15 }, b: { total: 12 }, difference: { estimate: -3 } });
  });

  it('has no pairs when every pair misses a count, and is then not identical', () => {
    const a = [passRecord(0, [stepRun(0, { tokensInMissing: 1 })])];
    const b = [passRecord(0, [stepRun(0)])];
    expect(count(a, b, 'tokens_in')).toEqual(expect.objectContaining({
      pairs: 0, excluded: 1, difference: null, verdict: 'no_pairs', identical: false,
      a: { total: 0, mean: null, median: null }, b: { total: 0, mean: null, median: null },
    }));
  });

  it('takes the mean difference of counts and the median of times', () => {
    // Differences 0, 0, +3: mean 1, median 0.
    expect(deadCalls([[1, 1], [2, 2], [0, 3]]).difference!.estimate).toBe(1);
    // Step times 100, 200, 300 against 101, 201, 310: differences 1, 1, 10, median 1 (mean 4).
    const { a, b } = onePerPass([[{ ms: 100 }, { ms: 101 }], [{ ms: 200 }, { ms: 201 }], [{ ms: 300 }, { ms: 310 }]]);
    const ms = count(a, b, 'step_ms');
    expect(ms.difference!.estimate).toBe(1);
    expect([ms.a.median, ms.b.median, ms.a.mean, ms.b.mean]).toEqual([200, 201, 200, 204]);
  });

  it('leaves errored step-runs out of step times', () => {
    const { a, b } = onePerPass([[{ ms: 100 }, { ms: 90 }], [{ ms: 100, reason: 'errored', passed: false }, { ms: 5 }], [{ ms: 7 }, { ms: 9, reason: 'errored', passed: false }]]);
    expect(count(a, b, 'step_ms')).toMatchObject({ pairs: 1, excluded: 2, a: { total: 100 }, b: { total: 90 } });
  });

  it('times answer to end where both sides answered, errored or not', () => {
    const { a, b } = onePerPass([
      [{ endT: 500, answeredAt: 170 }, { endT: 200, answeredAt: 190 }],
      [{ endT: 300, answeredAt: 100, reason: 'errored', passed: false }, { endT: 300, answeredAt: 280 }],
      [{ endT: 300, answeredAt: 100 }, { endT: 300 }],
    ]);
    expect(count(a, b, 'time_to_answer')).toMatchObject({ pairs: 2, excluded: 1, a: { total: 530 }, b: { total: 30 }, statistic: 'median' });
  });

  it('calls pairs with equal values identical and the same', () => {
    const m = deadCalls([[1, 1], [0, 0], [3, 3]]);
    expect({ verdict: m.verdict, identical: m.identical, difference: m.difference })
      .toEqual({ verdict: 'same', identical: true, difference: { estimate: 0, lower: 0, upper: 0 } });
  });

  it('calls a difference that rounds to 0 ms the same, without calling it identical', () => {
    const { a, b } = onePerPass([[{ ms: 100 }, { ms: 100.2 }], [{ ms: 50 }, { ms: 50.2 }]]);
    const m = count(a, b, 'step_ms');
    expect({ verdict: m.verdict, identical: m.identical }).toEqual({ verdict: 'same', identical: false });
    expect(m.difference!.estimate).toBeCloseTo(0.2, 9);
  });

  it('is unclear when the interval reaches 0 on one side only', () => {
    // Differences 0 and +1: a resample's mean is 0, 0.5 or 1, the ends each with chance 1/4, so
    // the interval is 0 to 1 (0 to 10 per 10 passes).
    expect(deadCalls([[0, 0], [0, 1]])).toMatchObject({ verdict: 'unclear', difference: { estimate: 0.5, lower: 0, upper: 1 } });
    expect(deadCalls([[0, 0], [1, 0]])).toMatchObject({ verdict: 'unclear', difference: { estimate: -0.5, lower: -1, upper: 0 } });
  });

  it('reads calls per 10 passes, so a twentieth of a call per pass is a difference', () => {
    // 4 of 20 pairs differ by one call. A resample misses all four with chance 0.8^20 = 1.2%,
    // below 2.5%, and has at most one with chance 6.9%: the near end of the interval is 1/20 of
    // a call per pass, shown as 0.5 per 10 passes.
    const fewer = deadCalls([...times(4, [1, 0] as [number, number]), ...times(16, [0, 0] as [number, number])]);
    expect(fewer.verdict).toBe('better');
    expect(fewer.difference!.upper).toBeCloseTo(-0.05, 12);
    const more = deadCalls([...times(4, [0, 1] as [number, number]), ...times(16, [0, 0] as [number, number])]);
    expect(more.verdict).toBe('worse');
    expect(more.difference!.lower).toBeCloseTo(0.05, 12);
  });
});

describe('tool selection against the reference', () => {
  const scored = (reference: string[], calls: string[], over: Partial<StepRun> = {}): Partial<StepRun> =>
    ({ reference, selection: selection(reference, tally(calls)), ...over });

  it('compares F1 per step-run, higher better: B on the reference path beats A that wandered', () => {
    const pairs = times(8, [scored(['a__x'], ['a__x', 'b__y', 'b__y']), scored(['a__x'], ['a__x'])] as [Partial<StepRun>, Partial<StepRun>]);
    const { a, b } = onePerPass(pairs);
    const f1 = count(a, b, 'tool_f1');
    expect(f1).toMatchObject({ better: 'higher', unit: 'score', statistic: 'mean', pairs: 8, excluded: 0, verdict: 'better' });
    expect(f1.a.mean).toBeCloseTo(0.5, 12);
    expect(f1.b.mean).toBe(1);
    expect(f1.difference!.estimate).toBeCloseTo(0.5, 12);
    expect(metricSentence(f1)).toBe('tool F1: 0.50 higher per step-run (mean of paired differences, every resample 0.50 higher; A 0.50, B 1.00 per step-run (means) over 8 paired step-runs)');
    // The same pairs the other way round: B worse.
    expect(count(b, a, 'tool_f1').verdict).toBe('worse');
    expect(count(a, b, 'path_efficiency')).toMatchObject({ verdict: 'better', a: { mean: 1 / 3 }, b: { mean: 1 } });
    expect(count(a, b, 'tool_precision')).toMatchObject({ verdict: 'better', a: { mean: 1 / 3 }, b: { mean: 1 } });
    // Both found the one reference call.
    expect(count(a, b, 'tool_recall')).toMatchObject({ verdict: 'same', identical: true });
    // Extra calls: 2 a pass under A, none under B; fewer is better, per 10 passes.
    expect(count(a, b, 'extra_calls')).toMatchObject({ better: 'lower', verdict: 'better', a: { total: 16 }, b: { total: 0 } });
  });

  it('leaves out a pair with an errored side, no reference recorded, or the figure undefined on a side', () => {
    const { a, b } = onePerPass([
      [scored(['a__x'], ['a__x']), scored(['a__x'], ['a__x'])],
      [scored(['a__x'], ['a__x'], { reason: 'errored' }), scored(['a__x'], ['a__x'])],
      [{}, scored(['a__x'], ['a__x'])],
      // No call on A: no precision and no efficiency, but a recall (0) and an F1 (0).
      [scored(['a__x'], []), scored(['a__x'], ['a__x'])],
    ]);
    expect(count(a, b, 'tool_f1')).toMatchObject({ pairs: 2, excluded: 2 });
    expect(count(a, b, 'tool_recall')).toMatchObject({ pairs: 2, excluded: 2, a: { total: 1 }, b: { total: 2 } });
    expect(count(a, b, 'tool_precision')).toMatchObject({ pairs: 1, excluded: 3 });
    expect(count(a, b, 'path_efficiency')).toMatchObject({ pairs: 1, excluded: 3 });
    // A pass is compared on extra calls only when each of its steps recorded the reference.
    expect(count(a, b, 'extra_calls')).toMatchObject({ pairs: 3, excluded: 1 });
  });

  it('sums extra calls over the steps of a pass', () => {
    const pass = (extra: number) => passRecord(0, [stepRun(0, scored([], times(extra, 'a__x'))), stepRun(1, scored(['a__x'], ['a__x', 'a__x']))]);
    expect(count([pass(2)], [pass(0)], 'extra_calls')).toMatchObject({ pairs: 1, a: { total: 3 }, b: { total: 1 } });
    // One step of a pass without the reference leaves the pass out, though the other has it.
    const half = passRecord(0, [stepRun(0, scored([], ['a__x'])), stepRun(1)]);
    expect(count([half], [pass(0)], 'extra_calls')).toMatchObject({ pairs: 0, excluded: 1 });
  });
});
