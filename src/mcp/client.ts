// The SDK's client side (its v2 line, both MCP eras), built the way Ladder needs it: a client
// that negotiates the revision a protocol setting asks for and reports every notification, a
// stdio transport that remembers the process it spawned, a Streamable HTTP transport whose
// requests each get a signal of their own, a connect bounded as a whole, and the shim that hands
// a response over after the notifications read before it. Policy (timeouts, what a failed start
// says, when to connect again) stays with the callers: src/lane/connections.ts,
// src/runner/started.ts, src/gateway/bridge.ts.
import type { Readable } from 'node:stream';
import {
  Client, isJSONRPCErrorResponse, isJSONRPCResultResponse, SdkError, SdkErrorCode, StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { CallToolResult, Implementation, ListToolsResult, Notification, RequestOptions, Tool, Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { probeAnsweredBadly, refusedAsModern } from './errors.ts';
import { DEFAULT_PROTOCOL, MODERN_REVISION } from './protocols.ts';
import type { Protocol } from './protocols.ts';

/** The environment a stdio server gets by default: the SDK's safe subset of this process's (PATH, HOME, ...). */
export { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

/** A server's request for input from the user, as it asked. */
export interface ElicitationAsked {
  message: string;
  /** The form's JSON Schema (form mode). */
  requestedSchema?: unknown;
}

/** The answer to one: the content (flat values, as a form holds) goes with `accept`. */
export interface ElicitationAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

export interface ClientHandlers {
  /** notifications/tools/list_changed */
  toolsChanged?: () => void;
  /** Every other notification the server sends (resources/updated, resources and prompts list_changed, ...). */
  notification?: (notification: Notification) => void;
  /**
   * A server's request for input, in either era: an `elicitation/create` request in 2025, the
   * same request embedded in an `input_required` result in 2026-07-28 (the SDK answers both
   * through this one handler, and retries the call with the answer). Given, the client declares
   * form-mode elicitation; without it, none, and a server cannot ask.
   */
  elicit?: (asked: ElicitationAsked) => Promise<ElicitationAnswer>;
}

/**
 * A client that declares no capabilities of its own (but elicitation when it can answer it),
 * speaks the revisions `protocol` allows, and reports the notifications it is sent. `auto` asks `server/discover` first and falls back to the
 * 2025 handshake on a definite legacy answer (the SDK's own negotiation).
 */
export function newClient(info: Implementation, handlers: ClientHandlers = {}, protocol: Protocol = DEFAULT_PROTOCOL): Client {
  const mode = protocol === MODERN_REVISION ? { pin: MODERN_REVISION } : protocol;
  const { toolsChanged, notification, elicit } = handlers;
  const capabilities = elicit === undefined ? {} : { elicitation: { form: {} } };
  // A 2026-07-28 server has no session to notify: a client hears of a changed tool list on a
  // `subscriptions/listen` stream, which the SDK opens at connect for the lists it is told to
  // follow (when the server declares tools.listChanged). In the 2025 revisions the same option
  // handles the notification; the handler below also takes one from a server that sends it
  // without declaring the capability. No debounce: the lane marks the list stale, nothing more.
  const listChanged = toolsChanged === undefined ? {} : { listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => toolsChanged() } } };
  const client = new Client(info, { capabilities, versionNegotiation: { mode }, ...listChanged });
  if (elicit !== undefined) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const { params } = request;
      // A URL to visit is a user's errand; the harness has none to run, so it declines.
      if (params.mode === 'url') return { action: 'decline' };
      const { action, content } = await elicit({ message: params.message, requestedSchema: params.requestedSchema });
      return content === undefined ? { action } : { action, content };
    });
  }
  if (toolsChanged !== undefined) client.setNotificationHandler('notifications/tools/list_changed', () => toolsChanged());
  if (notification !== undefined) client.fallbackNotificationHandler = async (n) => notification(n);
  return client;
}

/** The revision a connected client and its server agreed on (`2026-07-28`, `2025-11-25`, ...). */
export function negotiated(client: Client): string | undefined {
  return client.getNegotiatedProtocolVersion();
}

/**
 * Connects, bounded as a whole by `timeoutMs` and by `signal`. The SDK gives each request of a
 * connect (the probe, then perhaps `initialize`) the full timeout and does not hand the signal to
 * the probe, so a connect to a silent HTTP server could take twice the timeout and ignore Ctrl-C.
 * Past the bound this returns at once with the bound's error (a timeout, or the signal's reason);
 * the caller closes the client, which closes the transport under the connect still running (a
 * stdio caller stops the process first: the transport's own close gives a hung one 2 s).
 */
