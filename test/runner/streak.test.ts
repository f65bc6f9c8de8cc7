// The errored streak: when a run gives up on a provider that keeps failing the same way.
import { describe, expect, it } from 'vitest';
import type { PassOutcome } from '../../src/runner/pass.ts';
import type { PassId } from '../../src/runner/plan.ts';
import { createStreak, ERRORED_STREAK_LIMIT, erroredCause } from '../../src/runner/streak.ts';

const id = (pass: number): PassId => ({ rung: 'r', arm: 'on', armSlug: 'on', pass, seed: pass });
const down = { cause: 'connection refused', line: 'm: connection failed: connection refused' };
const other = { cause: 'HTTP 500: boom', line: 'm: server error' };

describe('the errored streak', () => {
  it('is three passes by default', () => {
    expect(ERRORED_STREAK_LIMIT).toBe(3);
  });

  it('ends after the limit of errored passes in a row with one cause, and names them', () => {
    const streak = createStreak();
    expect(streak.record(id(0), down)).toBeUndefined();
    expect(streak.record(id(1), down)).toBeUndefined();
    expect(streak.record(id(2), down)).toStrictEqual({ ids: [id(0), id(1), id(2)], line: down.line });
  });

  it('says the last pass\'s line', () => {
    const streak = createStreak(2);
    streak.record(id(0), { cause: 'c', line: 'first' });
    expect(streak.record(id(1), { cause: 'c', line: 'second' })).toStrictEqual({ ids: [id(0), id(1)], line: 'second' });
  });

  it('starts again after a pass that did not error', () => {
    const streak = createStreak(2);
    expect(streak.record(id(0), down)).toBeUndefined();
    expect(streak.record(id(1), undefined)).toBeUndefined();
    expect(streak.record(id(2), down)).toBeUndefined();
    expect(streak.record(id(3), down)).toStrictEqual({ ids: [id(2), id(3)], line: down.line });
  });

  it('starts again after a pass with another cause, counting that pass', () => {
    const streak = createStreak(2);
    expect(streak.record(id(0), down)).toBeUndefined();
    expect(streak.record(id(1), other)).toBeUndefined();
    expect(streak.record(id(2), other)).toStrictEqual({ ids: [id(1), id(2)], line: other.line });
  });

  it('keeps counting past the limit, each pass after it named with the rest', () => {
    const streak = createStreak(2);
    streak.record(id(0), down);
    streak.record(id(1), down);
    expect(streak.record(id(2), down)).toStrictEqual({ ids: [id(0), id(1), id(2)], line: down.line });
  });

  it('hands out a list the streak does not change afterwards', () => {
    const streak = createStreak(1);
    const first = streak.record(id(0), down)!;
    streak.record(id(1), down);
    expect(first.ids).toStrictEqual([id(0)]);
  });

  it('ends at the first errored pass with a limit of one', () => {
    expect(createStreak(1).record(id(0), down)).toStrictEqual({ ids: [id(0)], line: down.line });
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a limit of %s', (limit) => {
    expect(() => createStreak(limit)).toThrow(new RangeError(`streak limit must be an integer >= 1, got ${limit}`));
  });
});

describe('why a pass errored', () => {
  const step = (reason: string, error?: { cause: string; line: string }) => ({ reason, ...(error === undefined ? {} : { error }) });
  const outcome = (steps: object[], error?: string): PassOutcome => ({ passed: false, steps, ...(error === undefined ? {} : { error }) }) as unknown as PassOutcome;

  it('is the harness\'s error, as cause and line, before any step\'s', () => {
    expect(erroredCause(outcome([step('errored', down)], 'boom'))).toStrictEqual({ cause: 'boom', line: 'boom' });
  });

  it('is the first errored step\'s error', () => {
    expect(erroredCause(outcome([step('passed'), step('errored', down), step('errored', other)]))).toStrictEqual(down);
  });

  it('passes over a step with an error that did not error, and an errored step with no error', () => {
    expect(erroredCause(outcome([step('time_limit', other), step('errored'), step('errored', down)]))).toStrictEqual(down);
  });

  it('is nothing when nothing errored', () => {
    expect(erroredCause(outcome([step('passed'), step('errored')]))).toBeUndefined();
    expect(erroredCause(outcome([]))).toBeUndefined();
  });
});
