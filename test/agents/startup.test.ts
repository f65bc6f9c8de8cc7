// Start-up accounting (src/agents/startup.ts): what of an external agent's start-up the step's
// time limit leaves out, and what is recorded. Each boundary has its own case.
import { describe, expect, it } from 'vitest';
import { STARTUP_ALLOWANCE_MS, startupCredit, startupMs, stepDeadline, timeLimitWords } from '../../src/agents/startup.ts';

describe('startupCredit', () => {
  it('is nothing before the agent is started in the step, or when it was started in an earlier one', () => {
    expect(startupCredit({}, 30_000)).toBe(0);
    expect(startupCredit({ firstRequestAt: 500 }, 30_000)).toBe(0);
  });

  it('is the whole allowance while the started agent has asked nothing', () => {
    expect(startupCredit({ spawnedAt: 100 }, 30_000)).toBe(30_000);
  });

  it('is the start-up once the first request came, up to the allowance and never below zero', () => {
    expect(startupCredit({ spawnedAt: 100, firstRequestAt: 2_600 }, 30_000)).toBe(2_500);
    expect(startupCredit({ spawnedAt: 100, firstRequestAt: 1_100 }, 1_000)).toBe(1_000);
    expect(startupCredit({ spawnedAt: 100, firstRequestAt: 1_101 }, 1_000)).toBe(1_000);
    expect(startupCredit({ spawnedAt: 100, firstRequestAt: 1_099 }, 1_000)).toBe(999);
    expect(startupCredit({ spawnedAt: 100, firstRequestAt: 50 }, 1_000)).toBe(0);
    expect(startupCredit({ spawnedAt: 0, firstRequestAt: 0 }, 1_000)).toBe(0);
  });
});

describe('stepDeadline', () => {
  it('is the limit plus the credit', () => {
    expect(stepDeadline(20_000, 30_000, {})).toBe(20_000);
    expect(stepDeadline(20_000, 30_000, { spawnedAt: 10 })).toBe(50_000);
    expect(stepDeadline(20_000, 30_000, { spawnedAt: 10, firstRequestAt: 4_010 })).toBe(24_000);
  });

  it('allows 30 s of start-up by default', () => {
    expect(STARTUP_ALLOWANCE_MS).toBe(30_000);
  });
});

describe('startupMs', () => {
  it('runs from the start to the first request, or to the end when none came', () => {
    expect(startupMs({ spawnedAt: 100, firstRequestAt: 400 }, 900)).toBe(300);
    expect(startupMs({ spawnedAt: 100 }, 900)).toBe(800);
    expect(startupMs({ spawnedAt: 100, firstRequestAt: 50 }, 900)).toBe(0);
  });

  it('is none when the agent was not started in the step', () => {
    expect(startupMs({ firstRequestAt: 400 }, 900)).toBeUndefined();
  });
});

describe('timeLimitWords', () => {
  it("says the start-up is not counted when the runner's clock keeps the limit", () => {
    expect(timeLimitWords(20_000, true)).toBe("within the step's time limit (20 s, its start-up not counted)");
    expect(timeLimitWords(1_500, false)).toBe("within 1.5 s (the step's time limit)");
  });
});
