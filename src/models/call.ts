// One provider call as every adapter makes it: each attempt gets its own fetch that carries
// the attempt's deadline and the caller's abort signal, and notes what came back (status,
// headers, network error). Classifying from those notes, not from each client library's
// error classes, keeps the three adapters' failure handling identical.
import type { Clock } from '../reliability/clock.ts';
import type { Pace } from './pace.ts';
import { AttemptFailure, kindOfStatus, parseRetryAfter, resolveRetryPolicy, withRetry } from './retry.ts';
import type { Hint, RetryPolicy } from './retry.ts';
import type { ThinkingSetting } from './settings.ts';

/** How an adapter is made; every field is optional and the world (env, clocks) is injectable. */
export interface AdapterOptions {
  /** Provider endpoint; otherwise OLLAMA_HOST / OPENAI_BASE_URL / ANTHROPIC_BASE_URL, then the default. */
  readonly baseUrl?: string;
  /** Otherwise OPENAI_API_KEY / ANTHROPIC_API_KEY. */
  readonly apiKey?: string;
  /** Where environment variables are read; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Deadline of one attempt. */
  readonly timeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** Clock for `latencyMs`. */
  readonly now?: Clock;
  /** `--thinking`: Anthropic and Ollama; each adapter says what it sends for it. */
  readonly thinking?: ThinkingSetting;
  /** `--num-ctx`: Ollama's context window (`options.num_ctx`). */
  readonly numCtx?: number;
  /** OpenAI-compatible only: send `seed`; by default only to servers known to take it. */
  readonly sendSeed?: boolean;
  /** The provider's concurrency limiter (src/models/pace.ts): told of every request and its outcome. */
  readonly pace?: Pace;
}

// A cold local model (load plus a long prompt on CPU) takes minutes; hosted APIs answer
// well inside this, and the step's own time limit still aborts sooner when it is shorter.
export const DEFAULT_TIMEOUT_MS = 180_000;

/** A configuration the user can fix (missing key, bad URL); one line, said before any request. */
export class ModelConfigError extends Error {
  override readonly name = 'ModelConfigError';
}

export interface CallContext {
  readonly label: string;
  readonly timeoutMs: number;
  readonly policy: RetryPolicy;
  readonly now: Clock;
  readonly hint: Hint;
  /** A provider's own reading of a failure (a status that means something else there). */
  readonly refine?: (failure: AttemptFailure) => AttemptFailure;
  readonly pace?: Pace;
}

export function callContext(label: string, options: AdapterOptions, hint: Hint, refine?: CallContext['refine']): CallContext {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`timeoutMs must be > 0, got ${timeoutMs}`);
  return {
    label, timeoutMs, policy: resolveRetryPolicy(options.retry), now: options.now ?? performance.now.bind(performance), hint,
    ...(refine ? { refine } : {}),
    ...(options.pace ? { pace: options.pace } : {}),
  };
}

interface Notes {
  status?: number;
  headers?: Headers;
  message?: string;
  networkError?: unknown;
  timedOut: boolean;
}

/**
 * The server's own words from an error body: `{error: {message}}`, `{error: "…"}` or text. A
 * message that is itself such a body (Ollama passes llama-server's error on as a string) is
 * read once more.
 */
function wordsOf(text: string, depth = 0): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = body.error as { message?: unknown } | string | undefined;
    const found = typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : typeof body.message === 'string' ? body.message : undefined;
    return found !== undefined && depth === 0 ? (wordsOf(found, 1) ?? found) : found;
  } catch {
    return undefined;
  }
}

async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  return wordsOf(text) ?? (text.slice(0, 300) || response.statusText);
}

