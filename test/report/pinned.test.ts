// Every figure the golden comparisons of test/fixtures/runs pin, asserted by value: counted by
// hand from the scripts in test/fixtures/makeRuns.ts, intervals and p-values worked from their
// formulas (and the bootstrap intervals from the exact bootstrap distribution, enumerated by
// hand for these few pairs), so regenerating a golden file cannot bless a wrong figure.
//
// How the fixture's times come out (makeRuns.ts writePass): a step takes 10 ms to start, each
// round 60 ms (10 + a 50 ms response), each call 100 ms when sent (ok, failed) and 1 ms when the
// harness answered it, and 10 ms to end. A correct answer exists from the response of the round
// that `answers`, so answer-to-end is what follows that response.
import { describe, expect, it } from 'vitest';
import type { ArmComparison, ComparisonReport } from '../../src/report/compare.ts';
import type { Metrics } from '../../src/report/metrics.ts';
import { compareOutput } from '../../src/report/output.ts';
import type { MetricComparison, MetricName } from '../../src/report/paired.ts';
import type { RunSummary } from '../../src/report/summary.ts';

const BEFORE = 'test/fixtures/runs/before';
const AFTER = 'test/fixtures/runs/after';

// Made inside each test, not in a beforeAll: the mutation battery runs only the tests that
// reach a mutant, and work done outside a test would make every mutant reach every test.
const arms = async (): Promise<ComparisonReport> => (await compareOutput(BEFORE, undefined, { format: 'json' })).report;
const runs = async (): Promise<ComparisonReport> => (await compareOutput(BEFORE, AFTER, { format: 'json' })).report;

const metric = (c: ArmComparison, name: MetricName): MetricComparison => c.metrics.find((m) => m.metric === name)!;

/** A proportion comparison: [A count, B count, pairs, A-only, B-only, p, difference, lower, upper, verdict, settle]. */
type Prop = [number, number, number, number, number, number, number, number, number, string, number | null];
/** A count comparison: [pairs, excluded, A total, B total, estimate, lower, upper, verdict]. */
type Count = [number, number, number, number, number, number, number, string];

function expectProportion(m: MetricComparison, [ac, bc, pairs, aOnly, bOnly, p, d, lower, upper, verdict, settle]: Prop): void {
  if (m.kind !== 'proportion') throw new Error(`${m.metric} is not a proportion`);
  expect({ a: m.a, b: m.b, aOnly: m.aOnly, bOnly: m.bOnly, verdict: m.verdict }, m.metric)
    .toEqual({ a: { count: ac, n: pairs }, b: { count: bc, n: pairs }, aOnly, bOnly, verdict });
  expect(m.p, m.metric).toBeCloseTo(p, 6);
  expect(m.difference!.estimate, m.metric).toBeCloseTo(d, 6);
  expect(m.difference!.lower, m.metric).toBeCloseTo(lower, 5);
  expect(m.difference!.upper, m.metric).toBeCloseTo(upper, 5);
  if (settle === null) expect(m.settleMultiple, m.metric).toBeNull();
  else expect(m.settleMultiple!, m.metric).toBeCloseTo(settle, 3);
}

function expectCount(m: MetricComparison, [pairs, excluded, aTotal, bTotal, estimate, lower, upper, verdict]: Count): void {
  if (m.kind !== 'count') throw new Error(`${m.metric} is not a count`);
  expect({ pairs: m.pairs, excluded: m.excluded, a: m.a.total, b: m.b.total, verdict: m.verdict }, m.metric)
    .toEqual({ pairs, excluded, a: aTotal, b: bTotal, verdict });
  expect(m.difference!.estimate, m.metric).toBeCloseTo(estimate, 6);
  expect(m.difference!.lower, m.metric).toBeCloseTo(lower, 6);
  expect(m.difference!.upper, m.metric).toBeCloseTo(upper, 6);
}

