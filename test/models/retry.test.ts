import { describe, expect, it, vi } from 'vitest';
import {
  AttemptFailure,
  backoffMs,
  kindOfStatus,
  parseRetryAfter,
  ProviderError,
  realSleep,
  resolveRetryPolicy,
  withRetry,
} from '../../src/models/retry.ts';
import type { RetryPolicy } from '../../src/models/retry.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');

function policy(overrides: Partial<RetryPolicy> = {}): RetryPolicy & { waits: number[] } {
  const waits: number[] = [];
  return { ...resolveRetryPolicy({ sleep: async (ms) => void waits.push(ms), random: () => 0.5, now: () => NOW, ...overrides }), waits };
}

/** An attempt function failing with `failures` in order, then answering 'ok'. */
function script(...failures: AttemptFailure[]) {
  const calls: number[] = [];
  const run = async (n: number) => {
    calls.push(n);
    const f = failures[n - 1];
    if (f) throw f;
    return 'ok';
  };
  return { calls, run };
}

describe('kindOfStatus', () => {
  it.each([
    [429, 'rate_limit'],
    [408, 'timeout'],
    [500, 'server'],
    [503, 'server'],
    [529, 'server'],
    [499, 'client'],
    [400, 'client'],
    [401, 'auth'],
    [403, 'auth'],
    [404, 'client'],
  ])('calls %i %s', (status, kind) => expect(kindOfStatus(status)).toBe(kind));

  it.each([
    [400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9100 tokens."],
    [400, 'prompt is too long: 210000 tokens > 200000 maximum'],
    [400, 'request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it'],
    [500, 'the input length exceeds the context length'],
  ])('calls %i "%s" a context overflow, whatever the status', (status, message) => {
    expect(kindOfStatus(status, message)).toBe('context_length');
  });

  it('reads a context word only in a failure, and a 401 as auth whatever it says', () => {
    expect(kindOfStatus(200, 'maximum context length')).not.toBe('context_length');
    expect(kindOfStatus(401, 'prompt is too long')).toBe('auth');
    expect(kindOfStatus(500, 'context canceled')).toBe('server');
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds, whole or fractional', () => {
    expect(parseRetryAfter('2', NOW)).toBe(2000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
  });

  it('reads an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:07 GMT', NOW)).toBe(7000);
  });

  it('counts a date already past as no wait', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:59:00 GMT', NOW)).toBe(0);
  });

  it('ignores a missing or unreadable value', () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('-3', NOW)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('draws uniformly below a ceiling that doubles per retry', () => {
    const p = policy({ random: () => 0.999 });
    expect([0, 1, 2, 3].map((r) => backoffMs(r, p))).toStrictEqual([999, 1998, 3996, 7992]);
  });

  it('caps the ceiling at maxDelayMs', () => {
    expect(backoffMs(10, policy({ random: () => 0.5, maxDelayMs: 16_000 }))).toBe(8000);
  });

  it('can draw zero: full jitter, not equal jitter', () => {
    expect(backoffMs(3, policy({ random: () => 0 }))).toBe(0);
  });
});

describe('resolveRetryPolicy', () => {
  it('accepts a single attempt and zero delays', () => {
    expect(resolveRetryPolicy({ maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 }).maxAttempts).toBe(1);
  });

  it.each([
    ['maxAttempts', 0, 'retry maxAttempts must be an integer >= 1, got 0'],
    ['maxAttempts', 1.5, 'retry maxAttempts must be an integer >= 1, got 1.5'],
    ['maxRateLimitAttempts', 0, 'retry maxRateLimitAttempts must be an integer >= 1, got 0'],
    ['baseDelayMs', -1, 'retry baseDelayMs must be a number >= 0, got -1'],
    ['maxDelayMs', Number.NaN, 'retry maxDelayMs must be a number >= 0, got NaN'],
    ['maxRetryAfterMs', -1, 'retry maxRetryAfterMs must be a number >= 0, got -1'],
  ])('rejects %s = %s with a RangeError naming it', (field, value, message) => {
    expect(() => resolveRetryPolicy({ [field]: value })).toThrow(new RangeError(message));
  });
});

