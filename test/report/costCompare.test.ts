// Cost per passed step, B against A, from the paired passes themselves: which pairs count, the
// sides' figures, and the verdict.
import { describe, expect, it } from 'vitest';
import type { Pricing } from '../../src/models/prices.ts';
import { compareCost } from '../../src/report/costCompare.ts';
import type { Pairing } from '../../src/report/pairing.ts';
import { sequentialTime } from './records.ts';
import type { PassRecord, StepRun } from '../../src/report/passes.ts';

/** $1 per million input, $0.10 cached read, $2 cache write, $10 per million output. */
const PRICE: Pricing = { status: 'priced', model: 'openai:m', usdPerMillion: { input: 1, output: 10, cachedInput: 0.1, cacheWrite: 2 }, source: null, read: null, from: 'test' };
const FREE = (why: string): Pricing => ({ status: 'free', model: 'synthetic:x', why });
const UNPRICED = (why: string): Pricing => ({ status: 'unpriced', model: 'openai:gpt-9', why });

function step(over: Partial<StepRun> = {}): StepRun {
  const run: Omit<StepRun, 'time'> = {
    step: 0, passed: true, reason: 'answered', failedChecks: 0, ms: 1, startT: 0, endT: 1, answeredAt: undefined, calls: 0, sent: 0,
    outcomes: {} as StepRun['outcomes'], repeats: 0, repeatsSent: 0, deadCalls: 0, requests: 1, zeroToolRounds: 0, responses: 1,
    tokensIn: 0, tokensOut: 0, tokensInMissing: 0, tokensOutMissing: 0, cacheRead: 0, cacheWrite: 0, roundMs: [], tools: [], ...over,
  };
  return { ...run, time: over.time ?? sequentialTime(run) };
}

function pass(steps: StepRun[], error?: string): PassRecord {
  return { rung: 'r', arm: 'x', pass: 0, seed: 1, file: 'f', passed: true, error, steps, events: 1, content: 'full' };
}

/** A pass of one step costing `usd` in output tokens, passed or not. */
const costing = (usd: number, passed = true): PassRecord => pass([step({ tokensOut: usd * 100_000, passed })]);

function pairing(pairs: [PassRecord, PassRecord][]): Pairing {
  return { rungs: ['r'], passes: pairs.map(([a, b], i) => ({ rung: 'r', pass: i, a, b })), steps: [], leftOut: {} as Pairing['leftOut'] };
}

const SEED = 7;
const HEAD = { metric: 'cost_per_passed_step', label: 'cost per passed step', better: 'lower', pairsOf: 'passes' };

describe('which pricing is compared', () => {
  it('has no cost to compare when a side is unpriced, saying which and why', () => {
    const two = pairing([[costing(1), costing(1)], [costing(1), costing(1)]]);
    expect(compareCost(two, UNPRICED('no price a'), PRICE, SEED)).toStrictEqual({
      ...HEAD, status: 'unpriced', note: 'A has no cost: no price a', pairs: 0, excluded: 2, a: null, b: null, difference: null, undefinedResamples: 0, verdict: 'no_pairs',
    });
    expect(compareCost(two, PRICE, UNPRICED('no price b'), SEED).note).toBe('B has no cost: no price b');
    expect(compareCost(two, UNPRICED('x'), UNPRICED('y'), SEED).note).toBe('A has no cost: x; B has no cost: y');
    expect(compareCost(two, UNPRICED('x'), FREE('f'), SEED).status).toBe('unpriced');
  });

  it('has nothing to compare when both sides are free, saying why once when the reason is the same', () => {
    const one = pairing([[costing(1), costing(1)]]);
    expect(compareCost(one, FREE('synthetic'), FREE('synthetic'), SEED)).toStrictEqual({
      ...HEAD, status: 'free', note: 'A and B cost nothing: synthetic', pairs: 0, excluded: 1, a: null, b: null, difference: null, undefinedResamples: 0, verdict: 'no_pairs',
    });
    expect(compareCost(one, FREE('local'), FREE('replay'), SEED).note).toBe('A costs nothing (local), nor does B (replay)');
  });

  it('compares a free side with a priced one, the free side at nothing', () => {
    const result = compareCost(pairing([[costing(1), costing(1)]]), FREE('local'), PRICE, SEED);
    expect(result.status).toBe('compared');
    expect(result.a).toStrictEqual({ usd: 0, passedSteps: 1, perPassedStep: 0 });
    expect(result.b!.usd).toBeCloseTo(1, 10);
    const reverse = compareCost(pairing([[costing(1), costing(1)]]), PRICE, FREE('local'), SEED);
    expect(reverse.status).toBe('compared');
    expect(reverse.b!.usd).toBe(0);
  });
});

