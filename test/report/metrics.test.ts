// The metrics of docs/report.md, "Metrics", over step-runs and pass records built by hand, so
// each figure can be counted on the page: no trace, no run folder, nothing but the arithmetic.
import { describe, expect, it } from 'vitest';
import { distribution, metrics, passClean, passErrored, passK, rate, selectionMetrics } from '../../src/report/metrics.ts';
import { selection, tally as tallyNames } from '../../src/report/selection.ts';
import { sequentialTime } from './records.ts';
import type { PassRecord, StepRun, ToolTally } from '../../src/report/passes.ts';
import type { Outcome } from '../../src/trace/index.ts';

const outcomes = (some: Partial<Record<Outcome, number>> = {}): Record<Outcome, number> =>
  ({ ok: 0, failed: 0, timeout: 0, refused: 0, unavailable: 0, short_circuited: 0, ...some });

function tally(tool: string, server: string, over: Partial<ToolTally>): ToolTally {
  return { tool, server, deterministic: false, calls: 0, sent: 0, repeats: 0, repeatsSent: 0, deadCalls: 0, rejected: 0, outcomes: outcomes(), ms: [], ...over };
}

function run(over: Partial<StepRun> = {}): StepRun {
  const run: Omit<StepRun, 'time'> = {
    step: 0, passed: true, reason: 'answered', failedChecks: 0, ms: 100, startT: 0, endT: 100, answeredAt: undefined,
    calls: 0, sent: 0, outcomes: outcomes(), repeats: 0, repeatsSent: 0, deadCalls: 0, requests: 1, zeroToolRounds: 0, responses: 1,
    tokensIn: 0, tokensOut: 0, tokensInMissing: 0, tokensOutMissing: 0, cacheRead: 0, cacheWrite: 0, roundMs: [], tools: [], ...over,
  };
  return { ...run, time: over.time ?? sequentialTime(run) };
}

function pass(steps: StepRun[], over: Partial<PassRecord> = {}): PassRecord {
  return { rung: 'r', arm: 'on', pass: 0, seed: 7, file: 'traces/p.jsonl', passed: true, error: undefined, steps, events: 0, content: 'full', ...over };
}

const failed = (): StepRun => run({ passed: false, reason: 'ceiling' });
/** A step-run the harness ended; marked passed, so only its reason can leave it out. */
const errored = (): StepRun => run({ passed: true, reason: 'errored' });

describe('rate', () => {
  it('keeps its counts, and gives no rate but the whole of [0, 1] over nothing', () => {
    expect(rate(0, 0)).toEqual({ count: 0, n: 0, rate: null, lower: 0, upper: 1 });
  });

  it('carries the Wilson interval: 3 of 6, away from both edges, is the plain score interval', () => {
    // centre 0.5, half-width (z / (1 + z^2/6)) sqrt(0.25/6 + z^2/144) = 0.312384 with z = 1.959964.
    const r = rate(3, 6);
    expect([r.count, r.n, r.rate]).toEqual([3, 6, 0.5]);
    expect(r.lower).toBeCloseTo(0.187616, 6);
    expect(r.upper).toBeCloseTo(0.812384, 6);
  });
});

describe('distribution', () => {
  it('is empty over no values', () => {
    expect(distribution([])).toEqual({ n: 0, total: 0, mean: null, median: null, p90: null, max: null });
  });

  it('sorts before it ranks: the 90th percentile of 10 values is the 9th smallest, a value that occurred', () => {
    expect(distribution([7, 3, 10, 1, 9, 2, 8, 4, 6, 5])).toEqual({ n: 10, total: 55, mean: 5.5, median: 5.5, p90: 9, max: 10 });
  });

  it('takes the nearest rank above: of 11 values, the 10th (rank ceil(9.9))', () => {
    expect(distribution([11, 1, 10, 2, 9, 3, 8, 4, 7, 5, 6])).toEqual({ n: 11, total: 66, mean: 6, median: 6, p90: 10, max: 11 });
  });
});

