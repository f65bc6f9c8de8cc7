// The MCP SDK's Streamable HTTP client, with a fetch that keeps its abort signal clean.
//
// The SDK hands every request the same signal (the transport's own, for close). Node's fetch
// (undici) puts an abort listener on that signal per request and takes it off only when the
// request object is garbage-collected, so a busy long-lived client (the gateway in front of an
// HTTP server, the bridge, a soak's client) holds thousands of listeners between collections
// and prints a MaxListenersExceededWarning for each past 1,500. `AbortSignal.any([signal])`
// gives each request a signal of its own that follows the transport's without a listener on
// it (the link is a weak reference), so close still aborts every request in flight.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** fetch with the request's signal replaced by one that follows it. */
export const fetchFollowingSignal: typeof fetch = (input, init) =>
  fetch(input, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);

export function httpClientTransport(url: string | URL, headers: Record<string, string> = {}): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch: fetchFollowingSignal });
}
