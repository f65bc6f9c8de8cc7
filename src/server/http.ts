// Streamable HTTP on node:http, in both MCP eras on one /mcp endpoint (as the gateway does,
// src/gateway/mcp/http.ts). The 2025 revisions: one McpServer per session over the workbench's
// shared state, an in-memory event store per session so a cut stream can resume. The 2026-07-28
// revision: no session, the SDK's per-request handler building a server for each request over
// the same state. The guard is in front of everything, and the dropReply fault can cut a
// response mid-call in either era. `protocol` serves one era only (`ladder serve --protocol`).
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Protocol } from '../mcp/protocols.ts';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '../mcp/server.ts';
import type { McpHttpHandler } from '../mcp/server.ts';
import type { RequestId } from '../mcp/types.ts';
import { MemoryEventStore } from './eventStore.ts';
import { checkBind, makeGuard } from './httpGuard.ts';
import type { ToolExtra } from './tool.ts';
import { served, webRequest } from './webHttp.ts';
import type { Workbench } from './workbench.ts';

/** The SDK transport's own default bound on a request body. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Sessions alive at once; a client that opens more is leaking them. */
const MAX_SESSIONS = 64;
/** How soon a client should reconnect after a cut stream, in workbench milliseconds. */
const RETRY_AFTER_MS = 1_000;

export interface HttpServeOptions {
  workbench: Workbench;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string | undefined;
  allowRemote?: boolean;
  /** Keep an event store so cut streams can resume; default true. */
  resumable?: boolean;
  /** `auto` (default) serves both eras; `legacy` the 2025 revisions only; `2026-07-28` that one only. */
  protocol?: Protocol;
  log?: (line: string) => void;
}

export interface HttpServing extends AsyncDisposable {
  url: string;
  port: number;
  close(): Promise<void>;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  close(): Promise<void>;
}

export async function serveHttp(options: HttpServeOptions): Promise<HttpServing> {
  const { workbench, host = '127.0.0.1', port = 0, token, allowRemote = false, resumable = true, protocol = 'auto' } = options;
  const log = options.log ?? workbench.state.log;
  checkBind(host, allowRemote, token);
  const sessions = new Map<string, Session>();
  /** Open POST responses by session and JSON-RPC id: what dropReply cuts. */
  const inFlight = new Map<string, { res: ServerResponse; started: Promise<void> }>();
  const key = (sessionId: string | undefined, id: RequestId) => `${sessionId ?? ''}\u0000${String(id)}`;

  const dropReply = async (extra: ToolExtra): Promise<void> => {
    const flight = inFlight.get(key(extra.sessionId, extra.mcpReq.id));
    if (!flight || flight.res.destroyed) return;
    const closed = new Promise<void>((resolve) => flight.res.once('close', () => resolve()));
    // Cut a stream that has started, so the client sees a stream die, not a refused request.
    await Promise.race([flight.started, closed]);
    flight.res.destroy();
    await closed;
    log(`http: cut the response to request ${String(extra.mcpReq.id)} (dropReply fault)`);
  };

  const modern = protocol === 'legacy' ? undefined : modernHandler(workbench, dropReply);

  const openSession = async (): Promise<Session> => {
    const server = workbench.newServer({ dropReply });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      ...(resumable ? { eventStore: new MemoryEventStore() } : {}),
      retryInterval: Math.max(10, Math.round(workbench.state.time.toReal(RETRY_AFTER_MS))),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
        log(`http: session ${id} opened`);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        log(`http: session ${id} closed`);
      },
    });
    const session: Session = { transport, close: () => server.close() };
    await server.connect(transport);
    return session;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://workbench').pathname;
    if (path !== '/mcp') return reply(res, 404, `Not found: the MCP endpoint is /mcp`);
    const refusal = guard.check(req);
    if (refusal) return reply(res, refusal.status, refusal.message, refusal.headers);
    const sessionId = header(req, 'mcp-session-id');
    if (req.method === 'POST') {
      const body = await readJson(req, res);
      if (body === undefined) return;
      if (sessionId === undefined) {
        const initialize = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
        // 2026-07-28 only: the SDK's handler answers everything, refusing initialize with the revisions it serves.
        if (protocol === '2026-07-28' && modern !== undefined) return answerModern(modern, req, res, body);
        if (!initialize && modern !== undefined) {
          const request = webRequest(req, res, body);
          if (!(await isLegacyRequest(request, body))) return answerModern(modern, req, res, body);
        }
        if (!initialize) {
          const also = modern === undefined ? '' : ', or with server/discover for the 2026-07-28 revision';
          return reply(res, 400, `Bad Request: no Mcp-Session-Id; start with an initialize request${also}`);
        }
        if (sessions.size >= MAX_SESSIONS) return reply(res, 503, `Too many sessions (${MAX_SESSIONS}); close some first`);
        const session = await openSession();
        served(res, await session.transport.handleRequest(webRequest(req, res, body), { parsedBody: body }));
        // An initialize the transport refused opened no session: release its server now.
        if (session.transport.sessionId === undefined) await session.close();
        return;
      }
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, 'Session not found', undefined, -32001);
      for (const message of Array.isArray(body) ? body : [body]) track(message, sessionId, res);
      return served(res, await session.transport.handleRequest(webRequest(req, res, body), { parsedBody: body }));
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (sessionId === undefined) return reply(res, 400, 'Bad Request: Mcp-Session-Id header is required');
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, 'Session not found', undefined, -32001);
      return served(res, await session.transport.handleRequest(webRequest(req, res)));
    }
    return reply(res, 405, 'Method not allowed: use POST, GET or DELETE', { Allow: 'GET, POST, DELETE' });
  };

  /** A 2026-07-28 request: no session, so its calls are tracked by id alone for dropReply. */
  const answerModern = async (handler: McpHttpHandler, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    for (const message of Array.isArray(body) ? body : [body]) track(message, undefined, res);
    served(res, await handler.fetch(webRequest(req, res, body), { parsedBody: body }));
  };

  const track = (message: unknown, sessionId: string | undefined, res: ServerResponse): void => {
    if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message)) return;
    const k = key(sessionId, (message as { id: RequestId }).id);
    inFlight.set(k, { res, started: streamStarted(res, resumable) });
    res.once('close', () => {
      if (inFlight.get(k)?.res === res) inFlight.delete(k);
    });
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`http: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) reply(res, 500, 'Internal server error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const guard = makeGuard(host, bound, token);
  const shown = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${bound}/mcp`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await Promise.allSettled([...sessions.values()].map((session) => session.close()));
      sessions.clear();
      await modern?.close().catch(() => undefined);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    })();
    return closing;
  };
  return { url, port: bound, close, [Symbol.asyncDispose]: close };
}