describe('errored and clean passes', () => {
  it('counts a pass as errored when the harness ended it or any step-run errored', () => {
    expect(passErrored(pass([run()]))).toBe(false);
    expect(passErrored(pass([run()], { passed: false, error: 'server did not start' }))).toBe(true);
    expect(passErrored(pass([run(), errored()]))).toBe(true);
  });

  it('counts a pass clean only when it is not errored, pass.end says passed, and it has steps that all passed', () => {
    expect(passClean(pass([run(), run()]))).toBe(true);
    expect(passClean(pass([run()], { error: 'lost the server at the end' }))).toBe(false);
    expect(passClean(pass([run(), errored()]))).toBe(false);
    expect(passClean(pass([run()], { passed: false }))).toBe(false);
    expect(passClean(pass([]))).toBe(false);
    expect(passClean(pass([run(), failed()]))).toBe(false);
  });
});

describe('pass@k and pass^k', () => {
  it('has no k with no rung, or with a rung that has no attempt', () => {
    expect(passK([])).toEqual([]);
    expect(passK([{ c: 1, n: 2 }, { c: 0, n: 0 }])).toEqual([]);
  });

  it('averages each rung\'s estimate, k up to the fewest attempts of any rung', () => {
    // 1 of 3: pass@1 1/3, pass@2 1 - C(2,2)/C(3,2) = 2/3, pass^1 1/3, pass^2 C(1,2)/C(3,2) = 0.
    // 2 of 2: every estimate 1. k stops at 2, the fewest attempts.
    const [one, two, ...more] = passK([{ c: 1, n: 3 }, { c: 2, n: 2 }]);
    expect(more).toEqual([]);
    expect(one!.k).toBe(1);
    expect(one!.passAtK).toBeCloseTo(2 / 3, 12);
    expect(one!.passHatK).toBeCloseTo(2 / 3, 12);
    expect(two!.k).toBe(2);
    expect(two!.passAtK).toBeCloseTo(5 / 6, 12);
    expect(two!.passHatK).toBeCloseTo(1 / 2, 12);
  });
});

