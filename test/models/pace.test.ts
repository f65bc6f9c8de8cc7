import { describe, expect, it } from 'vitest';
import { AimdLimiter } from '../../src/models/pace.ts';
import type { AimdOptions, PaceTicket } from '../../src/models/pace.ts';

function setup(options: Partial<AimdOptions> = {}) {
  let now = 0;
  const changes: number[] = [];
  const limiter = new AimdLimiter({ max: 8, now: () => now, ...options });
  limiter.subscribe((level) => changes.push(level));
  /** Sends `n` requests and answers each at once, one after another. */
  const answer = (n: number): void => {
    for (let i = 0; i < n; i += 1) limiter.succeeded(limiter.sent());
  };
  return { limiter, changes, answer, at: (ms: number) => void (now = ms) };
}

describe('the AIMD limiter', () => {
  it('starts at the concurrency asked for', () => {
    expect(setup({ max: 5 }).limiter.level).toBe(5);
  });

  it('halves the level on a throttle, rounding down', () => {
    const { limiter, changes } = setup({ max: 5 });
    limiter.throttled(limiter.sent());
    expect(limiter.level).toBe(2);
    expect(changes).toStrictEqual([2]);
  });

  it('lowers once for a burst: throttles of requests sent before the decrease do not lower it again', () => {
    const { limiter } = setup();
    const inFlight = Array.from({ length: 8 }, () => limiter.sent());
    for (const ticket of inFlight) limiter.throttled(ticket);
    expect(limiter.level).toBe(4);
    expect(limiter.state).toMatchObject({ throttles: 8, decreases: 1 });
  });

  it('lowers again for a throttle of a request sent after the decrease', () => {
    const { limiter } = setup();
    const before = limiter.sent();
    limiter.throttled(before);
    const after = limiter.sent();
    limiter.throttled(before);
    expect(limiter.level).toBe(4);
    limiter.throttled(after);
    expect(limiter.level).toBe(2);
  });

  it('never goes below min', () => {
    const { limiter, changes } = setup({ max: 4, min: 2 });
    limiter.throttled(limiter.sent());
    limiter.throttled(limiter.sent());
    expect(limiter.level).toBe(2);
    expect(changes).toStrictEqual([2]);
    // The second throttle found the level at the floor: no decrease.
    expect(limiter.state).toMatchObject({ lowest: 2, decreases: 1, throttles: 2 });
  });

  it('stays at 1 by default however often it is throttled', () => {
    const { limiter } = setup({ max: 2 });
    for (let i = 0; i < 5; i += 1) limiter.throttled(limiter.sent());
    expect(limiter.level).toBe(1);
  });

  it('raises the level by one after `level` requests answered at the current level', () => {
    const { limiter, answer, changes } = setup();
    limiter.throttled(limiter.sent()); // 8 -> 4
    answer(3);
    expect(limiter.level).toBe(4);
    answer(1);
    expect(limiter.level).toBe(5);
    answer(4);
    expect(limiter.level).toBe(5);
    answer(1);
    expect(limiter.level).toBe(6);
    expect(changes).toStrictEqual([4, 5, 6]);
    expect(limiter.state).toMatchObject({ increases: 2, decreases: 1, lowest: 4 });
  });

  it('does not count answers to requests sent before the level changed', () => {
    const { limiter } = setup();
    const old: PaceTicket[] = Array.from({ length: 6 }, () => limiter.sent());
    limiter.throttled(limiter.sent()); // 8 -> 4, after the six went out
    for (const ticket of old) limiter.succeeded(ticket);
    expect(limiter.level).toBe(4);
  });

  it('does not count the answer to the last request sent before a decrease', () => {
    const { limiter } = setup({ max: 4 });
    const throttledOne = limiter.sent();
    const lastBefore = limiter.sent();
    limiter.throttled(throttledOne); // 4 -> 2; lastBefore went out at level 4
    limiter.succeeded(lastBefore);
    limiter.succeeded(limiter.sent());
    expect(limiter.level).toBe(2);
    limiter.succeeded(limiter.sent());
    expect(limiter.level).toBe(3);
  });

  it('never goes above the concurrency asked for', () => {
    const { limiter, answer, changes } = setup({ max: 3 });
    answer(30);
    expect(limiter.level).toBe(3);
    expect(changes).toStrictEqual([]);
    expect(limiter.state.increases).toBe(0);
  });

  it('counts no answer while the provider asked to hold off (Retry-After), and counts again after it', () => {
    const { limiter, answer, at } = setup({ max: 4 });
    at(1_000);
    limiter.throttled(limiter.sent(), 2_000); // 4 -> 2, hold until 3,000
    answer(5);
    expect(limiter.level).toBe(2);
    at(2_999);
    answer(5);
    expect(limiter.level).toBe(2);
    at(3_000);
    answer(2);
    expect(limiter.level).toBe(3);
  });

  it('keeps the longest hold when throttles overlap', () => {
    const { limiter, answer, at } = setup({ max: 4 });
    limiter.throttled(limiter.sent(), 5_000);
    limiter.throttled(limiter.sent(), 1_000);
    at(4_999);
    answer(4);
    expect(limiter.level).toBe(1);
    at(5_000);
    answer(1);
    expect(limiter.level).toBe(2);
  });

  it('counts no decrease for a throttle at the floor, where the level cannot go lower', () => {
    const { limiter } = setup({ max: 1 });
    limiter.throttled(limiter.sent());
    expect([limiter.level, limiter.state.decreases, limiter.state.throttles]).toEqual([1, 0, 1]);
  });

  it('restarts the count of answers on a throttle at the floor, though the level stays', () => {
    // A throttle says the level is too high for now, whether or not it could go lower: the
    // answers counted before it must not raise the level straight after it.
    const { limiter, changes } = setup({ max: 4, min: 2 });
    limiter.throttled(limiter.sent()); // 4 -> 2, the floor
    limiter.succeeded(limiter.sent()); // one of the two answers a rise needs
    const inFlight = limiter.sent(); // out when the floor is throttled
    limiter.throttled(limiter.sent()); // at the floor: 2 stays 2
    limiter.succeeded(inFlight); // sent before the throttle: not counted
    limiter.succeeded(limiter.sent());
    expect([limiter.level, changes]).toStrictEqual([2, [2]]);
    limiter.succeeded(limiter.sent());
    expect([limiter.level, changes]).toStrictEqual([3, [2, 3]]);
  });

  it('lowers on a throttle without Retry-After, and holds nothing', () => {
    const { limiter, answer } = setup({ max: 4 });
    limiter.throttled(limiter.sent());
    answer(2);
    expect(limiter.level).toBe(3);
  });

  it('takes another decrease factor', () => {
    const { limiter } = setup({ max: 10, decrease: 0.75 });
    limiter.throttled(limiter.sent());
    expect(limiter.level).toBe(7);
  });

  it('reports its state', () => {
    const { limiter } = setup({ max: 6 });
    limiter.throttled(limiter.sent());
    expect(limiter.state).toStrictEqual({ level: 3, max: 6, lowest: 3, throttles: 1, decreases: 1, increases: 0 });
  });

  it.each([
    [{ max: 0 }, 'pace max must be an integer >= 1, got 0'],
    [{ max: 1.5 }, 'pace max must be an integer >= 1, got 1.5'],
    [{ max: 4, min: 0 }, 'pace min must be an integer from 1 to max (4), got 0'],
    [{ max: 4, min: 5 }, 'pace min must be an integer from 1 to max (4), got 5'],
    [{ max: 4, min: 1.5 }, 'pace min must be an integer from 1 to max (4), got 1.5'],
    [{ max: 4, decrease: 0 }, 'pace decrease must be a number above 0 and below 1, got 0'],
    [{ max: 4, decrease: 1 }, 'pace decrease must be a number above 0 and below 1, got 1'],
  ])('refuses %j', (options, message) => {
    expect(() => new AimdLimiter({ now: () => 0, ...options })).toThrow(new RangeError(message));
  });

  it.each([
    [{ max: 1 }],
    [{ max: 4, min: 4 }],
    [{ max: 4, min: 1 }],
    [{ max: 4, decrease: 0.01 }],
    [{ max: 4, decrease: 0.99 }],
  ])('takes %j', (options) => {
    expect(() => new AimdLimiter({ now: () => 0, ...options })).not.toThrow();
  });

  it('stops telling a listener that unsubscribed', () => {
    const { limiter, changes } = setup();
    const seen: number[] = [];
    const stop = limiter.subscribe((level) => seen.push(level));
    limiter.throttled(limiter.sent());
    stop();
    limiter.throttled(limiter.sent());
    expect(seen).toStrictEqual([4]);
    expect(changes).toStrictEqual([4, 2]);
  });

  it('at max 1 and min 1, one pass runs whatever happens', () => {
    const { limiter, answer } = setup({ max: 1 });
    limiter.throttled(limiter.sent());
    answer(10);
    expect(limiter.level).toBe(1);
  });
});
