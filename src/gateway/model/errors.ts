// How a failed answer reaches the agent: a status it reads the way it reads the provider's own.
// Rate limits stay 429 and overload stays overload (529 at Anthropic, 503 at OpenAI) so the
// agent's client backs off and retries as it would against the provider; a conversation too
// long for the model stays a 400 with the words agents look for (Codex reads OpenAI's
// `context_length_exceeded` code, Claude Code Anthropic's "prompt is too long"); a timeout is
// 504; every other failure of the provider behind the gateway is 502.
import { ProviderError } from '../../models/retry.ts';

export interface FailureReply {
  readonly status: number;
  readonly message: string;
  /** OpenAI's `code` for it, when OpenAI has one. */
  readonly code: string | null;
}

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