describe('metrics over step-runs', () => {
  // Step-run A answers after 4 calls: srv__b (deterministic) failed, ok (dead: the identical call
  // had failed in this turn), then its 3rd identical call short-circuited; and srv__a refused; 3 requests, one without tools. B ends at the
  // ceiling: srv__a times out, a repeat sent. C errored (marked passed: still left out of the
  // rates and the step times). D ran out of time.
  const steps = (): StepRun[] => [
    run({
      ms: 100, endT: 110, answeredAt: 40, calls: 4, sent: 2, outcomes: outcomes({ ok: 1, failed: 1, short_circuited: 1, refused: 1 }),
      deadCalls: 1, zeroToolRounds: 1, requests: 3, responses: 3, tokensIn: 30, tokensOut: 3, tokensOutMissing: 1,
      cacheRead: 5, cacheWrite: 1, roundMs: [30],
      tools: [
        tally('srv__b', 'beta', { deterministic: true, calls: 3, sent: 2, repeats: 1, deadCalls: 1,
          outcomes: outcomes({ ok: 1, failed: 1, short_circuited: 1 }), ms: [20, 10] }),
        tally('srv__a', 'alpha', { calls: 1, outcomes: outcomes({ refused: 1 }) }),
      ],
    }),
    run({
      passed: false, reason: 'ceiling', ms: 300, endT: 320, answeredAt: 330, calls: 1, sent: 1, outcomes: outcomes({ timeout: 1 }),
      requests: 2, responses: 2, tokensIn: 20, tokensOut: 2, tokensInMissing: 2, cacheRead: 2, roundMs: [60],
      tools: [tally('srv__a', 'alpha', { calls: 1, sent: 1, repeats: 1, repeatsSent: 1, outcomes: outcomes({ timeout: 1 }), ms: [40] })],
    }),
    run({ passed: true, reason: 'errored', ms: 1000, endT: 1000 }),
    run({ passed: false, reason: 'time_limit', ms: 50, endT: 60 }),
  ];

  it('counts reasons, and rates over the step-runs not errored', () => {
    const m = metrics(steps(), null, []);
    expect([m.attempts, m.stepRuns, m.erroredPasses, m.cleanRunRate]).toEqual([4, 4, null, null]);
    expect(m.reasons).toEqual({ answered: 1, ceiling: 1, time_limit: 1, errored: 1, agent_failed: 0, agent_stopped: 0 });
    expect([m.stepPassRate.count, m.stepPassRate.n, m.stepPassRate.rate]).toEqual([1, 3, 1 / 3]);
    expect([m.ceilingShare.count, m.ceilingShare.n, m.ceilingShare.rate]).toEqual([1, 3, 1 / 3]);
    expect(m.passK).toEqual([]);
  });

  it('sums calls, outcomes, repeats by kind, dead calls, zero-tool rounds and tokens', () => {
    const m = metrics(steps(), null, []);
    expect(m.calls).toEqual({ total: 5, sent: 3, outcomes: outcomes({ ok: 1, failed: 1, timeout: 1, refused: 1, short_circuited: 1 }) });
    expect(m.identicalRepeats).toEqual({
      all: { repeats: 2, repeatsSent: 1, calls: 5, rate: 0.4 },
      deterministic: { repeats: 1, repeatsSent: 0, calls: 3, rate: 1 / 3 },
      nondeterministic: { repeats: 1, repeatsSent: 1, calls: 2, rate: 0.5 },
    });
    // Per attempt: over the 4 step-runs, this being one step's figures.
    expect(m.deadCalls).toEqual({ count: 1, perAttempt: 0.25 });
    expect(m.zeroToolRounds).toEqual({ count: 1, requests: 7 });
    expect(m.tokens).toEqual({
      responses: 7, input: { total: 50, missing: 2, perAttempt: 12.5 }, output: { total: 5, missing: 1, perAttempt: 1.25 },
    });
    expect(m.cachedTokens).toEqual({ read: 7, write: 1 });
  });

  it('times the step-runs not errored, and answer-to-end, an answer stamped after the end counting 0', () => {
    const m = metrics(steps(), null, []);
    // 100, 300, 50: the 90th percentile of 3 is rank ceil(2.7) = 3.
    expect(m.stepMs).toEqual({ n: 3, total: 450, mean: 150, median: 100, p90: 300, max: 300 });
    // A: 110 - 40 = 70; B: 320 - 330 < 0, so 0.
    expect(m.timeToAnswer).toEqual({ stepRuns: 4, answered: 2, answeredToEndMs: { n: 2, total: 70, mean: 35, median: 35, p90: 70, max: 70 } });
    // Every step-run's time, the errored one's too: 1450 ms, 90 of it the model's, 70 the tools'.
    expect(m.time).toEqual({ stepRuns: 4, stepMs: 1450, modelMs: 90, toolMs: 70, agentStartupMs: 0, otherMs: 1290, modelRoundMs: { n: 2, p50: 30, p95: 60, max: 60 } });
  });

  it('gives each tool, by name, its calls, repeats by kind and dead calls, with its server\'s latency and outcomes', () => {
    const m = metrics(steps(), null, []);
    expect(m.tools).toEqual([
      {
        tool: 'srv__a', calls: 2, deadCalls: 0, deterministic: { repeats: 0, repeatsSent: 0, calls: 0, rate: null },
        nondeterministic: { repeats: 1, repeatsSent: 1, calls: 2, rate: 0.5 }, server: 'alpha', sent: 1,
        latencyMs: { n: 1, p50: 40, p95: 40, max: 40 }, outcomes: outcomes({ refused: 1, timeout: 1 }),
      },
      {
        tool: 'srv__b', calls: 3, deadCalls: 1, deterministic: { repeats: 1, repeatsSent: 0, calls: 3, rate: 1 / 3 },
        nondeterministic: { repeats: 0, repeatsSent: 0, calls: 0, rate: null }, server: 'beta', sent: 2,
        latencyMs: { n: 2, p50: 10, p95: 20, max: 20 }, outcomes: outcomes({ ok: 1, failed: 1, short_circuited: 1 }),
      },
    ]);
    expect(m.servers.map((s) => [s.server, s.calls, s.sent])).toEqual([['alpha', 2, 1], ['beta', 3, 2]]);
  });

  it('has no per-attempt figure, rate or time over nothing', () => {
    const m = metrics([], null, []);
    expect([m.attempts, m.deadCalls.perAttempt, m.tokens.input.perAttempt, m.tokens.output.perAttempt]).toEqual([0, null, null, null]);
    expect([m.stepPassRate.rate, m.ceilingShare.rate, m.identicalRepeats.all.rate, m.stepMs.median]).toEqual([null, null, null, null]);
    expect(m.tools).toEqual([]);
  });
});