const NETWORK_CODES: Record<string, [AttemptFailure['kind'], string]> = {
  ECONNREFUSED: ['connection', 'connection refused'],
  ECONNRESET: ['connection', 'connection reset'],
  EPIPE: ['connection', 'connection closed'],
  UND_ERR_SOCKET: ['connection', 'connection dropped'],
  UND_ERR_CLOSED: ['connection', 'connection dropped'],
  ENOTFOUND: ['connection', 'host not found'],
  EAI_AGAIN: ['connection', 'host lookup failed'],
  ETIMEDOUT: ['timeout', 'connect timed out'],
  UND_ERR_CONNECT_TIMEOUT: ['timeout', 'connect timed out'],
  UND_ERR_HEADERS_TIMEOUT: ['timeout', 'no response headers in time'],
  UND_ERR_BODY_TIMEOUT: ['timeout', 'response body stalled'],
};

/** Walks an error and its causes for a network failure Node's fetch reports. */
export function networkFailure(err: unknown): AttemptFailure | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const known = typeof code === 'string' ? NETWORK_CODES[code] : undefined;
    if (known) return new AttemptFailure(known[0], known[1]);
    if (e instanceof SyntaxError) return new AttemptFailure('server', `malformed response body (${e.message})`);
    if (e.message === 'terminated') return new AttemptFailure('connection', 'connection dropped mid-response');
  }
  return undefined;
}

/** `retry-after-ms` (OpenAI and Anthropic send it) wins over the standard `Retry-After`. */
function retryAfter(headers: Headers | undefined, ctx: CallContext): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms != null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  return parseRetryAfter(headers?.get('retry-after'), ctx.policy.now());
}

function classify(err: unknown, notes: Notes, ctx: CallContext, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (notes.timedOut) return new AttemptFailure('timeout', `no answer within ${ctx.timeoutMs / 1000} s`);
  if (notes.status !== undefined) {
    const detail = `HTTP ${notes.status}: ${notes.message}`;
    const failure = new AttemptFailure(kindOfStatus(notes.status, notes.message), detail, notes.status, retryAfter(notes.headers, ctx));
    return ctx.refine?.(failure) ?? failure;
  }
  if (notes.networkError !== undefined) {
    return networkFailure(notes.networkError) ?? new AttemptFailure('connection', String(notes.networkError));
  }
  return networkFailure(err) ?? err;
}

export interface CallResult<T> {
  readonly value: T;
  readonly attempts: number;
  readonly retryWaitMs: number;
  readonly latencyMs: number;
}

/** Runs `send` with retries; `send` must make its client use the fetch it is given. */
export async function callProvider<T>(
  ctx: CallContext,
  signal: AbortSignal | undefined,
  send: (fetch: typeof globalThis.fetch) => Promise<T>,
): Promise<CallResult<T>> {
  const started = ctx.now();
  const result = await withRetry(
    ctx.label,
    ctx.policy,
    async () => {
      const notes: Notes = { timedOut: false };
      const deadline = new AbortController();
      const timer = setTimeout(() => {
        notes.timedOut = true;
        deadline.abort(new Error('attempt deadline'));
      }, ctx.timeoutMs);
      const fetch: typeof globalThis.fetch = async (input, init) => {
        const signals = [deadline.signal, init?.signal, signal].filter((s): s is AbortSignal => s != null);
        try {
          const response = await globalThis.fetch(input, { ...init, signal: AbortSignal.any(signals) });
          if (!response.ok) {
            notes.status = response.status;
            notes.headers = response.headers;
            notes.message = await errorMessage(response.clone());
          }
          return response;
        } catch (err) {
          notes.networkError = err;
          throw err;
        }
      };
      const ticket = ctx.pace?.sent();
      try {
        const value = await send(fetch);
        if (ticket !== undefined) ctx.pace!.succeeded(ticket);
        return value;
      } catch (err) {
        const failure = classify(err, notes, ctx, signal);
        // A 429, or any answer that says when to come back, is the provider pacing us.
        if (ticket !== undefined && failure instanceof AttemptFailure && (failure.kind === 'rate_limit' || failure.retryAfterMs !== undefined)) {
          ctx.pace!.throttled(ticket, failure.retryAfterMs);
        }
        throw failure;
      } finally {
        clearTimeout(timer);
      }
    },
    signal,
    ctx.hint,
  );
  return { value: result.value, attempts: result.attempts, retryWaitMs: result.waitedMs, latencyMs: ctx.now() - started };
}
