// Which 2026-07-28 requests the gateway hands on with a signal: the listen streams, which the SDK
// ends by it when their client goes, and nothing else.
import { describe, expect, it } from 'vitest';
import { opensListen } from '../../src/gateway/mcp/http.ts';

describe('opensListen', () => {
  it('is true for a subscriptions/listen request, alone or in a batch', () => {
    expect(opensListen({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: {} })).toBe(true);
    expect(opensListen([{ jsonrpc: '2.0', method: 'notifications/cancelled' }, { jsonrpc: '2.0', id: 2, method: 'subscriptions/listen' }])).toBe(true);
  });

  it('is false for a tool call, a listing, a discovery, and what is not a request', () => {
    for (const method of ['tools/call', 'tools/list', 'server/discover']) expect(opensListen({ jsonrpc: '2.0', id: 1, method })).toBe(false);
    expect(opensListen(null)).toBe(false);
    expect(opensListen([])).toBe(false);
    expect(opensListen('subscriptions/listen')).toBe(false);
  });
});