export async function connectClient(client: Client, transport: Transport, timeoutMs: number, signal?: AbortSignal,
  era: { legacy?: boolean } = {}): Promise<void> {
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs })), timeoutMs);
  const onAbort = () => bound.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const stopped = new Promise<never>((_, reject) => {
    bound.signal.addEventListener('abort', () => reject(bound.signal.reason), { once: true });
  });
  stopped.catch(() => undefined);
  try {
    if (signal?.aborted === true) throw signal.reason;
    // `prior: legacy` skips the probe: the 2025 handshake alone, whatever the client's setting.
    const prior = era.legacy === true ? { prior: { kind: 'legacy' as const } } : {};
    await Promise.race([client.connect(transport, { timeout: timeoutMs, signal: bound.signal, ...prior }), stopped]);
  } catch (error) {
    throw bound.signal.aborted ? bound.signal.reason : error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * One page of the server's tools, as the server sent it (with `nextCursor`, `ttlMs`,
 * `cacheScope` where it sets them). The SDK's listTools() without a cursor walks every page and
 * keeps the result in its own cache; the lane pages and caches for itself, and records each page.
 */
export function listToolsPage(client: Client, cursor: string | undefined, options: RequestOptions | undefined): Promise<ListToolsResult> {
  return client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, options);
}

/** A call's request options: the deadline's, and the tool's definition as callTool hands it to the SDK. */
export type CallOptions = RequestOptions & { toolDefinition?: Tool };

/**
 * Calls a tool. `options.toolDefinition`, from the caller's own listing (see callDefinition),
 * is what the SDK validates structured output against and reads declared parameters from to
 * mirror into headers (over HTTP in the 2026 era), without a `tools/list` of its own.
 */
export function callTool(client: Client, name: string, args: Record<string, unknown>, options: CallOptions | undefined): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args }, options);
}

/** The SDK's name for a parameter to mirror into a header (SEP-2243). */
const HEADER_DECLARATION = 'x-mcp-header';

/** Whether a schema declares a parameter to mirror anywhere in it (where the SDK would accept it or not). */
function declaresHeaders(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (!Array.isArray(node) && HEADER_DECLARATION in node) return true;
  return Object.values(node).some(declaresHeaders);
}

const definitions = new WeakMap<Tool, Tool>();

/**
 * The definition to hand the SDK with every call of a tool, made once per listed definition.
 * In the 2026 era the SDK walks the input schema of the definition it is given on every call,
 * looking for parameters to mirror into headers; a tool that declares none gets a definition
 * whose input schema has nothing to walk. The output schema is the listed object itself, so
 * the SDK's validator (compiled per call, but cached by the schema object) is compiled once.
 */
export function callDefinition(tool: Tool): Tool {
  let made = definitions.get(tool);
  if (made === undefined) {
    made = declaresHeaders(tool.inputSchema) ? tool : { ...tool, inputSchema: { type: 'object' } };
    definitions.set(tool, made);
  }
  return made;
}

export interface StdioTarget {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/**
 * Remembers the pid of the process it spawns. When a connect fails, the SDK's client closes its
 * transport on its own and forgets the process at once, then waits 2 s for it to exit before it
 * sends SIGTERM, without anyone awaiting it: a hung server could outlive a parent that exits in
 * those seconds. The pid kept here lets the lane stop it without waiting.
 *
 * Being a subclass also decides how `auto` probes: in place, on this process's own pipes (the
 * SDK probes the base class on a second, short-lived process, one more spawn per connect). A
 * 2025 server answers the unknown `server/discover` with an error and then takes `initialize`.
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
 * Connects over Streamable HTTP, bounded as a whole as connectClient is, and resolves to the
 * transport the client ended up connected over.
 *
 * Under `auto` this goes one step past the specification, on purpose. The 2026-07-28 revision
 * (basic/transports/streamable-http, "Backward Compatibility") has a client fall back to the
 * 2025 handshake when its first modern request gets a 4xx without a modern error in the body,
 * and the SDK reads a 5xx as an outage. But 2025 servers in use answer the session-less
 * `server/discover` with a 500: the git server of rungs/git-over-http.yaml fails its own session
 * check and says `-32603 Error in httpTransport`, on every try. So a probe that an HTTP server
 * answered badly (a 5xx, or a reply the SDK cannot use) is followed by the 2025 handshake on a
 * fresh transport, and that answer decides: a server that takes `initialize` is a 2025 server;
 * one that refuses it as a modern server would (-32022) had a real failure, and the probe's error
 * stands. Pinned and `legacy` clients never probe twice.
 */
export async function connectHttpClient(client: Client, url: string | URL, headers: Record<string, string>, timeoutMs: number,
  signal: AbortSignal | undefined, protocol: Protocol): Promise<HttpClientTransport> {
  const startedAt = performance.now();
  const probed = httpClientTransport(url, headers);
  try {
    await connectClient(client, probed, timeoutMs, signal);
    return probed;
  } catch (error) {
    if (protocol !== 'auto' || !probeAnsweredBadly(error)) throw error;
    const legacy = httpClientTransport(url, headers);
    try {
      await connectClient(client, legacy, Math.max(1, timeoutMs - (performance.now() - startedAt)), signal, { legacy: true });
      return legacy;
    } catch (again) {
      throw refusedAsModern(again) ? error : again;
    }
  }
}

/**
 * Closes a client. Over HTTP in the 2025 era the session is ended with a DELETE first: the v2
 * client's close() sends none, and a server would hold the session until it expires. The 2026
 * era has no session to end.
 */
export async function closeClient(client: Client, transport: Transport): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    await transport.terminateSession().catch(() => undefined);
  }
  await client.close();
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