describe('metrics over passes', () => {
  // Six passes: ended by the harness; holding an errored step-run; clean; failed at pass.end;
  // with no step; with a failed step. Two are errored, one of the other four is clean.
  const passes = (): PassRecord[] => [
    pass([run({ deadCalls: 2 })], { passed: false, error: 'server did not start' }),
    pass([run(), errored()]),
    pass([run(), run()]),
    pass([run()], { passed: false }),
    pass([]),
    pass([run(), failed()], { passed: false }),
  ];

  it('counts attempts as passes, errored passes, and clean passes over the passes not errored', () => {
    const ps = passes();
    const m = metrics(ps.flatMap((p) => p.steps), ps, [{ c: 1, n: 2 }]);
    expect([m.attempts, m.stepRuns, m.erroredPasses]).toEqual([6, 8, 2]);
    expect([m.cleanRunRate!.count, m.cleanRunRate!.n, m.cleanRunRate!.rate]).toEqual([1, 4, 0.25]);
    // Per attempt is per pass: 2 dead calls over 6 passes.
    expect(m.deadCalls).toEqual({ count: 2, perAttempt: 2 / 6 });
    expect([m.stepPassRate.count, m.stepPassRate.n]).toEqual([6, 7]);
    expect(m.passK.map((p) => [p.k, p.passAtK, p.passHatK])).toEqual([[1, 0.5, 0.5], [2, 1, 0]]);
  });

  it('over no pass, has an errored count of 0 and a clean rate over nothing', () => {
    const m = metrics([], [], []);
    expect([m.attempts, m.erroredPasses]).toEqual([0, 0]);
    expect(m.cleanRunRate).toEqual({ count: 0, n: 0, rate: null, lower: 0, upper: 1 });
  });
});

describe('tool selection over step-runs', () => {
  it('averages each figure over the step-runs where it is defined, leaving out errored ones and those without a reference', () => {
    const scored = (reference: string[] | undefined, calls: string[], reason: StepRun['reason'] = 'answered'): StepRun => run({
      reason, ...(reference === undefined ? {} : { reference, selection: selection(reference, tallyNames(calls)) }),
    });
    const m = selectionMetrics([
      scored(['a__x', 'b__y'], ['a__x', 'a__x', 'a__x', 'b__y']), // precision 0.5, recall 1, f1 2/3, efficiency 0.5, extra 2
      scored(['a__x'], []), // precision and efficiency undefined, recall 0, f1 0
      scored(['a__x'], ['c__z'], 'errored'), // left out
      scored(undefined, ['c__z']), // no reference: left out
    ]);
    expect(m).toMatchObject({ stepRuns: 2, precision: 0.5, recall: 0.5, efficiency: 0.5, extraCalls: 2 });
    expect(m.f1).toBeCloseTo(1 / 3, 12);
    expect(selectionMetrics([scored(undefined, [])])).toEqual({ stepRuns: 0, precision: null, recall: null, f1: null, efficiency: null, extraCalls: 0 });
  });
});
