// Step-runs and passes as the report reads them, built by hand for tests of the pure functions
// over them (pairing, paired comparisons): every field a plain default, each test overriding
// only what it counts.
import type { PassRecord, StepRun } from '../../src/report/passes.ts';
import type { StepTime } from '../../src/report/stepTime.ts';

/**
 * A step's split as the built-in loop's would read: its start-up, then the model's rounds and
 * the tool calls one after another, the rest what they leave (never below zero).
 */
export function sequentialTime(run: Pick<StepRun, 'ms' | 'roundMs' | 'tools' | 'agentStartupMs'>): StepTime {
  const startupMs = Math.min(run.ms, run.agentStartupMs ?? 0);
  const modelMs = Math.min(run.ms - startupMs, run.roundMs.reduce((x, y) => x + y, 0));
  const toolMs = Math.min(run.ms - startupMs - modelMs, run.tools.flatMap((t) => t.ms).reduce((x, y) => x + y, 0));
  return { startupMs, modelMs, toolMs, otherMs: run.ms - startupMs - modelMs - toolMs };
}

export function stepRun(step: number, over: Partial<StepRun> = {}): StepRun {
  const run: Omit<StepRun, 'time'> = {
    step, passed: true, reason: 'answered', failedChecks: 0, ms: 100, startT: 0, endT: 100, answeredAt: undefined,
    calls: 0, sent: 0, outcomes: { ok: 0, failed: 0, timeout: 0, refused: 0, unavailable: 0, short_circuited: 0 },
    repeats: 0, repeatsSent: 0, deadCalls: 0, requests: 1, zeroToolRounds: 0, responses: 1, tokensIn: 0, tokensOut: 0,
    tokensInMissing: 0, tokensOutMissing: 0, cacheRead: 0, cacheWrite: 0, roundMs: [], tools: [], ...over,
  };
  return { ...run, time: over.time ?? sequentialTime(run) };
}

export function passRecord(pass: number, steps: StepRun[], over: Partial<PassRecord> = {}): PassRecord {
  return { rung: 'r', arm: 'on', pass, seed: pass, file: `p${pass}.jsonl`, passed: steps.every((s) => s.passed), error: undefined,
    steps, events: 0, content: 'none', ...over };
}
