import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { boundedWait, MIN_TIMEOUT_MS, WAIT_CAP_MS, type BoundedWaitOptions } from '../../src/reliability/boundedWait.ts';
import type { Sleep } from '../../src/reliability/clock.ts';

// Everything runs on vitest's fake timers, so the clock, the sleeps and the scripted reads share
// one timeline. The clock starts far from zero so a deadline that forgets its start shows.
const T0 = 1_750_000_000_000;
const now = (): number => Date.now();
const since = (): number => Date.now() - T0;

// No wait here fires more than about 70 timers; a low loop limit makes one that polls forever
// fail fast instead of running into a timeout.
beforeEach(() => {
  vi.useFakeTimers({ now: T0, loopLimit: 200 });
});
afterEach(() => {
  vi.useRealTimers();
});

// Sleep may reject or resolve early when released; an unhandled rejection would fail the test.
const sleeper = (released: 'rejects' | 'resolves'): Sleep => (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      if (released === 'rejects') reject(signal.reason);
      else resolve();
    });
  });
const sleep = sleeper('rejects');

const after = <T>(ms: number, value: T): Promise<T> =>
  new Promise((resolve) => setTimeout(() => resolve(value), ms));
const never = (): Promise<never> => new Promise(() => undefined);

interface Script {
  /** How long list read number `poll` (1-based) takes; Infinity never answers. */
  readMs?: (poll: number) => number;
  /** The first poll whose list is done. */
  doneAt?: number;
  /** How long the final read takes. */
  outputsMs?: number;
}

type Options = BoundedWaitOptions<string, string>;

function reader({ readMs = () => 0, doneAt = Infinity, outputsMs = 0 }: Script) {
  const readStarts: number[] = [];
  const readList = vi.fn((): Promise<string[]> => {
    readStarts.push(since());
    const poll = readStarts.length;
    const ms = readMs(poll);
    return ms === Infinity ? never() : after(ms, [poll >= doneAt ? 'done' : `running ${poll}`]);
  });
  const readOutputs = vi.fn((list: string[]) => after(outputsMs, `outputs of ${list.join()}`));
  const isDone = vi.fn((list: string[]) => list.every((state) => state === 'done'));
  return { readStarts, readList, readOutputs, isDone };
}

/** Runs one wait to the end; `at` and `timers` are taken when it resolves, not after. */
async function run(options: Partial<Options> & Script) {
  const { readMs, doneAt, outputsMs, ...rest } = options;
  const world = reader({ readMs, doneAt, outputsMs });
  const settled = boundedWait({ timeoutMs: 100_000, pollIntervalMs: 1_000, clock: now, sleep, ...world, ...rest })
    .then((result) => ({ result, at: since(), timers: vi.getTimerCount() }));
  await vi.runAllTimersAsync();
  return { ...(await settled), ...world };
}

describe('the cap', () => {
  it('leaves a 30_000 ms timeout at the cap untouched', async () => {
    const { result, at } = await run({ timeoutMs: 30_000, pollIntervalMs: 7_000, minTimeoutMs: 1 });
    expect(at).toBe(30_000);
    expect(result).toStrictEqual({ list: ['running 6'], done: false, outputs: 'outputs of running 6', elapsedMs: 30_000, polls: 6 });
  });

  it('cuts a 30_001 ms timeout to the cap and hands back the 1 ms', async () => {
    const { result, at } = await run({ timeoutMs: 30_001, pollIntervalMs: 7_000, minTimeoutMs: 1 });
    expect(at).toBe(30_000);
    expect(result).toMatchObject({ elapsedMs: 30_000, polls: 6, remainingMs: 1 });
  });

  it('cuts a 100_000 ms timeout, the retry from the incident, to the cap', async () => {
    const { result, at } = await run({ timeoutMs: 100_000, pollIntervalMs: 7_000 });
    expect(WAIT_CAP_MS).toBe(30_000);
    expect(at).toBe(30_000);
    expect(result).toMatchObject({ elapsedMs: 30_000, polls: 6, remainingMs: 70_000 });
  });

  it('takes a smaller cap from capMs', async () => {
    const { at, result } = await run({ timeoutMs: 100_000, capMs: 10_000 });
    expect(at).toBe(10_000);
    expect(result.remainingMs).toBe(90_000);
  });

  it('leaves a timeout inside the cap untouched', async () => {
    const { at, result } = await run({ timeoutMs: 10_000 });
    expect(at).toBe(10_000);
    expect(result.polls).toBe(11);
    expect(result.remainingMs).toBeUndefined();
  });

  it('polls a run that finishes inside the window until it is done, with no remainingMs', async () => {
    const { at, result, readList } = await run({ timeoutMs: 10_000, doneAt: 5 });
    expect(at).toBe(4_000);
    expect(readList).toHaveBeenCalledTimes(5);
    expect(result).toStrictEqual({ list: ['done'], done: true, outputs: 'outputs of done', elapsedMs: 4_000, polls: 5 });
  });

  it('returns at once when the first list is already done', async () => {
    const { at, result, readList } = await run({ doneAt: 1 });
    expect(at).toBe(0);
    expect(readList).toHaveBeenCalledTimes(1);
    expect(result).toStrictEqual({ list: ['done'], done: true, outputs: 'outputs of done', elapsedMs: 0, polls: 1 });
  });

  it('waits a 1 ms timeout, the smallest there is', async () => {
    const { at, result } = await run({ timeoutMs: 1 });
    expect(at).toBe(1);
    expect(result).toMatchObject({ polls: 2, done: false, elapsedMs: 1 });
  });
});

