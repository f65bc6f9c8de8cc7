// What an error thrown by the SDK means, asked in Ladder's words: was it a timeout, a JSON-RPC
// error the server answered (and with which code), a lost HTTP session, a refused revision. The
// SDK's error classes and the shapes of its messages are known here only, so that a new SDK line
// changes this file and not the lane, the gateway or the workbench.
//
// The client is on the SDK's v2 line, whose errors are ProtocolError (a JSON-RPC error that came
// over the wire), SdkError (something that happened on this side: a timeout, a closed
// connection, a failed negotiation) and SdkHttpError (an HTTP status). The servers are on the
// same line; protocolError() below makes the server package's ProtocolError, which its servers
// send on as a JSON-RPC error with that code.
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';
import { ProtocolError as ServerProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { MODERN_REVISION } from './protocols.ts';
import type { Protocol } from './protocols.ts';

/** JSON-RPC error codes Ladder raises or reads (the protocol's, plus the v1 SDK's own two). */
export const RpcCode = {
  InvalidParams: ProtocolErrorCode.InvalidParams,
  InternalError: ProtocolErrorCode.InternalError,
  /**
   * What the SDK's v1 line called a request it gave up waiting for (-32001), kept in the words a
   * trace shows and the code v1 clients and servers still send.
   */
  RequestTimeout: -32001,
  /** What the SDK's v1 line called a request whose connection closed under it (-32000). */
  ConnectionClosed: -32000,
  /** The 2026-07-28 revision's answer to a protocol version the server does not support. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** The 2025 revisions Ladder's client offers in `initialize`, newest first. */
export const LEGACY_REVISIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** The revisions Ladder offers a server under a protocol setting, newest first. */
export function revisionsOf(protocol: Protocol): readonly string[] {
  if (protocol === 'legacy') return LEGACY_REVISIONS;
  if (protocol === MODERN_REVISION) return [MODERN_REVISION];
  return [MODERN_REVISION, ...LEGACY_REVISIONS];
}

/** An error a request handler throws for the client to receive as a JSON-RPC error with this code. */
export function protocolError(code: number, message: string, data?: unknown): Error {
  return new ServerProtocolError(code, message, data);
}

/** The request timed out on the client's side: the server did not answer within the request's timeout. */
export function isRequestTimeout(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
}

function isConnectionClosed(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
}

/**
 * The JSON-RPC code of an error the server answered; for a local timeout or a closed connection,
 * the code the v1 SDK gave them (traces recorded before the move keep their meaning). Undefined
 * for anything else.
 */
export function rpcCodeOf(error: unknown): number | undefined {
  if (error instanceof ProtocolError) return error.code;
  if (isRequestTimeout(error)) return RpcCode.RequestTimeout;
  if (isConnectionClosed(error)) return RpcCode.ConnectionClosed;
  return undefined;
}

/**
 * An error as a model and a trace read it: `MCP error -32602: Tool nope not found`. The v2 SDK
 * leaves the `MCP error N: ` prefix off its messages; the v1 SDK put it on, and every trace and
 * golden transcript before the move has it. A replay compares the tool results a model was sent,
 * so the words stay what they were.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = rpcCodeOf(error);
  if (code === undefined || error.message.startsWith('MCP error ')) return error.message;
  return `MCP error ${code}: ${error.message}`;
}

/** The chain of causes from an error down, the error first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at = error; at !== undefined && at !== null && chain.length < 8; at = (at as { cause?: unknown }).cause) chain.push(at);
  return chain;
}

/** A request failed because the HTTP server is gone or no longer knows the session (not an answer it gave). */
export function isSessionLost(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status === 404;
  return causes(error).some((e) => e instanceof TypeError && e.message === 'fetch failed');
}

/** A JSON-RPC error a connect failed with, wherever the SDK put it. */
export interface AnsweredError {
  code: number;
  message: string;
  data?: unknown;
  /** The HTTP status it came with, when it came as an HTTP error's body. */
  httpStatus?: number;
}

/** The JSON-RPC error inside an HTTP error's body (the SDK keeps the body in `data.text`, and in its message). */
function rpcErrorInBody(error: SdkHttpError): AnsweredError | undefined {
  const body = typeof error.data.text === 'string' ? error.data.text : /(\{.*\})\s*$/s.exec(error.message)?.[1];
  if (body === undefined) return undefined;
  try {
    const rpc = (JSON.parse(body) as { error?: Partial<AnsweredError> }).error;
    return typeof rpc?.code === 'number' && typeof rpc.message === 'string'
      ? { code: rpc.code, message: `MCP error ${rpc.code}: ${rpc.message}`, data: rpc.data, httpStatus: error.status }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The JSON-RPC error a server answered a request with: thrown as such over stdio, and over
 * Streamable HTTP either so or in the body of an HTTP error. The message reads as describeError's.
 */
export function answeredError(error: unknown): AnsweredError | undefined {
  if (error instanceof ProtocolError) {
    const status = (error as { httpStatus?: unknown }).httpStatus;
    return { code: error.code, message: describeError(error), data: error.data, ...(typeof status === 'number' ? { httpStatus: status } : {}) };
  }
  // An HTTP error with no JSON-RPC body (a 502 from a proxy, a 404 for a lost session) was not an answer.
  if (error instanceof SdkHttpError) return rpcErrorInBody(error);
  return undefined;
}

/** The protocol version a server answered initialize with, when the client refused it for being one it does not speak. */
export function unspokenVersionAnswered(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  return /^Server's protocol version is not supported: (\S+)$/.exec(error.message)?.[1];
}

/**
 * A pinned revision the server did not offer in `server/discover` (the v2 client fails the
 * connect with EraNegotiationFailed and says so): the same answer on every try.
 */
export function pinnedRevisionRefused(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && /did not offer pinned protocol version/.test(error.message);
}

/**
 * `auto`'s `server/discover` probe was answered, but not usably: an HTTP 5xx, or a reply the SDK
 * could not read. Not an outage (a refused connection, a timeout), and not the pinned refusal.
 */
export function probeAnsweredBadly(error: unknown): boolean {
  if (!(error instanceof SdkError) || error.code !== SdkErrorCode.EraNegotiationFailed) return false;
  if (error instanceof SdkHttpError) return error.status >= 500;
  return /answered with an unusable reply/.test(error.message);
}

/** A server answered the 2025 handshake as a modern-only server does: -32022, Unsupported protocol version. */
export function refusedAsModern(error: unknown): boolean {
  return answeredError(error)?.code === RpcCode.UnsupportedProtocolVersion;
}