// The rates' intervals by hand: the d where the continuity-corrected score statistic,
// sign(e) max(0, |e| - 1) / sqrt(n (2 q + d - d^2)) with e = B-only - A-only - n d and q the
// constrained maximum-likelihood A-only share, is -+1.959964. With no discordant pair of n, above
// 1/n it is -(n d - 1) / sqrt(n d (1 - d)): 0.563503 for 6 pairs, 0.792340 for 3. Solved to 6
// decimals by bisection on the statistic, outside the code under test (which bisects on p).
// McNemar's test by hand, corrected: twice the normal tail beyond (|B-only - A-only| - 1) /
// sqrt(discordant): 0 against 3 -> 1/sqrt 3, p = 0.248213; 0 against 2 -> 1/sqrt 2, p = 0.479500;
// one discordant pair -> 0, p = 1. "About Nx more passes" (Connor 1987): (1.959964 sqrt(f) + 0.841621 sqrt(f - d^2))^2 / d^2 / n,
// f the discordant share and d the difference.
describe('on against off, the arms of before', () => {
  it('pairs 6 passes and 9 step-runs, one of each with an errored side (catalog-config pass 1, on)', async () => {
    const [c] = (await arms()).comparisons;
    expect(c!.shared).toEqual({ rungs: ['dead-browser', 'catalog-config'], passes: 6, stepRuns: 9 });
    expect(c!.leftOut).toMatchObject({ erroredStepPairs: 1, erroredPassPairs: 1, passesOnlyInA: 0, passesOnlyInB: 0, seedMismatches: 0 });
  });

  it('compares the rates: off passed 5 of 8 decided step pairs (pass 2 fails both dead-browser steps, catalog pass 0 guesses), on all 8', async () => {
    const [c] = (await arms()).comparisons;
    expectProportion(metric(c!, 'step_pass_rate'), [5, 8, 8, 0, 3, 0.2482131, 0.375, -0.222285, 0.784784, 'unclear', 2.2974]);
    // Clean passes of the 5 pairs not errored: off 3 (dead-browser 0, 1 and catalog 2), on 5.
    expectProportion(metric(c!, 'clean_run_rate'), [3, 5, 5, 0, 2, 0.4795001, 0.4, -0.406432, 0.882379, 'unclear', 3.411]);
    // Only off's dead-browser pass 2 ends step 1 at the ceiling.
    expectProportion(metric(c!, 'ceiling_share'), [1, 0, 8, 1, 0, 1, -0.125, -0.590725, 0.388291, 'unclear', 7.5473]);
  });

  it('compares the counts per pass, with the exact bootstrap percentiles', async () => {
    const [c] = (await arms()).comparisons;
    // Dead calls: off sends the failed browser call 3 times in dead-browser step 0 (2 dead) in each
    // of 3 passes; on refuses the 2nd. Differences -2, -2, -2, 0, 0, 0: mean -1. A resample's mean
    // is -2k/6, k ~ Bin(6, 1/2): P(k = 6) = 1.6% < 2.5% <= P(k >= 5) = 10.9%, so the interval is
    // -10/6 to -2/6.
    expectCount(metric(c!, 'dead_calls'), [6, 0, 6, 0, -1, -5 / 3, -1 / 3, 'better']);
    // Identical repeats: off 2, 2, 3 in dead-browser (the 3rd browser call, the 3rd and, at the
    // ceiling, 4th lookup), on 1 each (the 3rd lookup, short-circuited): differences -1, -1, -2, 0, 0, 0.
    // Enumerated: P(mean <= -8/6) = 3.3%, P(mean <= -9/6) = 0.9%; P(mean >= -1/6) = 7.8%, P(mean >= 0) = 1.6%.
    expectCount(metric(c!, 'identical_repeats'), [6, 0, 7, 3, -4 / 6, -8 / 6, -1 / 6, 'better']);
    // Zero-tool rounds: off's catalog pass 0 only. -k/6 with k ~ Bin(6, 1/6): P(k >= 3) = 6.2%, P(k >= 4) = 0.9%.
    expectCount(metric(c!, 'zero_tool_rounds'), [6, 0, 1, 0, -1 / 6, -0.5, 0, 'unclear']);
    // Tokens in, the errored pass left out: off 900, 900, 900 (9 rounds), 100, 200; on 800 x 3, 200, 200.
    expectCount(metric(c!, 'tokens_in'), [5, 1, 3000, 2800, -40, -100, 40, 'unclear']);
    // Tokens out, also without on's catalog pass 2 (its answer reported none): 90 x 3 + 10 against 80 x 3 + 20.
    expectCount(metric(c!, 'tokens_out'), [4, 2, 280, 260, -5, -10, 5, 'unclear']);
  });

  it('compares the times per step-run by their median difference', async () => {
    const [c] = (await arms()).comparisons;
    // Step times, off against on: dead-browser step 0 710 against 451, step 1 550 (650 at the
    // ceiling) against 451, catalog 70 and 230 against 230 and 230. Differences sorted: -259 x 3,
    // -199, -99, -99, 0, +160: median -149. Bootstrap, enumerated: P(median <= -259) = 13.7%;
    // P(median >= 0) = 3.2% and P(median >= 30.5) = 1.0%, so 0 is the upper end.
    const stepMs = metric(c!, 'step_ms');
    expectCount(stepMs, [8, 1, 4180, 3166, -149, -259, 0, 'unclear']);
    expect(stepMs.kind === 'count' && [stepMs.a.median, stepMs.b.median]).toEqual([600, 451]);
    // Answer-to-end: off's dead-browser step 1 answers in round 1, then 100 + 160 + 60 + 10 ms
    // pass before it ends: 330 against on's 10. Both sides answered in 5 pairs: differences 0, -320, 0, -320, 0.
    // P(median = -320) = P(Bin(5, 0.4) >= 3) = 31.7%.
    expectCount(metric(c!, 'time_to_answer'), [5, 4, 690, 50, 0, -320, 0, 'unclear']);
  });

  it('gives the step pass rate per rung', async () => {
    const [c] = (await arms()).comparisons;
    const rung = (name: string) => c!.rungs.find((r) => r.rung === name)!.stepPassRate;
    expectProportion(rung('dead-browser'), [4, 6, 6, 0, 2, 0.4795001, 1 / 3, -0.366122, 0.812384, 'unclear', 3.5037]);
    expectProportion(rung('catalog-config'), [1, 2, 2, 0, 1, 1, 0.5, -0.760927, 1, 'unclear', 6.5284]);
  });
});