describe('one deadline for every await', () => {
  it('clamps a 7 s poll interval that does not divide 30 s, so the last poll lands on the deadline', async () => {
    const { at, readStarts } = await run({ pollIntervalMs: 7_000 });
    expect(readStarts).toEqual([0, 7_000, 14_000, 21_000, 28_000, 30_000]);
    expect(at).toBe(30_000);
  });

  it('resolves at the cap when the reader answers three polls at once and then stalls for 45 s', async () => {
    const { at, result, readList } = await run({ readMs: (poll) => (poll <= 3 ? 0 : 45_000), outputsMs: 10 });
    expect(readList).toHaveBeenCalledTimes(4);
    expect(at).toBe(30_000);
    expect(result).toStrictEqual({
      list: ['running 3'], done: false, outputsUnavailable: true, remainingMs: 70_000, elapsedMs: 30_000, polls: 3,
    });
  });

  it('leaves no list when the first read never returns: not an empty one, and not done', async () => {
    const { at, result, isDone, readOutputs } = await run({ readMs: () => Infinity });
    expect(at).toBe(30_000);
    expect(result).toStrictEqual({
      list: null, done: false, agentsUnavailable: true, outputsUnavailable: true, remainingMs: 70_000, elapsedMs: 30_000, polls: 0,
    });
    expect(isDone).not.toHaveBeenCalled();
    expect(readOutputs).not.toHaveBeenCalled();
  });

  it('gives up on a final read that stalls past the deadline', async () => {
    const { at, result, readOutputs } = await run({ doneAt: 2, outputsMs: 45_000 });
    expect(readOutputs).toHaveBeenCalledWith(['done']);
    expect(at).toBe(30_000);
    expect(result).toStrictEqual({ list: ['done'], done: true, outputsUnavailable: true, elapsedMs: 30_000, polls: 2 });
  });

  it('carries the outputs of a run that finishes with budget to spare', async () => {
    const { at, result } = await run({ doneAt: 2, outputsMs: 500 });
    expect(at).toBe(1_500);
    expect(result).toStrictEqual({ list: ['done'], done: true, outputs: 'outputs of done', elapsedMs: 1_500, polls: 2 });
  });

  it('cuts a poll sleep that overruns at the deadline and releases its timer', async () => {
    const overrunning: Sleep = (ms, signal) => sleep(ms === 1_234 ? 45_000 : ms, signal);
    const { at, result, timers } = await run({ pollIntervalMs: 1_234, sleep: overrunning });
    expect(at).toBe(30_000);
    expect(timers).toBe(0);
    expect(result).toMatchObject({ list: ['running 2'], polls: 2, outputs: 'outputs of running 2' });
  });

  it('leaves no timer behind when every await beat the deadline', async () => {
    const { timers, at } = await run({ doneAt: 3 });
    expect(at).toBe(2_000);
    expect(timers).toBe(0);
  });

  it('leaves only the stranded read pending when a read lost its race', async () => {
    const { timers } = await run({ readMs: (poll) => (poll === 1 ? 0 : 45_000) });
    expect(timers).toBe(1);
  });

  it('works with a sleep that resolves early, instead of rejecting, when released', async () => {
    const { at, result, timers } = await run({ sleep: sleeper('resolves'), doneAt: 4, outputsMs: 45_000 });
    expect(at).toBe(30_000);
    expect(timers).toBe(1);
    expect(result).toMatchObject({ done: true, polls: 4, outputsUnavailable: true });
  });

  it('rejects with a failing read and leaves no timer behind', async () => {
    const failure = new Error('reader down');
    const settled = boundedWait({
      timeoutMs: 100_000, pollIntervalMs: 1_000, clock: now, sleep, isDone: () => false,
      readList: () => Promise.reject(failure), readOutputs: async () => 'never',
    }).catch((error: unknown) => ({ error, timers: vi.getTimerCount() }));
    await vi.runAllTimersAsync();
    expect(await settled).toStrictEqual({ error: failure, timers: 0 });
  });
});

