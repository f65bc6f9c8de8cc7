// The MCP server a matrix scenario puts an agent in front of: Streamable HTTP on 127.0.0.1 at
// /mcp, in both eras on one endpoint as a server author's v2 server is (a 2025 session per
// `initialize`; the 2026-07-28 revision without one), or in one era only. Its tools are the
// scenario's, with their JSON Schemas and results exactly as the scenario writes them (the
// low-level server: nothing is rewritten on the way out). A scenario changes the tools while the
// agent works (and says so with list_changed, or not), forgets every session (a server that
// restarted), or cuts the connection of one call before it answers (a dropped request).
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, Server, WebStandardStreamableHTTPServerTransport } from '../mcp/server.ts';
import type { McpHttpHandler } from '../mcp/server.ts';
import { served, webRequest } from '../server/webHttp.ts';

/** Which eras the server speaks: `dual` both, `modern` 2026-07-28 only, `legacy` the 2025 revisions only. */
export type ScenarioEra = 'dual' | 'modern' | 'legacy';

export interface ToolContext {
  readonly signal: AbortSignal;
  /** The answers a 2026-07-28 client sent back to an input_required result (the SDK's 2025 shim fills them too). */
  readonly inputResponses: unknown;
  /** Sends notifications/progress for this call; false when the client gave no progress token (nothing is sent). */
  progress(progress: number, total?: number, message?: string): Promise<boolean>;
}

export interface ScenarioTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /** A CallToolResult, an input_required result, or a throw of protocolError() for a JSON-RPC error. */
  call(args: Readonly<Record<string, unknown>>, ctx: ToolContext): unknown;
}

export interface ScenarioServerOptions {
  era: ScenarioEra;
  tools: readonly ScenarioTool[];
  /** ttlMs on each tools/list result (the 2026-07-28 revision's caching hint); absent: the SDK's default. */
  listingTtlMs?: number;
  /** One resource and one prompt offered beside the tools. */
  resourcesAndPrompts?: boolean;
}

const INFO = { name: 'ladder-matrix-scenario', version: '1.0.0' };
export const SCENARIO_RESOURCE = { uri: 'matrix://notes/readme', name: 'readme', description: 'A note the scenario offers [mx:resource]', mimeType: 'text/plain' };
export const SCENARIO_PROMPT = { name: 'summarize', description: 'A prompt the scenario offers [mx:prompt]' };

export class ScenarioServer implements AsyncDisposable {
  readonly url: string;
  #tools: readonly ScenarioTool[];
  readonly #options: ScenarioServerOptions;
  readonly #sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: Server }>();
  readonly #modern: McpHttpHandler | undefined;
  readonly #http: http.Server;
  /** Tools whose next call's connection is cut before it is answered. */
  readonly #dropNext = new Set<string>();

  private constructor(options: ScenarioServerOptions, httpServer: http.Server, url: string) {
    this.#options = options;
    this.#tools = options.tools;
    this.#http = httpServer;
    this.url = url;
    this.#modern = options.era === 'legacy' ? undefined : createMcpHandler(() => this.#newServer(), { legacy: 'reject' });
  }

  static async start(options: ScenarioServerOptions): Promise<ScenarioServer> {
    let self: ScenarioServer | undefined;
    const httpServer = http.createServer((req, res) => {
      self!.#handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(0, '127.0.0.1', () => resolve());
    });
    self = new ScenarioServer(options, httpServer, `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`);
    return self;
  }

  get tools(): readonly ScenarioTool[] {
    return this.#tools;
  }

