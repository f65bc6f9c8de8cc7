import { describe, expect, it } from 'vitest';
import { callContext, networkFailure } from '../../src/models/call.ts';

/** An error shaped like Node's fetch reports it: a TypeError whose cause carries the code. */
function fetchError(code: string, message = 'fetch failed'): Error {
  return new TypeError(message, { cause: Object.assign(new Error(code.toLowerCase()), { code }) });
}

describe('networkFailure', () => {
  it.each([
    ['ECONNREFUSED', 'connection', 'connection refused'],
    ['ECONNRESET', 'connection', 'connection reset'],
    ['UND_ERR_SOCKET', 'connection', 'connection dropped'],
    ['ENOTFOUND', 'connection', 'host not found'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout', 'connect timed out'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout', 'no response headers in time'],
  ])('reads %s in the cause as %s: %s', (code, kind, detail) => {
    expect(networkFailure(fetchError(code))).toMatchObject({ kind, detail });
  });

  it('says mid-response when the body was cut off', () => {
    expect(networkFailure(fetchError('UND_ERR_SOCKET', 'terminated'))).toMatchObject({ kind: 'connection', detail: 'connection dropped mid-response' });
  });

  it('calls a body that is not JSON a server fault', () => {
    expect(networkFailure(new SyntaxError('Unexpected token < in JSON'))).toMatchObject({
      kind: 'server',
      detail: 'malformed response body (Unexpected token < in JSON)',
    });
  });

  it('finds nothing in an error that is not a network failure', () => {
    expect(networkFailure(new TypeError('x is not a function'))).toBeUndefined();
    expect(networkFailure('a string')).toBeUndefined();
  });
});

describe('callContext', () => {
  const hint = () => undefined;

  it('takes a one-millisecond attempt deadline and refuses zero or less', () => {
    expect(callContext('m', { timeoutMs: 1 }, hint).timeoutMs).toBe(1);
    expect(() => callContext('m', { timeoutMs: 0 }, hint)).toThrow(new RangeError('timeoutMs must be > 0, got 0'));
    expect(() => callContext('m', { timeoutMs: -5 }, hint)).toThrow(RangeError);
  });

  it('defaults the attempt deadline to three minutes', () => {
    expect(callContext('m', {}, hint).timeoutMs).toBe(180_000);
  });
});
