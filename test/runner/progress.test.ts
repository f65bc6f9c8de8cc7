// The progress a run shows: well-formed durations, an ETA from each rung's own pass times,
// and a pass a provider ended said as errored, never failed.
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createProgress, estimateLeftMs, formatDuration } from '../../src/runner/progress.ts';
import type { PassId } from '../../src/runner/plan.ts';

const id = (rung: string, pass: number, arm = 'on'): PassId => ({ rung, arm, armSlug: arm, pass, seed: pass });

describe('formatDuration', () => {
  it.each([
    [0, '0s'], [499, '0s'], [59_499, '59s'], [59_500, '1m00s'], [239_600, '4m00s'], [179_999, '3m00s'],
    [3_599_499, '59m59s'], [3_599_500, '1h00m'], [3_690_000, '1h02m'], [-1, '?'], [Number.NaN, '?'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('never shows 60 in the seconds or minutes', () => {
    for (let ms = 0; ms < 8_000_000; ms += 250) expect(formatDuration(ms)).not.toMatch(/\D60[sm]$/);
  });
});

describe('estimateLeftMs', () => {
  it('weighs each rung by its own pass times, shared by the passes that run at once', () => {
    const times = new Map([['slow', [90_000, 110_000]], ['fast', [1_000]]]);
    // slow: 3 left x 100 s, fast: 10 left x 1 s = 310 s of passes, 2 at a time.
    expect(estimateLeftMs(new Map([['slow', 3], ['fast', 10]]), times, 2)).toBe(155_000);
  });

  it('takes the mean of every pass for a rung not started yet', () => {
    const times = new Map([['a', [2_000, 4_000]]]);
    expect(estimateLeftMs(new Map([['a', 1], ['b', 2]]), times, 1)).toBe(9_000);
  });

  it('has nothing to say before a pass has ended, and never divides by more passes than are left', () => {
    expect(estimateLeftMs(new Map([['a', 3]]), new Map(), 4)).toBeUndefined();
    expect(estimateLeftMs(new Map([['a', 1]]), new Map([['a', [5_000]]]), 4)).toBe(5_000);
  });
});

function capture(tty: boolean): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream: PassThrough & { isTTY?: boolean } = new PassThrough();
  if (tty) stream.isTTY = true;
  let text = '';
  stream.on('data', (chunk: Buffer) => void (text += chunk.toString()));
  return { stream, text: () => text };
}

describe('createProgress', () => {
  it('says errored with the cause for a pass a provider ended, and failed only for the model', () => {
    const { stream, text } = capture(false);
    const progress = createProgress({ total: 2, done: new Map(), arms: ['on'], stream });
    progress.passDone(id('r', 0), { passed: false, stepsPassed: 0, steps: 2, ms: 2_100, errored: 'connection refused' });
    progress.passDone(id('r', 1), { passed: false, stepsPassed: 1, steps: 2, ms: 900 });
    progress.stop();
    expect(text().split('\n').filter(Boolean)).toEqual([
      '[1/2] r on #0 errored (connection refused) after 2.1 s | clean so far: on 0/1',
      '[2/2] r on #1 failed (1/2 steps, 0.9 s) | clean so far: on 0/2',
    ]);
  });

  it('shows on a terminal an elapsed time and an ETA from the passes done so far', () => {
    // cli-progress redraws on its own timer (10 times a second): fake timers step it.
    vi.useFakeTimers();
    const { stream, text } = capture(true);
    let now = 0;
    const todo = [id('slow', 0), id('slow', 1), id('fast', 0), id('fast', 1)];
    const progress = createProgress({ total: 4, done: new Map(), arms: ['on'], stream, todo, concurrency: 1, now: () => now });
    expect(text()).toContain('0s elapsed, ETA after the first pass');
    now = 120_000;
    progress.passDone(id('slow', 0), { passed: true, stepsPassed: 1, steps: 1, ms: 120_000 });
    vi.advanceTimersByTime(200);
    // slow: 1 left x 120 s; fast: 2 left x the mean so far (120 s) = 360 s.
    expect(text()).toContain('2m00s elapsed, ETA 6m00s');
    now = 121_000;
    progress.passDone(id('fast', 0), { passed: true, stepsPassed: 1, steps: 1, ms: 1_000 });
    vi.advanceTimersByTime(200);
    // slow: 1 x 120 s; fast: 1 x 1 s.
    expect(text()).toContain('2m01s elapsed, ETA 2m01s');
    progress.stop();
    vi.useRealTimers();
  });

  it("adds the run's spending and the provider's level to every line, as they are when the pass ends", () => {
    const { stream, text } = capture(false);
    let status = '$0.10 spent of $5.00 max, concurrency 8/8';
    const progress = createProgress({ total: 2, done: new Map(), arms: ['on'], stream, status: () => status });
    progress.passDone(id('r', 0), { passed: true, stepsPassed: 1, steps: 1, ms: 1_000 });
    status = '$0.20 spent of $5.00 max, concurrency 4/8';
    progress.passDone(id('r', 1), { passed: true, stepsPassed: 1, steps: 1, ms: 1_000 });
    progress.stop();
    expect(text().split('\n').filter(Boolean)).toEqual([
      '[1/2] r on #0 passed (1/1 steps, 1.0 s) | clean so far: on 1/1 | $0.10 spent of $5.00 max, concurrency 8/8',
      '[2/2] r on #1 passed (1/1 steps, 1.0 s) | clean so far: on 2/2 | $0.20 spent of $5.00 max, concurrency 4/8',
    ]);
  });

  it('shows the spending and level on the terminal bar too, and nothing when there is none to say', () => {
    vi.useFakeTimers();
    const { stream, text } = capture(true);
    const progress = createProgress({ total: 1, done: new Map(), arms: ['on'], stream, status: () => '$1.50 spent, concurrency 2/8' });
    expect(text()).toContain('clean so far: on 0/0 | $1.50 spent, concurrency 2/8 | 0s elapsed');
    progress.stop();
    const quiet = capture(true);
    createProgress({ total: 1, done: new Map(), arms: ['on'], stream: quiet.stream, status: () => '' }).stop();
    expect(quiet.text()).toContain('clean so far: on 0/0 | 0s elapsed');
    vi.useRealTimers();
  });
});