describe('which pairs count', () => {
  const good = (): [PassRecord, PassRecord] => [costing(1), costing(1)];

  it.each([
    ['a harness error on A', [pass([step()], 'boom'), costing(1)]],
    ['a harness error on B', [costing(1), pass([step()], 'boom')]],
    ['an errored step on A', [pass([step(), step({ reason: 'errored', passed: false })]), costing(1)]],
    ['an errored step on B', [costing(1), pass([step({ reason: 'errored', passed: false })])]],
    ['a response with no input count on A', [pass([step(), step({ tokensInMissing: 1 })]), costing(1)]],
    ['a response with no output count on B', [costing(1), pass([step({ tokensOutMissing: 1 })])]],
    ['a response with no input count on B', [costing(1), pass([step({ tokensInMissing: 1 })])]],
    ['a response with no output count on A', [pass([step({ tokensOutMissing: 1 })]), costing(1)]],
  ] as [string, [PassRecord, PassRecord]][])('leaves out a pair with %s, and counts it', (_, left) => {
    const result = compareCost(pairing([good(), left, good()]), PRICE, PRICE, SEED);
    expect([result.pairs, result.excluded]).toStrictEqual([2, 1]);
    expect(result.a!.usd).toBeCloseTo(2, 10);
  });

  it('is none when every pair is left out: compared, with nothing to say', () => {
    expect(compareCost(pairing([[pass([step()], 'boom'), costing(1)]]), PRICE, PRICE, SEED)).toStrictEqual({
      ...HEAD, status: 'compared', pairs: 0, excluded: 1, a: { usd: 0, passedSteps: 0, perPassedStep: null }, b: { usd: 0, passedSteps: 0, perPassedStep: null },
      note: null, difference: null, undefinedResamples: 0, verdict: 'no_pairs',
    });
  });
});

describe('each side', () => {
  it('sums every step of every pair, cached reads and writes at their own prices', () => {
    const a = pass([step({ tokensIn: 1_000_000, cacheRead: 400_000, cacheWrite: 100_000 }), step({ tokensOut: 100_000, passed: false, reason: 'ceiling' })]);
    const result = compareCost(pairing([[a, costing(1)], [costing(2), costing(1)]]), PRICE, PRICE, SEED);
    // 500k at $1 + 400k at $0.10 + 100k at $2 + 100k at $10 = 0.5 + 0.04 + 0.2 + 1 = $1.74, and $2
    expect(result.a!.usd).toBeCloseTo(3.74, 10);
    expect(result.a!.passedSteps).toBe(2);
    expect(result.a!.perPassedStep).toBeCloseTo(1.87, 10);
    expect(result.b).toStrictEqual({ usd: expect.closeTo(2, 10), passedSteps: 2, perPassedStep: expect.closeTo(1, 10) });
  });

  it('counts only steps that passed and did not error', () => {
    const a = pass([step(), step({ passed: false, reason: 'ceiling' }), step({ passed: true, reason: 'time_limit' })]);
    expect(compareCost(pairing([[a, costing(1)]]), PRICE, PRICE, SEED).a!.passedSteps).toBe(2);
  });

  it.each([
    ['A', [costing(1, false), costing(1)]],
    ['B', [costing(1), costing(1, false)]],
    ['A or B', [costing(1, false), costing(1, false)]],
  ] as [string, [PassRecord, PassRecord]][])('has no cost per passed step when no step passed under %s, and says so', (which, only) => {
    const result = compareCost(pairing([only]), PRICE, PRICE, SEED);
    expect(result).toMatchObject({
      status: 'compared', pairs: 1, excluded: 0, difference: null, undefinedResamples: 0, verdict: 'unclear',
      note: `no step passed under ${which}, so a passed step has no cost to compare`,
    });
  });
});

