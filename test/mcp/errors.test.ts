// What an SDK error means, read from the SDK v2 client's own error classes: the words a model and
// a trace get (as the v1 line wrote them), the code a call is typed by, a lost HTTP session, and
// the revisions Ladder offers under each protocol setting.
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import {
  answeredError, describeError, isRequestTimeout, isSessionLost, LEGACY_REVISIONS, pinnedRevisionRefused, probeAnsweredBadly, refusedAsModern,
  revisionsOf, rpcCodeOf,
} from '../../src/mcp/errors.ts';

const timeout = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out');
const closed = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');

describe('describeError', () => {
  it('puts the JSON-RPC code before a server\'s error, a timeout\'s and a closed connection\'s, as the v1 SDK did', () => {
    expect(describeError(new ProtocolError(-32602, 'Tool nope not found'))).toBe('MCP error -32602: Tool nope not found');
    expect(describeError(timeout)).toBe('MCP error -32001: Request timed out');
    expect(describeError(closed)).toBe('MCP error -32000: Connection closed');
  });

  it('leaves a message that has its code already, any other error, and a non-error as they are', () => {
    expect(describeError(new ProtocolError(-32603, 'MCP error -32603: x'))).toBe('MCP error -32603: x');
    expect(describeError(new SdkError(SdkErrorCode.SendFailed, 'Failed to send'))).toBe('Failed to send');
    expect(describeError(new TypeError('fetch failed'))).toBe('fetch failed');
    expect(describeError('closed')).toBe('closed');
  });
});

describe('rpcCodeOf and isRequestTimeout', () => {
  it('give a server\'s code, the v1 codes of a timeout and a closed connection, and nothing for the rest', () => {
    expect(rpcCodeOf(new ProtocolError(-32602, 'x'))).toBe(-32602);
    expect(rpcCodeOf(timeout)).toBe(-32001);
    expect(rpcCodeOf(closed)).toBe(-32000);
    expect(rpcCodeOf(new SdkError(SdkErrorCode.SendFailed, 'x'))).toBeUndefined();
    expect(rpcCodeOf(new Error('x'))).toBeUndefined();
    expect(isRequestTimeout(timeout)).toBe(true);
    expect(isRequestTimeout(closed)).toBe(false);
    expect(isRequestTimeout(new ProtocolError(-32001, 'Request timed out'))).toBe(false);
  });
});

describe('isSessionLost', () => {
  it('is a 404 for the session, or fetch failing anywhere down the causes; not another status, not an answer', () => {
    expect(isSessionLost(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Session not found', { status: 404 }))).toBe(true);
    expect(isSessionLost(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Bad gateway', { status: 502 }))).toBe(false);
    expect(isSessionLost(new TypeError('fetch failed'))).toBe(true);
    expect(isSessionLost(new SdkError(SdkErrorCode.SendFailed, 'send failed', undefined, { cause: new TypeError('fetch failed') }))).toBe(true);
    expect(isSessionLost(new TypeError('other'))).toBe(false);
    expect(isSessionLost(new ProtocolError(-32603, 'fetch failed'))).toBe(false);
  });
});

describe('answeredError', () => {
  it('reads a server\'s error with its data, and one in an HTTP error\'s body with its status; not an HTTP error without one', () => {
    expect(answeredError(new ProtocolError(-32022, 'Unsupported protocol version', { supported: ['2026-07-28'] })))
      .toEqual({ code: -32022, message: 'MCP error -32022: Unsupported protocol version', data: { supported: ['2026-07-28'] } });
    const text = '{"jsonrpc":"2.0","id":0,"error":{"code":-32600,"message":"Bad Request: no session"}}';
    expect(answeredError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, { status: 400, text })))
      .toEqual({ code: -32600, message: 'MCP error -32600: Bad Request: no session', data: undefined, httpStatus: 400 });
    expect(answeredError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Error POSTing to endpoint: Bad Gateway', { status: 502, text: 'Bad Gateway' }))).toBeUndefined();
    expect(answeredError(timeout)).toBeUndefined();
  });
});

describe('revisions', () => {
  it('offers 2026-07-28 and the 2025 ones under auto, the 2025 ones under legacy, and 2026-07-28 alone pinned', () => {
    expect(LEGACY_REVISIONS[0]).toBe('2025-11-25');
    expect(revisionsOf('auto')).toEqual(['2026-07-28', ...LEGACY_REVISIONS]);
    expect(revisionsOf('legacy')).toEqual(LEGACY_REVISIONS);
    expect(revisionsOf('2026-07-28')).toEqual(['2026-07-28']);
  });

  it('reads a pinned revision the server did not offer, and only that, as refused', () => {
    const pinned = 'Version negotiation failed: the server did not offer pinned protocol version 2026-07-28 via server/discover (no fallback in pin mode)';
    expect(pinnedRevisionRefused(new SdkError(SdkErrorCode.EraNegotiationFailed, pinned))).toBe(true);
    expect(pinnedRevisionRefused(new SdkError(SdkErrorCode.EraNegotiationFailed, 'Version negotiation probe failed: fetch failed'))).toBe(false);
    expect(pinnedRevisionRefused(new Error(pinned))).toBe(false);
  });
});

describe('probeAnsweredBadly and refusedAsModern', () => {
  const failed = (message: string) => new SdkError(SdkErrorCode.EraNegotiationFailed, message);
  const http = (status: number) => new SdkHttpError(SdkErrorCode.EraNegotiationFailed, `Version negotiation failed: the server answered the probe with HTTP ${status}`, { status });

  it('reads a probe answered with a 5xx or an unusable reply as answered badly; not an outage, a 4xx, a pinned refusal or another error', () => {
    expect(probeAnsweredBadly(http(500))).toBe(true);
    expect(probeAnsweredBadly(http(503))).toBe(true);
    expect(probeAnsweredBadly(failed('Version negotiation probe failed: the server answered with an unusable reply (id: null)'))).toBe(true);
    expect(probeAnsweredBadly(http(499))).toBe(false);
    expect(probeAnsweredBadly(failed('Version negotiation probe failed: fetch failed'))).toBe(false);
    expect(probeAnsweredBadly(failed('Version negotiation failed: the server did not offer pinned protocol version 2026-07-28 via server/discover'))).toBe(false);
    expect(probeAnsweredBadly(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Error POSTing to endpoint', { status: 500 }))).toBe(false);
    expect(probeAnsweredBadly(new Error('the server answered with an unusable reply'))).toBe(false);
  });

  it('reads -32022 to initialize, thrown or in an HTTP body, as a modern server\'s refusal; no other code', () => {
    expect(refusedAsModern(new ProtocolError(-32022, 'Unsupported protocol version'))).toBe(true);
    const text = '{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version"}}';
    expect(refusedAsModern(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, { status: 400, text }))).toBe(true);
    expect(refusedAsModern(new ProtocolError(-32603, 'Error in httpTransport: '))).toBe(false);
    expect(refusedAsModern(timeout)).toBe(false);
  });
});
