// The time factor scales a rung's clock, never below the floors a loaded machine needs. Values
// by hand: the lane's defaults are 60 s per call (twice the 30 s wait cap) and 120 s in total.
import { describe, expect, it } from 'vitest';
import {
  callTimeouts, MIN_CALL_TIMEOUT_MS, MIN_STEP_TIME_LIMIT_MS, MIN_WORKBENCH_PLAIN_TIMEOUT_MS, plainTimeouts, SDK_REQUEST_TIMEOUT_MS, stepTimeLimitMs,
} from '../../src/runner/timing.ts';
import type { ServerSpec } from '../../src/rungs/schema.ts';

const servers: Record<string, ServerSpec> = {
  wb: { workbench: { faults: {}, options: {} } },
  fs: { package: '@modelcontextprotocol/server-filesystem', args: [], env: {} },
};

describe('stepTimeLimitMs', () => {
  it('scales the rung time limit by the time factor', () => {
    expect(stepTimeLimitMs(120, 1)).toBe(120_000);
    expect(stepTimeLimitMs(300, 0.5)).toBe(150_000);
  });

  it('never goes below 20 s, and keeps 20 s itself', () => {
    expect(MIN_STEP_TIME_LIMIT_MS).toBe(20_000);
    expect(stepTimeLimitMs(120, 0.01)).toBe(20_000);
    expect(stepTimeLimitMs(20, 1)).toBe(20_000);
    expect(stepTimeLimitMs(20.001, 1)).toBe(20_001);
    expect(stepTimeLimitMs(19.999, 1)).toBe(20_000);
  });

  it('rounds to a whole millisecond', () => {
    expect(stepTimeLimitMs(30.0004, 1)).toBe(30_000);
    expect(stepTimeLimitMs(30.0006, 1)).toBe(30_001);
  });
});

describe('callTimeouts', () => {
  it('is the lane default at full speed', () => {
    expect(callTimeouts(1)).toEqual({ callTimeoutMs: 60_000, maxTotalTimeoutMs: 120_000 });
    expect(callTimeouts(0.5)).toEqual({ callTimeoutMs: 30_000, maxTotalTimeoutMs: 60_000 });
  });

  it('keeps a 5 s call timeout and a 10 s total however fast the clock runs', () => {
    expect(MIN_CALL_TIMEOUT_MS).toBe(5_000);
    expect(callTimeouts(0.01)).toEqual({ callTimeoutMs: 5_000, maxTotalTimeoutMs: 10_000 });
    // At 1/12 the call timeout is exactly the floor; the total (10 s) too.
    expect(callTimeouts(1 / 12)).toEqual({ callTimeoutMs: 5_000, maxTotalTimeoutMs: 10_000 });
    // Just above: the call timeout leaves its floor before the total does.
    expect(callTimeouts(0.0834)).toEqual({ callTimeoutMs: 5_004, maxTotalTimeoutMs: 10_008 });
    expect(callTimeouts(0.07)).toEqual({ callTimeoutMs: 5_000, maxTotalTimeoutMs: 10_000 });
  });

  it('rounds to a whole millisecond', () => {
    expect(callTimeouts(0.123456)).toEqual({ callTimeoutMs: 7_407, maxTotalTimeoutMs: 14_815 });
  });
});

describe('plainTimeouts', () => {
  it('is the SDK\'s 60 s at real time, for every server', () => {
    expect(plainTimeouts(servers, 1)).toEqual({ wb: SDK_REQUEST_TIMEOUT_MS, fs: SDK_REQUEST_TIMEOUT_MS });
  });

  it('scales with the time factor: 6 s at 0.1', () => {
    expect(plainTimeouts(servers, 0.1)).toEqual({ wb: 6_000, fs: 6_000 });
  });

  it('keeps the workbench above half a second and a server on real time above 5 s', () => {
    expect(plainTimeouts(servers, 0.01)).toEqual({ wb: 600, fs: MIN_CALL_TIMEOUT_MS });
    expect(plainTimeouts(servers, 0.001)).toEqual({ wb: MIN_WORKBENCH_PLAIN_TIMEOUT_MS, fs: MIN_CALL_TIMEOUT_MS });
    expect(MIN_WORKBENCH_PLAIN_TIMEOUT_MS).toBe(500);
  });

  it('stays below the test job\'s end at 0.01, as at real time', () => {
    // jobs-past-the-cap: the uncapped wait ends with the 150 s test job; the reply must be lost first.
    expect(plainTimeouts(servers, 0.01).wb!).toBeLessThan(150_000 * 0.01);
  });
});
