// One MCP server over a gateway backend: tools/list (paged), tools/call (progress and
// cancellation forwarded), and notifications/tools/list_changed when the backend's list
// changes. Resources and prompts are passed through when the backend has them and an upstream
// offers them (`ladder gateway`, passThroughHandlers.ts); otherwise they are not declared, and a
// client that asks anyway gets the SDK's one-line "Method not found".
// Logging is declared so that logging/setLevel, which clients such as the inspector and the
// conformance suite send whatever the capabilities say, is accepted rather than refused (the
// SDK's Server keeps the level per session); the gateway forwards no upstream log messages.
import { CallToolRequestSchema, ListToolsRequestSchema, Server } from '../../mcp/server.ts';
import type { CallToolResult, ListToolsResult } from '../../mcp/types.ts';
import { LADDER_VERSION } from '../../lane/index.ts';
import type { GatewayBackend } from './backend.ts';
import { addPassThrough, passThroughCapabilities } from './passThroughHandlers.ts';

/**
 * Tools per tools/list page. Clients follow nextCursor (the SDK's, Codex's and the inspector's
 * do), but a page holds a whole ordinary roster: a few servers of tens of tools each.
 */
export const TOOLS_PAGE_SIZE = 200;

export const GATEWAY_INFO = { name: 'ladder-gateway', version: LADDER_VERSION };

function pageOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const page = Number(cursor);
  if (!Number.isInteger(page) || page < 0) throw new RangeError(`invalid cursor ${JSON.stringify(cursor)}: pass the nextCursor a tools/list answered`);
  return page;
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
  server.setRequestHandler(ListToolsRequestSchema, async (request, extra): Promise<ListToolsResult> => {
    const page = pageOf(request.params?.cursor);
    const tools = await backend.tools({ session: extra.sessionId });
    const slice = tools.slice(page * TOOLS_PAGE_SIZE, (page + 1) * TOOLS_PAGE_SIZE);
    const more = (page + 1) * TOOLS_PAGE_SIZE < tools.length;
    return {
      tools: slice.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as ListToolsResult['tools'][number]['inputSchema'] })),
      ...(more ? { nextCursor: String(page + 1) } : {}),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const token = request.params._meta?.progressToken;
    const onProgress = token === undefined ? undefined : (p: { progress: number; total?: number; message?: string }): void => {
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => undefined);
    };
    const meta = request.params._meta as Record<string, unknown> | undefined;
    const answer = await backend.call(request.params.name, request.params.arguments, {
      signal: extra.signal, session: extra.sessionId, ...(onProgress === undefined ? {} : { onProgress }), ...(meta === undefined ? {} : { meta }),
    });
    return { content: [{ type: 'text', text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
  });
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
