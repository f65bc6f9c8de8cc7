// A step's time limit and a Ctrl-C, on fake timers: what stops the step, when, and what the
// race of one await against them settles with.
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCalls } from '../../src/agent/calls.ts';
import type { StepCallRecord } from '../../src/agent/calls.ts';
import { StepLimits, StepStopped } from '../../src/agent/limits.ts';
import type { ChatMessage } from '../../src/models/types.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const never = (): Promise<never> => new Promise<never>(() => undefined);

describe('StepLimits', () => {
  it('stops the step when the time limit passes, not a millisecond before', () => {
    using limits = new StepLimits(1_000);
    vi.advanceTimersByTime(999);
    expect(limits.stopped).toBeUndefined();
    expect(limits.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(limits.stopped).toBe('time_limit');
    expect(limits.signal.aborted).toBe(true);
    expect(limits.signal.reason).toBeInstanceOf(StepStopped);
    expect((limits.signal.reason as StepStopped).why).toBe('time_limit');
  });

  it('says an interrupt stopped the step, also when the limit has passed too', () => {
    const interrupt = new AbortController();
    using limits = new StepLimits(1_000, interrupt.signal);
    interrupt.abort();
    expect(limits.stopped).toBe('interrupted');
    expect(limits.signal.aborted).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(limits.stopped).toBe('interrupted');
  });

  it('carries the interrupt on the signal model requests get', () => {
    const interrupt = new AbortController();
    using limits = new StepLimits(60_000, interrupt.signal);
    expect(limits.signal.aborted).toBe(false);
    interrupt.abort();
    expect(limits.signal.aborted).toBe(true);
  });

  it('settles a race with the work when it ends in time', async () => {
    using limits = new StepLimits(1_000);
    await expect(limits.race(Promise.resolve(42))).resolves.toBe(42);
    const failure = new Error('tool broke');
    await expect(limits.race(Promise.reject(failure))).rejects.toBe(failure);
  });

  it('rejects a race with time_limit when the limit passes first', async () => {
    using limits = new StepLimits(1_000);
    const raced = limits.race(never());
    const settled = expect(raced).rejects.toMatchObject({ name: 'StepStopped', why: 'time_limit', message: 'the step time limit passed' });
    await vi.advanceTimersByTimeAsync(1_000);
    await settled;
  });

  it('rejects a race with interrupted on Ctrl-C', async () => {
    const interrupt = new AbortController();
    using limits = new StepLimits(60_000, interrupt.signal);
    const raced = limits.race(never());
    interrupt.abort();
    await expect(raced).rejects.toMatchObject({ why: 'interrupted', message: 'interrupted' });
  });

  it('refuses to start a race once the step has stopped, even for work already done', async () => {
    using limits = new StepLimits(10);
    vi.advanceTimersByTime(10);
    await expect(limits.race(Promise.resolve('late'))).rejects.toMatchObject({ why: 'time_limit' });
    const interrupt = new AbortController();
    interrupt.abort();
    using stopped = new StepLimits(60_000, interrupt.signal);
    await expect(stopped.race(Promise.resolve('late'))).rejects.toMatchObject({ why: 'interrupted' });
  });

  it('ignores work refused after the stop: its later rejection is not unhandled', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      using limits = new StepLimits(100);
      vi.advanceTimersByTime(100);
      let fail!: (error: Error) => void;
      const work = new Promise<never>((_, reject) => (fail = reject));
      await expect(limits.race(work)).rejects.toMatchObject({ why: 'time_limit' });
      fail(new Error('the tool answered after the step stopped'));
      // Node reports an unhandled rejection once the microtasks after a tick have run.
      vi.useRealTimers();
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('leaves no abort listener behind once a race settles either way', async () => {
    using limits = new StepLimits(1_000);
    expect(getEventListeners(limits.signal, 'abort')).toHaveLength(0);
    const pending = limits.race(Promise.resolve(1));
    expect(getEventListeners(limits.signal, 'abort')).toHaveLength(1);
    await pending;
    expect(getEventListeners(limits.signal, 'abort')).toHaveLength(0);
    await limits.race(Promise.reject(new Error('x'))).catch(() => undefined);
    expect(getEventListeners(limits.signal, 'abort')).toHaveLength(0);
    const cut = limits.race(never()).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await cut).toBeInstanceOf(StepStopped);
    expect(getEventListeners(limits.signal, 'abort')).toHaveLength(0);
  });

  it('moves the limit to a new time after the step started, later or earlier, on its own clock', () => {
    using limits = new StepLimits(1_000, undefined, () => Date.now());
    vi.advanceTimersByTime(400);
    limits.moveDeadline(1_500);
    vi.advanceTimersByTime(1_099);
    expect(limits.stopped).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(limits.stopped).toBe('time_limit');
    expect(limits.timeUp.aborted).toBe(true);

    using sooner = new StepLimits(1_000, undefined, () => Date.now());
    vi.advanceTimersByTime(100);
    sooner.moveDeadline(300);
    vi.advanceTimersByTime(199);
    expect(sooner.stopped).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(sooner.stopped).toBe('time_limit');
  });

  it('stops at once when moved to a time already past, and stays stopped when moved after it stopped', () => {
    using limits = new StepLimits(1_000, undefined, () => Date.now());
    vi.advanceTimersByTime(500);
    limits.moveDeadline(200);
    vi.advanceTimersByTime(0);
    expect(limits.stopped).toBe('time_limit');
    limits.moveDeadline(10_000);
    expect(limits.stopped).toBe('time_limit');
    // Nothing is armed again for a limit that has passed: no timer outlives the step.
    expect(vi.getTimerCount()).toBe(0);
    expect(limits.signal.aborted).toBe(true);
  });

  it('aborts timeUp for the limit only, not for an interrupt', () => {
    const interrupt = new AbortController();
    using limits = new StepLimits(1_000, interrupt.signal);
    interrupt.abort();
    expect([limits.signal.aborted, limits.timeUp.aborted]).toEqual([true, false]);
  });

  it('clears its timer when disposed, so a finished step is never stopped late', () => {
    const limits = new StepLimits(1_000);
    limits[Symbol.dispose]();
    vi.advanceTimersByTime(5_000);
    expect(limits.stopped).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('runCalls once the step has stopped', () => {
  it('sends none of the round\'s calls, answers each as not made, and throws why', async () => {
    using limits = new StepLimits(10);
    vi.advanceTimersByTime(10);
    const sent: string[] = [];
    const lane = {
      openTurn: () => Promise.reject(new Error('not used')),
      call: (name: string) => {
        sent.push(name);
        return Promise.resolve({ text: 'done', isError: false, outcome: 'ok' });
      },
    };
    const calls: StepCallRecord[] = [];
    const messages: ChatMessage[] = [];
    const round = [{ id: 'a', name: 'wb__one', args: {} }, { id: 'b', name: 'wb__two', args: {} }];
    const error = await runCalls({ lane: lane as never, limits, round: 1, ceiling: 5, calls, add: (m) => messages.push(m) }, round)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'StepStopped', why: 'time_limit' });
    expect(sent).toEqual([]);
    expect(calls).toEqual([]);
    expect(messages.map((m) => [m.role === 'tool' && m.toolCallId, m.content])).toEqual([
      ['a', "The step's time limit passed before this call was made, so it was not made."],
      ['b', "The step's time limit passed before this call was made, so it was not made."],
    ]);
  });
});
