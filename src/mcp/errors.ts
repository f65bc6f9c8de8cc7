// What an error thrown by the SDK means, asked in Ladder's words: was it a timeout, a JSON-RPC
// error the server answered (and with which code), a lost HTTP session. The SDK's error classes
// and the shapes of its messages are known here only, so that a new SDK line changes this file
// and not the lane, the gateway or the workbench.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC error codes Ladder raises or reads (the protocol's, plus the SDK's own timeout). */
export const RpcCode = {
  InvalidParams: ErrorCode.InvalidParams,
  InternalError: ErrorCode.InternalError,
  RequestTimeout: ErrorCode.RequestTimeout,
} as const;

/** The revisions Ladder's MCP client offers, newest first. */
export const SPOKEN_REVISIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** An error a request handler throws for the client to receive as a JSON-RPC error with this code. */
export function protocolError(code: number, message: string, data?: unknown): Error {
  return new McpError(code, message, data);
}

/** The request timed out on the client's side: the server did not answer within the request's timeout. */
export function isRequestTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

/** The JSON-RPC code of an error the server answered (or the SDK raised as one); undefined for anything else. */
export function rpcCodeOf(error: unknown): number | undefined {
  return error instanceof McpError ? error.code : undefined;
}

/** A request failed because the HTTP server is gone or no longer knows the session (not an answer it gave). */
export function isSessionLost(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  return error instanceof TypeError && error.message === 'fetch failed';
}

/** A JSON-RPC error a connect failed with, wherever the SDK put it. */
export interface AnsweredError {
  code: number;
  message: string;
  data?: unknown;
  /** The HTTP status it came with, when it came as an HTTP error's body. */
  httpStatus?: number;
}

/** The JSON-RPC error inside an HTTP error's body (the SDK's transport puts the body in its message). */
function rpcErrorInBody(error: StreamableHTTPError): AnsweredError | undefined {
  const body = /Error POSTing to endpoint: (\{.*\})$/s.exec(error.message)?.[1];
  if (body === undefined) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: Partial<AnsweredError> };
    const rpc = parsed.error;
    return typeof rpc?.code === 'number' && typeof rpc.message === 'string'
      ? { code: rpc.code, message: rpc.message, data: rpc.data, ...(error.code === undefined ? {} : { httpStatus: error.code }) }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The JSON-RPC error a server answered a request with: thrown as such over stdio, carried in the
 * body of an HTTP error over Streamable HTTP. The message keeps the SDK's `MCP error N: ` prefix
 * when it had one.
 */
export function answeredError(error: unknown): AnsweredError | undefined {
  if (error instanceof McpError) return { code: error.code, message: error.message, data: error.data };
  // An HTTP error with no JSON-RPC body (a 502 from a proxy, a 404 for a lost session) was not an answer.
  if (error instanceof StreamableHTTPError) return rpcErrorInBody(error);
  return undefined;
}

/** The protocol version a server answered initialize with, when the client refused it for being one it does not speak. */
export function unspokenVersionAnswered(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  return /^Server's protocol version is not supported: (\S+)$/.exec(error.message)?.[1];
}
