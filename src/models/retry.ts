// Retrying provider failures. The client libraries' own retries are off (maxRetries: 0) so
// this is the one place that decides: every attempt is counted, every wait is injected, and
// a failure that persists becomes a typed ProviderError the loop records as `errored`.
import type { Clock, Sleep } from '../reliability/clock.ts';

/**
 * Why a provider call failed. The first four can pass, so they are retried; the rest cannot:
 * `client` (a request the provider rejects: 400, 404), `auth` (401, 403), `context_length` (the
 * conversation no longer fits the model's context, whatever the status), `model_output` (the
 * provider could not read what the model wrote; the same request writes it again),
 * `replay_diverged` (a replayed run's request is not the recorded one: src/models/replay.ts).
 */
export type ProviderErrorKind =
  | 'rate_limit' | 'server' | 'connection' | 'timeout'
  | 'client' | 'auth' | 'context_length' | 'model_output' | 'replay_diverged';

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'server', 'connection', 'timeout']);

export function isRetryable(kind: ProviderErrorKind): boolean {
  return RETRYABLE.has(kind);
}

/** A provider kept failing (or refused the request outright); the message is one line. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly kind: ProviderErrorKind,
    /** HTTP status of the last attempt; undefined when no response came back. */
    readonly status: number | undefined,
    readonly attempts: number,
    /** What went wrong in a few words (`connection refused`, `HTTP 500: …`), without label or advice. */
    readonly detail: string = message,
  ) {
    super(message);
  }

  /** False for requests the provider rejected as wrong, and for failures the same request repeats. */
  get retryable(): boolean {
    return isRetryable(this.kind);
  }
}

/** One failed attempt, classified; adapters throw it and `withRetry` decides what follows. */
export class AttemptFailure extends Error {
  override readonly name = 'AttemptFailure';
  constructor(
    readonly kind: ProviderErrorKind,
    readonly detail: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(detail);
  }
}

// What providers say when the conversation does not fit: OpenAI's `context_length_exceeded`
// ("This model's maximum context length is ..."), Anthropic's "prompt is too long", llama.cpp's
// "request (N tokens) exceeds the available context size" (Ollama passes it on), vLLM's
// "maximum context length", Ollama's own "the input length exceeds the context length".
const CONTEXT_LENGTH = /context[_ ]length|maximum context|context window|context size|prompt is too long/i;

/** The kind of a failed response: its status, and for a context overflow its message. */
export function kindOfStatus(status: number, message = ''): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status >= 400 && CONTEXT_LENGTH.test(message)) return 'context_length';
  if (status === 429) return 'rate_limit';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'client';
}

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; undefined if neither. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  // an HTTP date names its month; Date.parse alone would take "-3" as a year
  const at = /[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export interface RetryPolicy {
  /** Requests in all, the first included. */
  readonly maxAttempts: number;
  /**
   * Requests in all when the failure is a rate limit (429): the provider pacing the run rather
   * than failing it, so it is followed longer than other failures while the concurrency limiter
   * (pace.ts) lowers the load; each wait is still capped by `maxRetryAfterMs`, and the step's
   * time limit ends it sooner.
   */
  readonly maxRateLimitAttempts: number;
  /** Ceiling of the first back-off; it doubles per retry up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this ends the retries instead of stalling the step. */
  readonly maxRetryAfterMs: number;
  readonly sleep: Sleep;
  /** Uniform in [0, 1); the jitter. */
  readonly random: () => number;
  readonly now: Clock;
}

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4, // three retries ride out a brief overload; more would eat the step's time limit
  // With eight passes at once against a provider that throttles one request in three, a request
  // still throttled after 12 tries would have lost eleven draws in a row (about 1 in 180,000).
  maxRateLimitAttempts: 12,
  baseDelayMs: 1_000, // back-offs of up to 1, 2, 4 s: at most 7 s waiting without Retry-After
  maxDelayMs: 16_000,
  maxRetryAfterMs: 60_000, // a minute is the longest rate-limit window worth sitting out in a step
  sleep: realSleep,
  random: Math.random,
  now: Date.now,
};

function check(field: string, value: number, min: number, integer: boolean): void {
  if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new RangeError(`retry ${field} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got ${value}`);
  }
}

export function resolveRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...overrides };
  check('maxAttempts', policy.maxAttempts, 1, true);
  check('maxRateLimitAttempts', policy.maxRateLimitAttempts, 1, true);
  check('baseDelayMs', policy.baseDelayMs, 0, false);
  check('maxDelayMs', policy.maxDelayMs, 0, false);
  check('maxRetryAfterMs', policy.maxRetryAfterMs, 0, false);
  return policy;
}

/** Full jitter: uniform in [0, min(cap, base * 2^retry)); `retry` counts from 0. */
export function backoffMs(retry: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(policy.random() * ceiling);
}

export type Hint = (failure: AttemptFailure) => string | undefined;

const KIND_WORDS: Record<ProviderErrorKind, string> = {
  rate_limit: 'rate limited',
  server: 'server error',
  connection: 'connection failed',
  timeout: 'timed out',
  client: 'request rejected',
  auth: 'authentication failed',
  context_length: 'the conversation is longer than the model\'s context',
  model_output: 'the provider could not read the model\'s output',
  replay_diverged: 'replay diverged',
};

function giveUp(label: string, failure: AttemptFailure, attempts: number, hint: Hint | undefined, why = ''): ProviderError {
  const tries = isRetryable(failure.kind) ? ` after ${attempts} attempt${attempts === 1 ? '' : 's'}` : '';
  const advice = hint?.(failure);
  const line = `${label}: ${KIND_WORDS[failure.kind]}${tries}${why}: ${failure.detail}${advice ? `; ${advice}` : ''}`;
  return new ProviderError(line.replace(/\s+/g, ' '), failure.kind, failure.status, attempts, failure.detail.replace(/\s+/g, ' '));
}

export interface Retried<T> {
  readonly value: T;
  readonly attempts: number;
  readonly waitedMs: number;
}

/**
 * Runs `attempt` until it returns, retrying each `AttemptFailure` of a retryable kind,
 * waiting `Retry-After` when the provider gave one and a jittered back-off otherwise.
 * Any other error is a bug or an abort and passes through untouched.
 */
export async function withRetry<T>(
  label: string,
  policy: RetryPolicy,
  attempt: (n: number) => Promise<T>,
  signal?: AbortSignal,
  hint?: Hint,
): Promise<Retried<T>> {
  let waitedMs = 0;
  for (let n = 1; ; n++) {
    signal?.throwIfAborted();
    try {
      return { value: await attempt(n), attempts: n, waitedMs };
    } catch (err) {
      if (!(err instanceof AttemptFailure)) throw err;
      const limit = err.kind === 'rate_limit' ? policy.maxRateLimitAttempts : policy.maxAttempts;
      if (!isRetryable(err.kind) || n >= limit) throw giveUp(label, err, n, hint);
      if (err.retryAfterMs !== undefined && err.retryAfterMs > policy.maxRetryAfterMs) {
        const asked = ` (asked to wait ${Math.ceil(err.retryAfterMs / 1000)} s, over the ${policy.maxRetryAfterMs / 1000} s cap)`;
        throw giveUp(label, err, n, hint, asked);
      }
      const wait = err.retryAfterMs ?? backoffMs(n - 1, policy);
      await policy.sleep(wait, signal);
      signal?.throwIfAborted();
      waitedMs += wait;
    }
  }
}