describe('the reserve measured from this call\'s own reads', () => {
  // Every final read costs what a list read costs, so the reserve is exactly right.
  const cases = [
    { readMs: 5_000, pollIntervalMs: 1_000, starts: [0, 6_000, 12_000, 18_000], end: 28_000, outputs: true },
    { readMs: 5_000, pollIntervalMs: 2_000, starts: [0, 7_000, 14_000, 20_000], end: 30_000, outputs: true },
    { readMs: 10_000, pollIntervalMs: 1_000, starts: [0], end: 20_000, outputs: true },
    { readMs: 20_000, pollIntervalMs: 1_000, starts: [0], end: 20_000, outputs: false },
    { readMs: 29_000, pollIntervalMs: 1_000, starts: [0], end: 29_000, outputs: false },
  ];
  for (const { readMs, pollIntervalMs, starts, end, outputs } of cases) {
    it(`stops reads of ${readMs} ms polled every ${pollIntervalMs} ms at ${end} ms, ${outputs ? 'with' : 'without'} outputs`, async () => {
      const { at, result, readStarts, readOutputs } = await run({ readMs: () => readMs, outputsMs: readMs, pollIntervalMs });
      expect(readStarts).toEqual(starts);
      expect(at).toBe(end);
      expect(result.elapsedMs).toBe(end);
      expect(result.remainingMs).toBe(100_000 - end);
      expect(result.outputsUnavailable).toBe(outputs ? undefined : true);
      expect(readOutputs).toHaveBeenCalledTimes(outputs ? 1 : 0);
    });
  }

  it('keeps the slowest read as the reserve after faster ones', async () => {
    const { readStarts, at } = await run({ readMs: (poll) => (poll === 1 ? 8_000 : 1_000), outputsMs: 1_000 });
    // 8 s then 1 s reads: polling stops once less than 16 s is left, not 2 s.
    expect(readStarts).toEqual([0, 9_000, 11_000, 13_000]);
    expect(at).toBe(15_000);
  });
});

describe('remainingMs', () => {
  it('walks the recovery path 60_500 -> 30_500 -> done, every value a legal next timeoutMs', async () => {
    const first = await run({ timeoutMs: 60_500 });
    expect(first.result.remainingMs).toBe(30_500);
    const second = await run({ timeoutMs: first.result.remainingMs! });
    expect(second.result.elapsedMs).toBe(30_000);
    expect(second.result.remainingMs).toBeUndefined();
    expect(first.result.remainingMs).toBeGreaterThanOrEqual(MIN_TIMEOUT_MS);
  });

  it('is reported when it equals the minimum', async () => {
    const { result } = await run({ timeoutMs: 31_000 });
    expect(MIN_TIMEOUT_MS).toBe(1_000);
    expect(result.remainingMs).toBe(1_000);
  });

  it('is omitted, not rounded up, when 1 ms below the minimum', async () => {
    const { result } = await run({ timeoutMs: 30_999 });
    expect(result).not.toHaveProperty('remainingMs');
  });

  it('follows a custom minimum', async () => {
    const { result } = await run({ timeoutMs: 30_999, minTimeoutMs: 999 });
    expect(result.remainingMs).toBe(999);
    const below = await run({ timeoutMs: 30_999, minTimeoutMs: 1_000 });
    expect(below.result.remainingMs).toBeUndefined();
  });

  it('charges the final read to the caller\'s budget', async () => {
    const { result } = await run({ timeoutMs: 40_000, capMs: 10_000, readMs: () => 2_000, outputsMs: 1_500 });
    expect(result.elapsedMs).toBe(9_500);
    expect(result.remainingMs).toBe(30_500);
  });
});

describe('options', () => {
  const base = (): Options => ({ timeoutMs: 10_000, pollIntervalMs: 1_000, clock: now, sleep, ...reader({ doneAt: 1 }) });
  const fields = ['timeoutMs', 'capMs', 'pollIntervalMs', 'minTimeoutMs'] as const;
  for (const field of fields) {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      it(`rejects ${field} = ${bad} before reading anything`, async () => {
        const options = { ...base(), [field]: bad };
        const error = await boundedWait(options).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RangeError);
        expect((error as Error).message).toBe(`boundedWait: ${field} must be a finite number > 0, got ${bad}`);
        expect(options.readList).not.toHaveBeenCalled();
      });
    }
    it(`accepts ${field} = 0.5`, async () => {
      const settled = boundedWait({ ...base(), [field]: 0.5 });
      await vi.runAllTimersAsync();
      await expect(settled).resolves.toMatchObject({ done: true });
    });
  }
});