describe('after against before', () => {
  const arm = async (name: string): Promise<ArmComparison> => (await runs()).comparisons.find((c) => c.a.arm === name)!;

  it('pairs only dead-browser, and on only its passes 0 and 1 (pass 2 of after is interrupted)', async () => {
    expect((await arm('on')).shared).toEqual({ rungs: ['dead-browser'], passes: 2, stepRuns: 4 });
    expect((await arm('on')).leftOut).toMatchObject({ rungsOnlyInA: ['catalog-config'], rungsOnlyInB: ['sql-insert'], passesOnlyInA: 4, passesOnlyInB: 3 });
    expect((await arm('off')).shared).toEqual({ rungs: ['dead-browser'], passes: 3, stepRuns: 6 });
    expect((await arm('off')).leftOut).toMatchObject({ passesOnlyInA: 3, passesOnlyInB: 3 });
  });

  it('on: after pass 0 ends step 1 at the ceiling, the one discordant pair', async () => {
    const on = await arm('on');
    expectProportion(metric(on, 'step_pass_rate'), [4, 3, 4, 1, 0, 1, -0.25, -0.849961, 0.578958, 'unclear', 7.2298]);
    expectProportion(metric(on, 'clean_run_rate'), [2, 1, 2, 1, 0, 1, -0.5, -1, 0.760927, 'unclear', 6.5284]);
    expectProportion(metric(on, 'ceiling_share'), [0, 1, 4, 0, 1, 1, 0.25, -0.578958, 0.849961, 'unclear', 7.2298]);
    // Repeats 1, 1 before; 2 (the 3rd and 4th lookup at the ceiling), 1 after: differences 1, 0.
    expectCount(metric(on, 'identical_repeats'), [2, 0, 2, 3, 0.5, 0, 1, 'unclear']);
    expectCount(metric(on, 'dead_calls'), [2, 0, 0, 0, 0, 0, 0, 'same']);
    expectCount(metric(on, 'zero_tool_rounds'), [2, 0, 0, 0, 0, 0, 0, 'same']);
    expectCount(metric(on, 'tokens_in'), [2, 0, 1600, 1600, 0, 0, 0, 'same']);
    expectCount(metric(on, 'tokens_out'), [2, 0, 160, 160, 0, 0, 0, 'same']);
    // The ceiling step takes 452 ms (two 1 ms short-circuits) against 451: differences 0, 1, 0, 0.
    // P(median >= 1) = P(Bin(4, 1/4) >= 3) = 5.1% > 2.5%, so the upper end is 1.
    expectCount(metric(on, 'step_ms'), [4, 0, 1804, 1805, 0, 0, 1, 'unclear']);
    // The ceiling step never answered: 3 pairs, each 10 against 10.
    expectCount(metric(on, 'time_to_answer'), [3, 1, 30, 30, 0, 0, 0, 'same']);
    expectProportion(on.rungs[0]!.stepPassRate, [4, 3, 4, 1, 0, 1, -0.25, -0.849961, 0.578958, 'unclear', 7.2298]);
  });

  it('off: the same script both times, so every pair is the same', async () => {
    const off = await arm('off');
    expectProportion(metric(off, 'step_pass_rate'), [4, 4, 6, 0, 0, 1, 0, -0.563503, 0.563503, 'same', null]);
    expectProportion(metric(off, 'clean_run_rate'), [2, 2, 3, 0, 0, 1, 0, -0.79234, 0.79234, 'same', null]);
    expectProportion(metric(off, 'ceiling_share'), [1, 1, 6, 0, 0, 1, 0, -0.563503, 0.563503, 'same', null]);
    expectCount(metric(off, 'dead_calls'), [3, 0, 6, 6, 0, 0, 0, 'same']);
    expectCount(metric(off, 'identical_repeats'), [3, 0, 7, 7, 0, 0, 0, 'same']);
    expectCount(metric(off, 'tokens_in'), [3, 0, 2700, 2700, 0, 0, 0, 'same']);
    expectCount(metric(off, 'tokens_out'), [3, 0, 270, 270, 0, 0, 0, 'same']);
    expectCount(metric(off, 'step_ms'), [6, 0, 3880, 3880, 0, 0, 0, 'same']);
    // Answered in 4 pairs: step 0 (10) and step 1 (330) of passes 0 and 1.
    expectCount(metric(off, 'time_to_answer'), [4, 2, 680, 680, 0, 0, 0, 'same']);
  });

  it('finds B worse on nothing', async () => {
    expect((await runs()).comparisons.map((c) => c.worse)).toEqual([[], []]);
    expect((await arms()).comparisons[0]!.worse).toEqual([]);
  });
});

