// The MCP gateway over Streamable HTTP: one SDK server per client session, all over the same
// backend, behind the same guard as `ladder serve` (Host and Origin checked against the bound
// address; a bearer token on every request when one is set; a non-loopback bind refused
// without one). Agents in a run get a token per pass; `ladder gateway` may run without one on
// loopback.
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestId, Server } from '../../mcp/types.ts';
import { isInitializeRequest, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '../../mcp/server.ts';
import type { McpHttpHandler } from '../../mcp/server.ts';
import { header, readJson, reply } from '../../server/http.ts';
import { checkBind, makeGuard } from '../../server/httpGuard.ts';
import { served, webRequest } from '../../server/webHttp.ts';

/** Sessions alive at once: a run's agent opens one per process; more is a client leaking them. */
const MAX_SESSIONS = 64;
/**
 * How long a session with nothing open (no request in flight, no GET stream) is kept before it
 * is ended: 10 minutes, ten times the turn policy's default idle gap. A client that leaves
 * without the DELETE the spec asks for (the SDK's v2 client's close() sends none; a killed
 * process sends nothing) would otherwise hold its session, and a slot of MAX_SESSIONS, for the
 * gateway's life. A live SDK client holds its GET stream open, so it is never idle; one that
 * comes back later gets 404, and the spec says it MUST then start a new session.
 */
export const SESSION_IDLE_MS = 10 * 60_000;
/**
 * How long a POST's answer waits for its first event before its headers go out alone (webHttp's
 * served): a tool that answers sooner costs one write, not two; a slower one's client still
 * sees its stream open well within any client's wait for headers.
 */
export const POST_HEADERS_WITHIN_MS = 20;
const POST_ANSWER = { headersWithinMs: POST_HEADERS_WITHIN_MS };
/** A tools/call body: arguments of a few MB at most (the SDK transport's own bound is 4 MB). */
export const GATEWAY_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface GatewayHttpOptions {
  /** A new MCP server for each session (the 2025 revisions). */
  newServer: () => Server;
  /** Serves the 2026-07-28 revision on the same endpoint: requests with no session that are not 2025 ones (modern.ts). */
  modern?: McpHttpHandler;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  token?: string;
  allowRemote?: boolean;
  maxBodyBytes?: number;
  /** A session with nothing open this long is ended (SESSION_IDLE_MS by default); 0 keeps sessions until DELETE. */
  sessionIdleMs?: number;
  /** Other GET paths (`/status`): the handler answers, or returns false for a 404. */
  extraGet?: (path: string, res: ServerResponse) => boolean;
  log?: (line: string) => void;
}

export interface GatewayHttp extends AsyncDisposable {
  /** http://127.0.0.1:<port>/mcp */
  readonly url: string;
  readonly port: number;
  /** Sessions open now. */
  sessions(): number;
  close(): Promise<void>;
}

/**
 * The request ids a POST cancels (`notifications/cancelled`, alone or in a batch). The SDK sends
 * no response for a cancelled request, as the spec asks, so the SSE stream opened for that
 * request's POST would wait for one for the session's life: with a client that gives up without
 * aborting its fetch (the SDK's own clients on a request timeout), its connection and response
 * stay open. The soak measured it (docs/gateway.md, "Memory over a long soak"): one socket held
 * per call the client gave up on. So once the cancellation is passed on, that stream is closed;
 * the client has said it wants nothing more from it.
 */
export function cancelledRequestIds(body: unknown): RequestId[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const m = message as { method?: unknown; params?: { requestId?: unknown } } | null;
    const id = m?.method === 'notifications/cancelled' ? m.params?.requestId : undefined;
    return typeof id === 'string' || typeof id === 'number' ? [id] : [];
  });
}

/**
 * Whether a 2026-07-28 POST opens a `subscriptions/listen` stream: the one request whose web
 * request's signal the SDK's per-request handler reads (it ends the stream when the client goes).
 * Any other request is handed on without a signal, which cost each call 10 to 20 us (webHttp.ts).
 */
export function opensListen(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((message) => (message as { method?: unknown } | null)?.method === 'subscriptions/listen');
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** HTTP requests of this session not yet answered, GET streams included. */
  open: number;
  /** Ends the session when it fires: armed while nothing is open. */
  idle?: NodeJS.Timeout;
}

