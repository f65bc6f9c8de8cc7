// How a failed answer reaches the agent: a status it reads the way it reads the provider's own.
// Rate limits stay 429 and overload stays overload (529 at Anthropic, 503 at OpenAI) so the
// agent's client backs off and retries as it would against the provider; a conversation too
// long for the model stays a 400 with the words agents look for (Codex reads OpenAI's
// `context_length_exceeded` code, Claude Code Anthropic's "prompt is too long"); a timeout is
// 504; every other failure of the provider behind the gateway is 502.
//
// A replay that diverged is final: asking again gets the same answer, and an SDK that retried
// would only make more rounds that diverge after the first (the step's error must name the
// first). It is a 400, which none of the clients agents are built on retries (openai 6.49.0 and
// @anthropic-ai/sdk 1.14.0, client.js shouldRetry: only 408, 409, 429 and 5xx; Gemini CLI
// 0.61.0, isRetryableError: "if (error.status === 400) return false"), sent with
// `x-should-retry: false`, the header both SDKs obey before looking at the status.
import { REPLAY_DIVERGED } from '../../models/replay.ts';
import { ProviderError } from '../../models/retry.ts';

export interface FailureReply {
  readonly status: number;
  readonly message: string;
  /** OpenAI's `code` for it, when OpenAI has one. */
  readonly code: string | null;
  /** Asking again gets the same answer: sent with `x-should-retry: false`. */
  readonly final?: true;
}

/** The header the OpenAI and Anthropic SDKs obey before their own retry rules. */
export const FINAL_HEADERS: Readonly<Record<string, string>> = { 'x-should-retry': 'false' };

/** OpenAI's 503 "overloaded" and Anthropic's 529 `overloaded_error` are one condition. */
const OVERLOADED = new Set([503, 529]);

export function failureReply(err: unknown, anthropic: boolean): FailureReply {
  if (!(err instanceof ProviderError)) {
    const message = err instanceof Error ? err.message : String(err);
    return { status: 500, message: `the model gateway could not answer: ${message}`, code: null };
  }
  if (err.kind === 'rate_limit') return { status: 429, message: err.message, code: 'rate_limit_exceeded' };
  if (err.kind === 'server' && err.status !== undefined && OVERLOADED.has(err.status)) {
    return { status: anthropic ? 529 : 503, message: err.message, code: null };
  }
  if (err.kind === 'context_length') {
    return { status: 400, message: anthropic ? `prompt is too long: ${err.message}` : err.message, code: 'context_length_exceeded' };
  }
  if (err.kind === 'timeout') return { status: 504, message: err.message, code: null };
  if (err.kind === REPLAY_DIVERGED) return { status: 400, message: err.message, code: REPLAY_DIVERGED, final: true };
  return { status: 502, message: err.message, code: null };
}

/** Anthropic's `error.type` for a status (API reference, "Errors"). */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400: return 'invalid_request_error';
    case 401: return 'authentication_error';
    case 403: return 'permission_error';
    case 404: return 'not_found_error';
    case 413: return 'request_too_large';
    case 429: return 'rate_limit_error';
    case 504: return 'timeout_error';
    case 529: return 'overloaded_error';
    default: return 'api_error';
  }
}

/**
 * OpenAI's `error.type` for a status, as its API sends them: a bad key (401) and a path or model it
 * does not know (404) are `invalid_request_error` too, with the case in `code` (invalid_api_key,
 * model_not_found). Its 429s name the limit (`requests`, `tokens`); Ladder's says rate_limit_error.
 */
export function openaiErrorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function openaiErrorBody(status: number, message: string, param: string | null = null, code: string | null = null): unknown {
  return { error: { message, type: openaiErrorType(status), param, code } };
}

export function anthropicErrorBody(status: number, message: string): unknown {
  return { type: 'error', error: { type: anthropicErrorType(status), message } };
}

// Google's error shape is `{error: {code, message, status}}`, `status` the canonical code's name
// (google.rpc.Code). The Gemini API's troubleshooting page (ai.google.dev/gemini-api/docs/troubleshooting)
// lists the statuses it answers with: 400 INVALID_ARGUMENT, 403 PERMISSION_DENIED, 404 NOT_FOUND,
// 429 RESOURCE_EXHAUSTED, 500 INTERNAL, 503 UNAVAILABLE, 504 DEADLINE_EXCEEDED; 401
// UNAUTHENTICATED is what a wrong OAuth bearer token gets.
const GOOGLE_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};

/**
 * The status the Gemini API would answer for one of the gateway's: a body over the limit is
 * Google's 400 ("Request payload size exceeds the limit"), a wrong method on a path is 404, a
 * provider failure behind the gateway is 500 INTERNAL and overload 503 UNAVAILABLE.
 */
export function googleHttpStatus(status: number): number {
  if (GOOGLE_STATUS[status] !== undefined) return status;
  if (status === 413) return 400;
  if (status === 405) return 404;
  if (status === 529) return 503;
  return status >= 500 ? 500 : 400;
}

/** `details` entries of google.rpc's types, as the Gemini API attaches them. */
export type GoogleDetail = Readonly<Record<string, unknown>> & { readonly '@type': string };

export function googleErrorBody(status: number, message: string, details: readonly GoogleDetail[] = []): unknown {
  const code = googleHttpStatus(status);
  return { error: { code, message, status: GOOGLE_STATUS[code], ...(details.length > 0 ? { details } : {}) } };
}