/**
 * One row of a run's outcome and waste tables. Rates as [count, n, lower, upper], modified
 * Wilson 95% by hand (see stats.test.ts): the score interval, except the Poisson bound
 * g1 / n = 0.0512933 / n or g2 / n = 0.3553615 / n next to 1 or 2 successes (or failures).
 */
interface Row {
  attempts: number;
  errored: [number, number | null];
  stepPass: [number, number, number, number];
  clean: [number, number] | null;
  ceiling: [number, number];
  /** Largest k, pass@1, pass@k, pass^k at that k. */
  passK: [number, number, number, number];
  calls: [number, number];
  dead: number;
  /** Repeats of deterministic calls [repeats, calls, sent], and of the others. */
  det: [number, number, number];
  nondet: [number, number, number];
  zero: [number, number];
  /** Per attempt and missing responses. */
  tokensIn: [number, number];
  tokensOut: [number, number];
  stepMedian: number;
  /** Answered, step-runs, median answer-to-end. */
  answered: [number, number, number | null];
}

function expectRow(m: Metrics, row: Row, where: string): void {
  expect({
    attempts: m.attempts, errored: [m.reasons.errored, m.erroredPasses], stepPass: [m.stepPassRate.count, m.stepPassRate.n],
    clean: m.cleanRunRate && [m.cleanRunRate.count, m.cleanRunRate.n], ceiling: [m.ceilingShare.count, m.ceilingShare.n],
    calls: [m.calls.total, m.calls.sent], dead: m.deadCalls.count,
    det: [m.identicalRepeats.deterministic.repeats, m.identicalRepeats.deterministic.calls, m.identicalRepeats.deterministic.repeatsSent],
    nondet: [m.identicalRepeats.nondeterministic.repeats, m.identicalRepeats.nondeterministic.calls, m.identicalRepeats.nondeterministic.repeatsSent],
    zero: [m.zeroToolRounds.count, m.zeroToolRounds.requests], missing: [m.tokens.input.missing, m.tokens.output.missing],
    stepMedian: m.stepMs.median, answered: [m.timeToAnswer.answered, m.timeToAnswer.stepRuns, m.timeToAnswer.answeredToEndMs.median],
    k: m.passK.length,
  }, where).toEqual({
    attempts: row.attempts, errored: row.errored, stepPass: row.stepPass.slice(0, 2), clean: row.clean, ceiling: row.ceiling,
    calls: row.calls, dead: row.dead, det: row.det, nondet: row.nondet, zero: row.zero,
    missing: [row.tokensIn[1], row.tokensOut[1]], stepMedian: row.stepMedian, answered: row.answered, k: row.passK[0],
  });
  expect(m.stepPassRate.lower, where).toBeCloseTo(row.stepPass[2], 4);
  expect(m.stepPassRate.upper, where).toBeCloseTo(row.stepPass[3], 4);
  expect(m.tokens.input.perAttempt!, where).toBeCloseTo(row.tokensIn[0], 6);
  expect(m.tokens.output.perAttempt!, where).toBeCloseTo(row.tokensOut[0], 6);
  const [k, at1, atK, hatK] = row.passK;
  expect(m.passK[0]!.passAtK, where).toBeCloseTo(at1, 12);
  expect(m.passK[k - 1]!.passAtK, where).toBeCloseTo(atK, 12);
  expect(m.passK[k - 1]!.passHatK, where).toBeCloseTo(hatK, 12);
}