describe('withRetry', () => {
  it('returns the first success with the attempt count and time waited', async () => {
    const p = policy();
    const { run, calls } = script(new AttemptFailure('server', 'HTTP 502: bad gateway', 502), new AttemptFailure('connection', 'connection reset'));
    expect(await withRetry('m', p, run)).toStrictEqual({ value: 'ok', attempts: 3, waitedMs: 1500 });
    expect(calls).toStrictEqual([1, 2, 3]);
    expect(p.waits).toStrictEqual([500, 1000]);
  });

  it('waits exactly the Retry-After instead of the back-off', async () => {
    const p = policy();
    const { run } = script(new AttemptFailure('rate_limit', 'HTTP 429: slow', 429, 4200));
    await withRetry('m', p, run);
    expect(p.waits).toStrictEqual([4200]);
  });

  it('waits a Retry-After equal to the cap, and gives up on one just over it', async () => {
    const atCap = policy({ maxRetryAfterMs: 5000 });
    await withRetry('m', atCap, script(new AttemptFailure('rate_limit', 'HTTP 429: slow', 429, 5000)).run);
    expect(atCap.waits).toStrictEqual([5000]);

    const over = policy({ maxRetryAfterMs: 5000 });
    const failing = withRetry('m', over, script(new AttemptFailure('rate_limit', 'HTTP 429: slow', 429, 5001)).run);
    await expect(failing).rejects.toThrow('m: rate limited after 1 attempt (asked to wait 6 s, over the 5 s cap): HTTP 429: slow');
    expect(over.waits).toStrictEqual([]);
  });

  it('does not retry a client failure', async () => {
    const { run, calls } = script(new AttemptFailure('client', 'HTTP 400: bad', 400));
    const err = await withRetry('m', policy(), run).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'client', status: 400, attempts: 1, message: 'm: request rejected: HTTP 400: bad' });
    expect(calls).toStrictEqual([1]);
  });

  it('makes exactly maxAttempts attempts, so one attempt means no retry', async () => {
    const fail = () => new AttemptFailure('timeout', 'no answer within 1 s');
    const once = script(fail(), fail());
    await expect(withRetry('m', policy({ maxAttempts: 1 }), once.run)).rejects.toMatchObject({ kind: 'timeout', attempts: 1 });
    expect(once.calls).toStrictEqual([1]);
    const twice = script(fail(), fail(), fail());
    await expect(withRetry('m', policy({ maxAttempts: 2 }), twice.run)).rejects.toMatchObject({ attempts: 2 });
    expect(twice.calls).toStrictEqual([1, 2]);
  });

  it('follows a rate limit for maxRateLimitAttempts requests, whatever maxAttempts says', async () => {
    const slow = () => new AttemptFailure('rate_limit', 'HTTP 429: slow', 429, 100);
    const fourth = script(slow(), slow(), slow());
    const p = policy({ maxAttempts: 2, maxRateLimitAttempts: 4 });
    expect(await withRetry('m', p, fourth.run)).toMatchObject({ value: 'ok', attempts: 4, waitedMs: 300 });
    const never = script(slow(), slow(), slow(), slow(), slow());
    await expect(withRetry('m', policy({ maxAttempts: 9, maxRateLimitAttempts: 4 }), never.run))
      .rejects.toMatchObject({ kind: 'rate_limit', attempts: 4, message: 'm: rate limited after 4 attempts: HTTP 429: slow' });
    expect(never.calls).toStrictEqual([1, 2, 3, 4]);
  });

  it('gives up on another failure at maxAttempts, even after rate limits', async () => {
    const { run, calls } = script(
      new AttemptFailure('rate_limit', 'HTTP 429: slow', 429, 100), new AttemptFailure('server', 'HTTP 500: x', 500), new AttemptFailure('server', 'HTTP 500: x', 500),
    );
    await expect(withRetry('m', policy({ maxAttempts: 3, maxRateLimitAttempts: 12 }), run)).rejects.toMatchObject({ kind: 'server', attempts: 3 });
    expect(calls).toStrictEqual([1, 2, 3]);
  });

  it('puts the advice of the hint at the end of one line', async () => {
    const { run } = script(new AttemptFailure('connection', 'connection\nrefused'), new AttemptFailure('connection', 'connection\nrefused'));
    const hint = (f: AttemptFailure) => (f.kind === 'connection' ? 'is it running?' : undefined);
    await expect(withRetry('ollama:m', policy({ maxAttempts: 2 }), run, undefined, hint)).rejects.toThrow(
      /^ollama:m: connection failed after 2 attempts: connection refused; is it running\?$/,
    );
  });

  it('passes errors it does not know through untouched', async () => {
    const bug = new TypeError('undefined is not a function');
    await expect(withRetry('m', policy(), async () => Promise.reject(bug))).rejects.toBe(bug);
  });

  it('stops when the signal aborts during a back-off, with the abort reason', async () => {
    const controller = new AbortController();
    const reason = new Error('time limit');
    const p = policy({ sleep: async () => controller.abort(reason) });
    const { run, calls } = script(new AttemptFailure('server', 'HTTP 500: x', 500));
    await expect(withRetry('m', p, run, controller.signal)).rejects.toBe(reason);
    expect(calls).toStrictEqual([1]);
  });
});

describe('realSleep', () => {
  it('resolves early when its signal aborts', async () => {
    // On fake timers: it settles on the abort with no time passing, and leaves no timer behind.
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      let settled = false;
      const sleeping = realSleep(10_000, controller.signal).then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(9_999);
      expect(settled).toBe(false);
      controller.abort();
      await sleeping;
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