  /** Changes the tools; `announce` tells every client that listens (2025 sessions and 2026-07-28 subscriptions). */
  setTools(tools: readonly ScenarioTool[], announce = true): void {
    this.#tools = tools;
    if (!announce) return;
    for (const { server } of this.#sessions.values()) void server.sendToolListChanged().catch(() => undefined);
    this.#modern?.notify.toolsChanged();
  }

  /** As a restarted server: every 2025 session is gone, so a request that names one is answered 404. */
  forgetSessions(): void {
    for (const { transport } of this.#sessions.values()) void transport.close().catch(() => undefined);
    this.#sessions.clear();
  }

  /** The next call of `tool` has its connection cut as it arrives, unanswered. */
  dropNextCall(tool: string): void {
    this.#dropNext.add(tool);
  }

  #newServer(): Server {
    const { resourcesAndPrompts = false, listingTtlMs } = this.#options;
    const server = new Server(INFO, {
      capabilities: {
        tools: { listChanged: true },
        ...(resourcesAndPrompts ? { resources: { listChanged: true }, prompts: { listChanged: true } } : {}),
      },
    });
    server.setRequestHandler('tools/list', () => ({
      tools: this.#tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, ...(t.outputSchema === undefined ? {} : { outputSchema: t.outputSchema }) })),
      ...(listingTtlMs === undefined ? {} : { ttlMs: listingTtlMs, cacheScope: 'public' as const }),
    }) as never);
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const tool = this.#tools.find((t) => t.name === request.params.name);
      if (tool === undefined) return { isError: true, content: [{ type: 'text', text: `no tool named ${request.params.name} on this server` }] };
      const token = request.params._meta?.progressToken;
      const context: ToolContext = {
        signal: ctx.mcpReq.signal,
        inputResponses: (ctx.mcpReq as { inputResponses?: unknown }).inputResponses,
        progress: async (progress, total, message) => {
          if (token === undefined) return false;
          await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) } });
          return true;
        },
      };
      return (await tool.call(request.params.arguments ?? {}, context)) as never;
    });
    if (resourcesAndPrompts) {
      server.setRequestHandler('resources/list', () => ({ resources: [SCENARIO_RESOURCE] }));
      server.setRequestHandler('resources/read', (request) => ({ contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: 'matrix note: MX-RES-5' }] }));
      server.setRequestHandler('prompts/list', () => ({ prompts: [SCENARIO_PROMPT] }));
      server.setRequestHandler('prompts/get', () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize the notes (MX-PROMPT-6).' } }] }));
    }
    return server;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return void res.writeHead(404).end('the MCP endpoint is /mcp');
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(400).end('the body is not JSON');
      }
      const messages = Array.isArray(body) ? body : [body];
      const dropped = messages.find((m: { method?: string; params?: { name?: string } }) => m?.method === 'tools/call' && this.#dropNext.has(String(m.params?.name)));
      if (dropped !== undefined) {
        this.#dropNext.delete(String((dropped as { params: { name: string } }).params.name));
        req.socket.destroy();
        return;
      }
      if (sessionId === undefined) {
        const initialize = messages.some(isInitializeRequest);
        // 2026-07-28 only: the SDK's handler answers everything, an initialize with the revisions it serves (-32022).
        if (this.#modern !== undefined && (this.#options.era === 'modern' || (!initialize && !(await isLegacyRequest(webRequest(req, res, body), body))))) {
          return served(res, await this.#modern.fetch(webRequest(req, res, body), { parsedBody: body }));
        }
        if (!initialize) {
          return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request: no Mcp-Session-Id; start with initialize' } }));
        }
        return this.#openSession(req, res, body);
      }
      const session = this.#sessions.get(sessionId);
      if (session === undefined) return this.#sessionNotFound(res);
      return served(res, await session.transport.handleRequest(webRequest(req, res, body), { parsedBody: body }));
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (sessionId === undefined) {
        return void res.writeHead(this.#options.era === 'modern' ? 405 : 400, { allow: 'POST' }).end('Mcp-Session-Id is required');
      }
      const session = this.#sessions.get(sessionId);
      if (session === undefined) return this.#sessionNotFound(res);
      return served(res, await session.transport.handleRequest(webRequest(req, res)));
    }
    res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
  }

  #sessionNotFound(res: ServerResponse): void {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
  }

  async #openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const server = this.#newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.#sessions.set(id, { transport, server }),
      onsessionclosed: (id) => void this.#sessions.delete(id),
    });
    await server.connect(transport);
    served(res, await transport.handleRequest(webRequest(req, res, body), { parsedBody: body }));
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#sessions.values()].map(({ server }) => server.close()));
    this.#sessions.clear();
    await this.#modern?.close().catch(() => undefined);
    this.#http.closeAllConnections();
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