function rows(summary: RunSummary, armName: string): Record<string, Metrics> {
  const a = summary.arms.find((x) => x.arm === armName)!;
  const out: Record<string, Metrics> = { all: a.overall };
  for (const r of a.rungs) {
    out[r.rung] = r.metrics;
    for (const s of r.steps) out[`${r.rung} step ${s.step}`] = s.metrics;
  }
  return out;
}

const perfect = (n: number, lower: number): [number, number, number, number] => [n, n, lower, 1];

describe('the run tables, row by row', () => {
  it('before, on: every decided step passes; catalog pass 1 errored', async () => {
    const m = rows((await arms()).summaries[0]!, 'on');
    // Each dead-browser pass: step 0 sends the browser (failed), has it refused, reads the notes
    // (4 rounds, 451 ms); step 1 looks up twice and is short-circuited the 3rd time (451 ms).
    const step: Row = {
      attempts: 3, errored: [0, null], stepPass: perfect(3, 0.4385), clean: null, ceiling: [0, 3], passK: [3, 1, 1, 1],
      calls: [9, 6], dead: 0, det: [0, 0, 0], nondet: [0, 9, 0], zero: [0, 12], tokensIn: [400, 0], tokensOut: [40, 0],
      stepMedian: 451, answered: [3, 3, 10],
    };
    expectRow(m['dead-browser step 0']!, step, 'dead-browser step 0');
    expectRow(m['dead-browser step 1']!, { ...step, det: [3, 9, 0], nondet: [0, 0, 0] }, 'dead-browser step 1');
    expectRow(m['dead-browser']!, {
      ...step, errored: [0, 0], stepPass: perfect(6, 0.6097), clean: [3, 3], ceiling: [0, 6], calls: [18, 12], det: [3, 9, 0],
      zero: [0, 24], tokensIn: [800, 0], tokensOut: [80, 0], answered: [6, 6, 10],
    }, 'dead-browser');
    // Catalog: passes 0 and 2 look up once and answer (230 ms); pass 1 errored (one round, no
    // token counts). Pass 2's answer reported no output tokens: 400 in, 30 out over 3 attempts.
    expectRow(m['catalog-config']!, {
      attempts: 3, errored: [1, 1], stepPass: perfect(2, 0.1777), clean: [2, 2], ceiling: [0, 2], passK: [2, 1, 1, 1],
      calls: [2, 2], dead: 0, det: [0, 2, 0], nondet: [0, 0, 0], zero: [0, 5], tokensIn: [400 / 3, 1], tokensOut: [10, 2],
      stepMedian: 230, answered: [2, 3, 10],
    }, 'catalog-config');
    expectRow(m.all!, {
      attempts: 6, errored: [1, 1], stepPass: perfect(8, 0.6756), clean: [5, 5], ceiling: [0, 8], passK: [2, 1, 1, 1],
      calls: [20, 14], dead: 0, det: [3, 11, 0], nondet: [0, 9, 0], zero: [0, 29], tokensIn: [2800 / 6, 1], tokensOut: [270 / 6, 2],
      stepMedian: 451, answered: [8, 9, 10],
    }, 'all');
  });

  // Off, dead-browser: step 0 sends the browser 3 times (2 dead, the 3rd a repeat) and reads the
  // notes, 5 rounds, 710 ms; pass 2 answers wrongly. Step 1 looks up 3 times (550 ms, answers in
  // round 1: 330 ms before the end); pass 2 looks up 4 times and ends at the ceiling (650 ms).
  // pass@k for 2 clean of 3: pass@1 2/3, pass@3 1, pass^3 0.
  const offDeadBrowser: Record<string, Row> = {
    'dead-browser step 0': {
      attempts: 3, errored: [0, null], stepPass: [2, 3, 0.1185, 0.9829], clean: null, ceiling: [0, 3], passK: [3, 2 / 3, 1, 0],
      calls: [12, 12], dead: 6, det: [0, 0, 0], nondet: [3, 12, 3], zero: [0, 15], tokensIn: [500, 0], tokensOut: [50, 0],
      stepMedian: 710, answered: [2, 3, 10],
    },
    'dead-browser step 1': {
      attempts: 3, errored: [0, null], stepPass: [2, 3, 0.1185, 0.9829], clean: null, ceiling: [1, 3], passK: [3, 2 / 3, 1, 0],
      calls: [10, 10], dead: 0, det: [4, 10, 4], nondet: [0, 0, 0], zero: [0, 12], tokensIn: [400, 0], tokensOut: [40, 0],
      stepMedian: 550, answered: [2, 3, 330],
    },
    'dead-browser': {
      attempts: 3, errored: [0, 0], stepPass: [4, 6, 0.3, 0.9408], clean: [2, 3], ceiling: [1, 6], passK: [3, 2 / 3, 1, 0],
      calls: [22, 22], dead: 6, det: [4, 10, 4], nondet: [3, 12, 3], zero: [0, 27], tokensIn: [900, 0], tokensOut: [90, 0],
      stepMedian: 680, answered: [4, 6, 170],
    },
  };

  it('before, off: the dead browser re-sent, the lookups repeated, catalog pass 0 offered no tools', async () => {
    const m = rows((await arms()).summaries[0]!, 'off');
    for (const [where, row] of Object.entries(offDeadBrowser)) expectRow(m[where]!, row, where);
    // Catalog pass 0: one round with no tools offered (70 ms), a wrong guess; passes 1 and 2 as on.
    expectRow(m['catalog-config']!, {
      attempts: 3, errored: [0, 0], stepPass: [2, 3, 0.1185, 0.9829], clean: [2, 3], ceiling: [0, 3], passK: [3, 2 / 3, 1, 0],
      calls: [2, 2], dead: 0, det: [0, 2, 0], nondet: [0, 0, 0], zero: [1, 5], tokensIn: [500 / 3, 0], tokensOut: [50 / 3, 0],
      stepMedian: 230, answered: [2, 3, 10],
    }, 'catalog-config');
    // Step times 70, 230, 230, 550, 550, 650, 710, 710, 710: median 550.
    expectRow(m.all!, {
      attempts: 6, errored: [0, 0], stepPass: [6, 9, 0.3542, 0.8794], clean: [4, 6], ceiling: [1, 9], passK: [3, 2 / 3, 1, 0],
      calls: [24, 24], dead: 6, det: [4, 12, 4], nondet: [3, 12, 3], zero: [1, 32], tokensIn: [3200 / 6, 0], tokensOut: [320 / 6, 0],
      stepMedian: 550, answered: [6, 9, 10],
    }, 'all');
  });

  it('after, on: pass 2 of dead-browser left out; pass 0 ends step 1 at the ceiling', async () => {
    const m = rows((await runs()).summaries[1]!, 'on');
    expectRow(m['dead-browser step 0']!, {
      attempts: 2, errored: [0, null], stepPass: perfect(2, 0.1777), clean: null, ceiling: [0, 2], passK: [2, 1, 1, 1],
      calls: [6, 4], dead: 0, det: [0, 0, 0], nondet: [0, 6, 0], zero: [0, 8], tokensIn: [400, 0], tokensOut: [40, 0],
      stepMedian: 451, answered: [2, 2, 10],
    }, 'dead-browser step 0');
    // The ceiling pass: lookups ok, ok, then two short-circuited (452 ms), no answer. pass@2 for
    // 1 of 2 is 1 - C(1,2)/C(2,2) = 1, pass^2 = C(1,2)/C(2,2) = 0. Median of 451 and 452: 451.5.
    expectRow(m['dead-browser step 1']!, {
      attempts: 2, errored: [0, null], stepPass: [1, 2, 0.0256, 0.9744], clean: null, ceiling: [1, 2], passK: [2, 0.5, 1, 0],
      calls: [7, 4], dead: 0, det: [3, 7, 0], nondet: [0, 0, 0], zero: [0, 8], tokensIn: [400, 0], tokensOut: [40, 0],
      stepMedian: 451.5, answered: [1, 2, 10],
    }, 'dead-browser step 1');
    expectRow(m['dead-browser']!, {
      attempts: 2, errored: [0, 0], stepPass: [3, 4, 0.3006, 0.9872], clean: [1, 2], ceiling: [1, 4], passK: [2, 0.5, 1, 0],
      calls: [13, 8], dead: 0, det: [3, 7, 0], nondet: [0, 6, 0], zero: [0, 16], tokensIn: [800, 0], tokensOut: [80, 0],
      stepMedian: 451, answered: [3, 4, 10],
    }, 'dead-browser');
    // sql-insert: one insert, then the answer (230 ms), every pass.
    expectRow(m['sql-insert']!, {
      attempts: 3, errored: [0, 0], stepPass: perfect(3, 0.4385), clean: [3, 3], ceiling: [0, 3], passK: [3, 1, 1, 1],
      calls: [3, 3], dead: 0, det: [0, 0, 0], nondet: [0, 3, 0], zero: [0, 6], tokensIn: [200, 0], tokensOut: [20, 0],
      stepMedian: 230, answered: [3, 3, 10],
    }, 'sql-insert');
    // pass@k over the rungs, k up to 2: pass@1 (1/2 + 1) / 2, pass@2 (1 + 1) / 2, pass^2 (0 + 1) / 2.
    expectRow(m.all!, {
      attempts: 5, errored: [0, 0], stepPass: [6, 7, 0.4869, 0.9927], clean: [4, 5], ceiling: [1, 7], passK: [2, 0.75, 1, 0.5],
      calls: [16, 11], dead: 0, det: [3, 7, 0], nondet: [0, 9, 0], zero: [0, 22], tokensIn: [440, 0], tokensOut: [44, 0],
      stepMedian: 451, answered: [6, 7, 10],
    }, 'all');
  });

  it('after, off: dead-browser as before; sql-insert pass 1 fails its check', async () => {
    const m = rows((await runs()).summaries[1]!, 'off');
    for (const [where, row] of Object.entries(offDeadBrowser)) expectRow(m[where]!, row, where);
    expectRow(m['sql-insert']!, {
      attempts: 3, errored: [0, 0], stepPass: [2, 3, 0.1185, 0.9829], clean: [2, 3], ceiling: [0, 3], passK: [3, 2 / 3, 1, 0],
      calls: [3, 3], dead: 0, det: [0, 0, 0], nondet: [0, 3, 0], zero: [0, 6], tokensIn: [200, 0], tokensOut: [20, 0],
      stepMedian: 230, answered: [3, 3, 10],
    }, 'sql-insert');
    expectRow(m.all!, {
      attempts: 6, errored: [0, 0], stepPass: [6, 9, 0.3542, 0.8794], clean: [4, 6], ceiling: [1, 9], passK: [3, 2 / 3, 1, 0],
      calls: [25, 25], dead: 6, det: [4, 10, 4], nondet: [3, 15, 3], zero: [0, 33], tokensIn: [550, 0], tokensOut: [55, 0],
      stepMedian: 550, answered: [7, 9, 10],
    }, 'all');
  });

  it('counts per tool: calls, repeats by kind, repeats sent, dead calls', async () => {
    const tools = (s: RunSummary, arm: string) => s.arms.find((a) => a.arm === arm)!.overall.tools.map((t) =>
      [t.tool.replace('workbench__', ''), t.calls, t.deterministic.repeats + t.nondeterministic.repeats,
        t.deterministic.repeatsSent + t.nondeterministic.repeatsSent, t.deadCalls, t.deterministic.calls > 0]);
    expect(tools((await arms()).summaries[0]!, 'on')).toEqual([
      ['browser_open', 6, 0, 0, 0, false], ['catalog_lookup', 11, 3, 0, 0, true], ['files_read', 3, 0, 0, 0, false]]);
    expect(tools((await arms()).summaries[0]!, 'off')).toEqual([
      ['browser_open', 9, 3, 3, 6, false], ['catalog_lookup', 12, 4, 4, 0, true], ['files_read', 3, 0, 0, 0, false]]);
    expect(tools((await runs()).summaries[1]!, 'on')).toEqual([
      ['browser_open', 4, 0, 0, 0, false], ['catalog_lookup', 7, 3, 0, 0, true], ['files_read', 2, 0, 0, 0, false],
      ['sql_execute', 3, 0, 0, 0, false]]);
    expect(tools((await runs()).summaries[1]!, 'off')).toEqual([
      ['browser_open', 9, 3, 3, 6, false], ['catalog_lookup', 10, 4, 4, 0, true], ['files_read', 3, 0, 0, 0, false],
      ['sql_execute', 3, 0, 0, 0, false]]);
  });
});
