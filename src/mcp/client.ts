// The SDK's client side, built the way Ladder needs it: a client that reports every
// notification, a stdio transport that remembers the process it spawned, a Streamable HTTP
// transport whose requests each get a signal of their own, and the shim that hands a response
// over after the notifications read before it. Policy (timeouts, what a failed start says, when
// to connect again) stays with the callers: src/lane/connections.ts, src/runner/started.ts,
// src/gateway/bridge.ts.
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Implementation, Notification } from '@modelcontextprotocol/sdk/types.js';
import { ToolListChangedNotificationSchema, isJSONRPCErrorResponse, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';

/** The environment a stdio server gets by default: the SDK's safe subset of this process's (PATH, HOME, ...). */
export { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface ClientHandlers {
  /** notifications/tools/list_changed */
  toolsChanged?: () => void;
  /** Every other notification the server sends (resources/updated, resources and prompts list_changed, ...). */
  notification?: (notification: Notification) => void;
}

/** A client that declares no capabilities of its own and reports the notifications it is sent. */
export function newClient(info: Implementation, handlers: ClientHandlers = {}): Client {
  const client = new Client(info, { capabilities: {} });
  const { toolsChanged, notification } = handlers;
  if (toolsChanged !== undefined) client.setNotificationHandler(ToolListChangedNotificationSchema, () => toolsChanged());
  if (notification !== undefined) client.fallbackNotificationHandler = async (n) => notification(n);
  return client;
}

export interface StdioTarget {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/**
 * Remembers the pid of the process it spawns. When `initialize` fails, the SDK's client closes
 * its transport on its own and forgets the process at once, then waits 2 s for it to exit
 * before it sends SIGTERM, without anyone awaiting it: a hung server could outlive a parent
 * that exits in those seconds. The pid kept here lets the lane stop it without waiting.
 */
class SpawnedStdioTransport extends StdioClientTransport {
  spawned: number | undefined;

  override async start(): Promise<void> {
    await super.start();
    this.spawned = this.pid ?? undefined;
  }
}

export interface StdioClientTransportHandle {
  transport: Transport;
  /** The server's stderr, piped: read it from the start, or a chatty server blocks on a full pipe. */
  stderr: Readable | null;
  /** The pid of the process once it has been spawned, and after the SDK has forgotten it. */
  spawned: () => number | undefined;
}

export function stdioClientTransport(target: StdioTarget): StdioClientTransportHandle {
  const transport = new SpawnedStdioTransport({
    command: target.command,
    args: target.args,
    ...(target.env === undefined ? {} : { env: target.env }),
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    stderr: 'pipe',
  });
  return { transport, stderr: transport.stderr as Readable | null, spawned: () => transport.spawned };
}

// The SDK hands every request the same signal (the transport's own, for close). Node's fetch
// (undici) puts an abort listener on that signal per request and takes it off only when the
// request object is garbage-collected, so a busy long-lived client (the gateway in front of an
// HTTP server, the bridge, a soak's client) holds thousands of listeners between collections
// and prints a MaxListenersExceededWarning for each past 1,500. `AbortSignal.any([signal])`
// gives each request a signal of its own that follows the transport's without a listener on
// it (the link is a weak reference), so close still aborts every request in flight.

/** fetch with the request's signal replaced by one that follows it. */
export const fetchFollowingSignal: typeof fetch = (input, init) =>
  fetch(input, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);

export interface HttpClientTransport extends Transport {
  /** Ends the 2025 session with a DELETE, as the specification asks of a client that leaves. */
  terminateSession(): Promise<void>;
}

/** The SDK's Streamable HTTP client transport, with a fetch that keeps its abort signal clean. */
export function httpClientTransport(url: string | URL, headers: Record<string, string> = {}): HttpClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch: fetchFollowingSignal });
}

/**
 * Hands a response to the client one microtask later than it arrived. The SDK runs a
 * notification's handler a microtask after it arrives, but a response at once, and the response
 * removes its request's progress handler: a server's last progress notifications, read in the
 * same chunk as the answer (a fast tool's always are), were dropped as "unknown token" and
 * never reached the lane's onProgress (the SDK's open issue 2580). Deferred by one microtask,
 * the response is handled after every notification read before it, in the order they came.
 * Called once the client is connected, when the transport's onmessage is the client's.
 */
export function deliverNotificationsFirst(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) queueMicrotask(() => deliver(message, extra));
    else deliver(message, extra);
  };
}
