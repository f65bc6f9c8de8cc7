// One MCP server over a gateway backend: tools/list (paged), tools/call (progress and
// cancellation forwarded), and notifications/tools/list_changed when the backend's list
// changes. Resources and prompts are passed through when the backend has them and an upstream
// offers them (`ladder gateway`, passThroughHandlers.ts); otherwise they are not declared, and a
// client that asks anyway gets the SDK's one-line "Method not found".
// Logging is declared so that logging/setLevel, which clients such as the inspector and the
// conformance suite send whatever the capabilities say, is accepted rather than refused (the
// SDK's Server keeps the level per session); the gateway forwards no upstream log messages.
import { Server } from '../../mcp/server.ts';
import type { CallToolResult } from '../../mcp/types.ts';
import { LADDER_VERSION } from '../../lane/index.ts';
import type { GatewayBackend } from './backend.ts';
import { addPassThrough, passThroughCapabilities } from './passThroughHandlers.ts';

/**
 * Tools per tools/list page. Clients follow nextCursor (the SDK's, Codex's and the inspector's
 * do), but a page holds a whole ordinary roster: a few servers of tens of tools each.
 */
export const TOOLS_PAGE_SIZE = 200;

export const GATEWAY_INFO = { name: 'ladder-gateway', version: LADDER_VERSION };

function pageOf(cursor: unknown): number {
  if (cursor === undefined) return 0;
  const page = Number(cursor);
  if (typeof cursor !== 'string' || !Number.isInteger(page) || page < 0) {
    throw new RangeError(`invalid cursor ${JSON.stringify(cursor)}: pass the nextCursor a tools/list answered`);
  }
  return page;
}

/** One page of the backend's tools, as tools/list answers it in either era. */
export async function toolsPage(backend: GatewayBackend, cursor: unknown, session: string | undefined) {
  const page = pageOf(cursor);
  const tools = await backend.tools({ session });
  const slice = tools.slice(page * TOOLS_PAGE_SIZE, (page + 1) * TOOLS_PAGE_SIZE);
  const more = (page + 1) * TOOLS_PAGE_SIZE < tools.length;
  return {
    tools: slice.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as { type: 'object' } })),
    ...(more ? { nextCursor: String(page + 1) } : {}),
  };
}

/** A tools/call through the backend, in either era: the client's progress token gets the upstream's progress. */
export async function answerCall(
  backend: GatewayBackend,
  params: { name: string; arguments?: Record<string, unknown> | undefined; _meta?: Record<string, unknown> | undefined },
  at: { signal: AbortSignal; session: string | undefined; notify: (n: { method: 'notifications/progress'; params: Record<string, unknown> }) => Promise<void> },
): Promise<CallToolResult> {
  const meta = params._meta;
  const token = meta?.progressToken;
  const onProgress = token === undefined ? undefined : (p: { progress: number; total?: number; message?: string }): void => {
    void at.notify({ method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => undefined);
  };
  const answer = await backend.call(params.name, params.arguments, {
    signal: at.signal, session: at.session, ...(onProgress === undefined ? {} : { onProgress }), ...(meta === undefined ? {} : { meta }),
  });
  return { content: [{ type: 'text', text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
}

export interface GatewayServerOptions {
  backend: GatewayBackend;
  instructions?: string;
}

/** A new server for one client session; close it to unsubscribe from the backend. */
export function gatewayServer(options: GatewayServerOptions): Server {
  const { backend } = options;
  const server = new Server(GATEWAY_INFO, {
    capabilities: { tools: { listChanged: true }, logging: {}, ...passThroughCapabilities(backend.resourcesAndPrompts) },
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
  server.setRequestHandler('tools/list', (request, ctx) => toolsPage(backend, request.params?.cursor, ctx.sessionId));
  server.setRequestHandler('tools/call', (request, ctx) =>
    answerCall(backend, request.params, { signal: ctx.mcpReq.signal, session: ctx.sessionId, notify: ctx.mcpReq.notify }));
  const unsubscribe = backend.onToolsChanged(() => {
    // Only a connected session can be told; one still initialising lists afresh anyway.
    if (server.transport !== undefined) void server.sendToolListChanged().catch(() => undefined);
  });
  const leave = backend.resourcesAndPrompts === undefined ? undefined : addPassThrough(server, backend.resourcesAndPrompts);
  const close = server.onclose;
  server.onclose = () => {
    unsubscribe();
    leave?.();
    close?.();
  };
  return server;
}
