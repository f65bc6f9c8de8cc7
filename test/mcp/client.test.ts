import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFollowingSignal } from '../../src/mcp/client.ts';

// A server that answers /ok at once and never answers /hang.
const server = createServer((req, res) => {
  if (req.url === '/ok') res.end('ok');
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('fetchFollowingSignal', () => {
  it('leaves no listener on the signal it is given, however many requests share it', async () => {
    const shared = new AbortController();
    for (let i = 0; i < 40; i += 1) {
      const res = await fetchFollowingSignal(`${base}/ok`, { signal: shared.signal });
      expect(await res.text()).toBe('ok');
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('still aborts a request in flight when that signal aborts', async () => {
    const shared = new AbortController();
    const pending = fetchFollowingSignal(`${base}/hang`, { signal: shared.signal });
    setTimeout(() => shared.abort(new Error('closed')), 50);
    await expect(pending).rejects.toThrow('closed');
  });

  it('passes a request without a signal through as it is', async () => {
    const res = await fetchFollowingSignal(`${base}/ok`, { method: 'GET' });
    expect(await res.text()).toBe('ok');
  });
});
