import { defineConfig } from 'vitest/config';

// What Stryker runs against its mutants (stryker.conf.json): the tests of every mutated file,
// and none that only start servers or a browser. With coverageAnalysis perTest each mutant
// runs only the tests that reached it, so a file here costs the mutants it covers, not all.
// Not the statistics simulation (test/report/simulation.test.ts): it calls the interval
// functions millions of times, which under Stryker's coverage counters outran the 5-minute
// initial run; the exact values of stats.test.ts and pinned.test.ts kill those mutants instead.
// Nor the golden comparisons: every figure they pin, pinned.test.ts asserts by value, at a
// quarter of the cost per mutant (no rendering in three formats).
export default defineConfig({
  test: {
    include: [
      'test/reliability/**/*.test.ts',
      'test/server/jobs.test.ts', 'test/server/jobsWait.test.ts', 'test/server/waitCap.test.ts',
      'test/rungs/checks.test.ts', 'test/rungs/callChecks.test.ts', 'test/rungs/callMarks.test.ts',
      'test/report/stats.test.ts', 'test/report/summary.test.ts', 'test/report/compare.test.ts',
      'test/report/pinned.test.ts', 'test/report/paired.test.ts', 'test/report/pairing.test.ts',
      'test/report/bootstrap.test.ts', 'test/report/metrics.test.ts', 'test/report/passes.test.ts', 'test/report/selection.test.ts', 'test/report/toolUse.test.ts',
      'test/report/agreement.test.ts', 'test/judge/verdict.test.ts', 'test/judge/judge.test.ts',
      'test/runner/plan.test.ts', 'test/runner/timing.test.ts', 'test/runner/pass.test.ts',
      'test/runner/passEvents.test.ts', 'test/runner/stepSpecs.test.ts',
      'test/lane/arm.test.ts', 'test/lane/calls.test.ts', 'test/lane/breaker.test.ts', 'test/lane/pipeline.test.ts',
      'test/runner/passExternal.test.ts', 'test/agent/limits.test.ts', 'test/agent/loop.test.ts', 'test/agent/rounds.test.ts', 'test/agent/calls.test.ts',
      'test/models/prices.test.ts', 'test/runner/costLimit.test.ts', 'test/runner/spend.test.ts', 'test/report/cost.test.ts',
      'test/report/costCompare.test.ts', 'test/models/pace.test.ts', 'test/models/replay.test.ts',
      'test/models/schema.test.ts', 'test/models/adapt.test.ts', 'test/models/names.test.ts',
      'test/trace/scrub.test.ts', 'test/trace/redact.test.ts', 'test/runner/streak.test.ts', 'test/report/diverge.test.ts',
      'test/runner/replaySource.test.ts', 'test/otlp/spans.test.ts',
      'test/report/stepTime.test.ts', 'test/agents/startup.test.ts', 'test/trace/continuity.test.ts', 'test/gateway/model/gemini.test.ts',
      'test/matrix/readers.test.ts', 'test/matrix/baseline.test.ts',
    ],
    pool: 'threads',
    // Hang detectors, not bounds: a mutant that hangs is caught by Stryker's own timeout.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