export async function serveGatewayHttp(options: GatewayHttpOptions): Promise<GatewayHttp> {
  const { host = '127.0.0.1', port = 0, token, allowRemote = false } = options;
  const maxBodyBytes = options.maxBodyBytes ?? GATEWAY_MAX_BODY_BYTES;
  const log = options.log ?? (() => undefined);
  checkBind(host, allowRemote, token);
  const idleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;
  if (!Number.isFinite(idleMs) || idleMs < 0) throw new RangeError(`sessionIdleMs must be 0 or more, got ${idleMs}`);
  const sessions = new Map<string, Session>();

  /** A session whose client has gone quiet with nothing open is ended, as a DELETE would. */
  const expire = (id: string, session: Session): void => {
    if (sessions.get(id) !== session || session.open > 0) return;
    sessions.delete(id);
    log(`gateway: session ${id} ended after ${idleMs / 1000} s with nothing open (its client left without DELETE)`);
    void session.server.close().catch(() => undefined);
  };
  /** Counts one request of the session until its response is done (or its connection gone). */
  const track = (session: Session, res: ServerResponse): void => {
    session.open += 1;
    clearTimeout(session.idle);
    res.once('close', () => {
      session.open -= 1;
      const id = session.transport.sessionId;
      if (session.open > 0 || idleMs === 0 || id === undefined || sessions.get(id) !== session) return;
      clearTimeout(session.idle);
      session.idle = setTimeout(() => expire(id, session), idleMs).unref();
    });
  };

  const openSession = async (): Promise<Session> => {
    const server = options.newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
        log(`gateway: session ${id} opened`);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        clearTimeout(session.idle);
        log(`gateway: session ${id} closed`);
      },
    });
    const session: Session = { transport, server, open: 0 };
    await server.connect(transport);
    return session;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://gateway').pathname;
    const refusal = guard.check(req);
    if (refusal) return reply(res, refusal.status, refusal.message, refusal.headers);
    if (path !== '/mcp') {
      if (req.method === 'GET' && options.extraGet?.(path, res) === true) return;
      return reply(res, 404, `Not found: the MCP endpoint is /mcp`);
    }
    const sessionId = header(req, 'mcp-session-id');
    if (req.method === 'POST') {
      const body = await readJson(req, res, maxBodyBytes);
      if (body === undefined) return;
      if (sessionId === undefined) {
        const initialize = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
        if (!initialize && options.modern !== undefined) {
          const request = webRequest(req, res, body, { signal: opensListen(body) });
          if (!(await isLegacyRequest(request, body))) return served(res, await options.modern.fetch(request, { parsedBody: body }), POST_ANSWER);
        }
        if (!initialize) {
          const modern = options.modern === undefined ? '' : ', or with server/discover for the 2026-07-28 revision';
          return reply(res, 400, `Bad Request: no Mcp-Session-Id; start with an initialize request${modern}`);
        }
        if (sessions.size >= MAX_SESSIONS) return reply(res, 503, `Too many sessions (${MAX_SESSIONS}); close some first`);
        const session = await openSession();
        track(session, res);
        await served(res, await session.transport.handleRequest(webRequest(req, res, body), { parsedBody: body }), POST_ANSWER);
        if (session.transport.sessionId === undefined) await session.server.close();
        return;
      }
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, 'Session not found', undefined, -32001);
      track(session, res);
      // A session's transport never reads the request's signal (webHttp.ts): none is made.
      await served(res, await session.transport.handleRequest(webRequest(req, res, body, { signal: false }), { parsedBody: body }), POST_ANSWER);
      for (const id of cancelledRequestIds(body)) session.transport.closeSSEStream(id);
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (sessionId === undefined) return reply(res, 400, 'Bad Request: Mcp-Session-Id header is required');
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, 'Session not found', undefined, -32001);
      track(session, res);
      return served(res, await session.transport.handleRequest(webRequest(req, res)));
    }
    return reply(res, 405, 'Method not allowed: use POST, GET or DELETE', { Allow: 'GET, POST, DELETE' });
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`gateway: ${(error as Error).stack ?? String(error)}`);
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

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      for (const session of sessions.values()) clearTimeout(session.idle);
      await Promise.allSettled([...sessions.values()].map((session) => session.server.close()));
      sessions.clear();
      await options.modern?.close().catch(() => undefined);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    })();
    return closing;
  };
  return { url: `http://${shown}:${bound}/mcp`, port: bound, sessions: () => sessions.size, close, [Symbol.asyncDispose]: close };
}