/**
 * The 2026-07-28 handler over the workbench: a server per request over the shared state (the
 * SDK's factory), legacy requests not its to answer. A tool revealed later is announced to the
 * open `subscriptions/listen` streams when the workbench announces it to 2025 sessions.
 */
function modernHandler(workbench: Workbench, dropReply: (extra: ToolExtra) => Promise<void>): McpHttpHandler {
  const handler = createMcpHandler(() => workbench.newServer({ dropReply }), { legacy: 'reject' });
  const { reveal, config } = workbench.state;
  const unsubscribe = reveal.onReveal(() => {
    if (config.reveal.announce) handler.notify.toolsChanged();
  });
  const close = handler.close;
  return { ...handler, close: async () => { unsubscribe(); await close(); } };
}

/**
 * Resolves once the response stream is under way: its headers flushed and, with an event store,
 * its first event (the priming event that lets a client resume) written.
 */
function streamStarted(res: ServerResponse, waitForFirstEvent: boolean): Promise<void> {
  return new Promise((resolve) => {
    if (!waitForFirstEvent) {
      const flush = res.flushHeaders.bind(res);
      res.flushHeaders = () => {
        flush();
        resolve();
      };
      return;
    }
    // Resolve when the first event has reached the socket, not merely its buffer: a stream
    // destroyed with the priming event still buffered leaves the client nothing to resume from.
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    (res as unknown as { write: (...args: unknown[]) => boolean }).write = (...args) => {
      const done = typeof args.at(-1) === 'function' ? (args.pop() as (error?: Error | null) => void) : undefined;
      return write(...args, (error?: Error | null) => {
        resolve();
        done?.(error);
      });
    };
  });
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The parsed body, or undefined after answering a body that is too large or not JSON. */
export async function readJson(req: IncomingMessage, res: ServerResponse, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      // The rest of the body is never read: the connection closes after the answer, or a
      // keep-alive client would send its next request down a socket about to be reset.
      reply(res, 413, `Request body over ${maxBytes} bytes`, { Connection: 'close' });
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    reply(res, 400, 'Parse error: the body is not JSON', undefined, -32700);
    return undefined;
  }
}