describe('the verdict', () => {
  const many = (a: (i: number) => PassRecord, b: (i: number) => PassRecord, n = 10) => pairing(Array.from({ length: n }, (_, i) => [a(i), b(i)]));

  it('is the same when every pair cost the same and passed the same steps', () => {
    const result = compareCost(many((i) => costing(1 + i), (i) => costing(1 + i)), PRICE, PRICE, SEED);
    expect(result).toMatchObject({ verdict: 'same', note: null, undefinedResamples: 0 });
    expect(result.difference).toStrictEqual({ estimate: 0, lower: 0, upper: 0 });
  });

  it('is not the same when the costs match but the passed steps do not', () => {
    const result = compareCost(many((i) => costing(1, i !== 0), () => costing(1)), PRICE, PRICE, SEED);
    expect(result.verdict).not.toBe('same');
  });

  it('is not the same when the passed steps match but one pair cost more', () => {
    const result = compareCost(many(() => costing(1), (i) => costing(i === 0 ? 1.01 : 1)), PRICE, PRICE, SEED);
    expect(result.verdict).not.toBe('same');
  });

  it('is worse when B pays more per passed step beyond the interval, and better when it pays less', () => {
    const worse = compareCost(many((i) => costing(1 + (i % 3) / 10), (i) => costing(2 + (i % 3) / 10)), PRICE, PRICE, SEED);
    expect(worse.verdict).toBe('worse');
    expect(worse.difference!.estimate).toBeCloseTo(1, 10);
    expect(worse.difference!.lower).toBeGreaterThan(0);
    const better = compareCost(many((i) => costing(2 + (i % 3) / 10), (i) => costing(1 + (i % 3) / 10)), PRICE, PRICE, SEED);
    expect(better.verdict).toBe('better');
    expect(better.difference!.upper).toBeLessThan(0);
  });

  it('is unclear when the interval holds 0', () => {
    const result = compareCost(many((i) => costing(1 + (i % 2)), (i) => costing(1 + ((i + 1) % 2)), 9), PRICE, PRICE, SEED);
    expect(result.verdict).toBe('unclear');
    expect(result.difference!.lower).toBeLessThan(0);
    expect(result.difference!.upper).toBeGreaterThan(0);
  });

  it('is unclear, not worse, when the interval only reaches down to 0', () => {
    // One pair in ten differs: a resample without it differs by exactly 0, so a bound sits at 0.
    const result = compareCost(many(() => costing(1), (i) => costing(i === 0 ? 3 : 1)), PRICE, PRICE, SEED);
    expect(result.difference!.lower).toBe(0);
    expect(result.difference!.upper).toBeGreaterThan(0);
    expect(result.verdict).toBe('unclear');
  });

  it('is unclear, not better, when the interval only reaches up to 0', () => {
    const result = compareCost(many((i) => costing(i === 0 ? 3 : 1), () => costing(1)), PRICE, PRICE, SEED);
    expect(result.difference!.upper).toBe(0);
    expect(result.difference!.lower).toBeLessThan(0);
    expect(result.verdict).toBe('unclear');
  });

  it('is seeded: the same pairs and seed give the same interval', () => {
    const pairs = many((i) => costing(1 + (i % 4)), (i) => costing(1 + (i % 3)));
    expect(compareCost(pairs, PRICE, PRICE, 3)).toStrictEqual(compareCost(pairs, PRICE, PRICE, 3));
    expect(compareCost(pairs, PRICE, PRICE, 3).difference).not.toStrictEqual(compareCost(pairs, PRICE, PRICE, 4).difference);
  });

  it('says how many resamples had no passed step on a side and were left out', () => {
    const result = compareCost(pairing([[costing(1), costing(1)], [costing(1, false), costing(2, false)]]), PRICE, PRICE, SEED);
    expect(result.undefinedResamples).toBeGreaterThan(0);
    expect(result.note).toBe(`${result.undefinedResamples} of the bootstrap resamples had no passed step on a side and were left out of the interval`);
  });
});
