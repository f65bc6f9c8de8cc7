// The gateway's front in the 2026-07-28 era, beside its 2025 one on the same /mcp endpoint
// (http.ts routes each request that carries no session by the SDK's own test, isLegacyRequest).
// No session and no `initialize`: the SDK builds a server per request from the factory here, and
// each request says its protocol version and the client's capabilities in its `_meta`. The
// tools are the same backend's, through the same reliability layer, so a client pinned to
// 2026-07-28 and one on 2025-11-25 can use one gateway at once.
//
// What a turn is without a session: the turn policy's boundaries do not need one (a tools/list,
// a change of `_meta["ladder/turn"]`, an idle gap), and the gateway's turns are its own across
// all its clients in either era. A tool list change is not pushed in this era (that needs a
// `subscriptions/listen` stream, not served yet): a 2026 client sees the new list at its next
// tools/list, which a list result without `ttlMs` asks it to make every time.
import { createMcpHandler, ModernServer } from '../../mcp/server.ts';
import type { McpHttpHandler } from '../../mcp/server.ts';
import type { GatewayBackend } from './backend.ts';
import { GATEWAY_INFO, TOOLS_PAGE_SIZE } from './server.ts';

function pageOf(cursor: unknown): number {
  if (cursor === undefined) return 0;
  const page = Number(cursor);
  if (typeof cursor !== 'string' || !Number.isInteger(page) || page < 0) {
    throw new RangeError(`invalid cursor ${JSON.stringify(cursor)}: pass the nextCursor a tools/list answered`);
  }
  return page;
}

/** One server for one 2026-07-28 request: tools/list (paged) and tools/call (progress and cancellation forwarded). */
function modernServer(backend: GatewayBackend): ModernServer {
  const server = new ModernServer(GATEWAY_INFO, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler('tools/list', async (request) => {
    const page = pageOf(request.params?.cursor);
    const tools = await backend.tools({ session: undefined });
    const slice = tools.slice(page * TOOLS_PAGE_SIZE, (page + 1) * TOOLS_PAGE_SIZE);
    const more = (page + 1) * TOOLS_PAGE_SIZE < tools.length;
    return {
      tools: slice.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as { type: 'object' } })),
      ...(more ? { nextCursor: String(page + 1) } : {}),
    };
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const meta = request.params._meta as Record<string, unknown> | undefined;
    const token = request.params._meta?.progressToken;
    const onProgress = token === undefined ? undefined : (p: { progress: number; total?: number; message?: string }): void => {
      void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => undefined);
    };
    const answer = await backend.call(request.params.name, request.params.arguments, {
      signal: ctx.mcpReq.signal, session: undefined, ...(onProgress === undefined ? {} : { onProgress }), ...(meta === undefined ? {} : { meta }),
    });
    return { content: [{ type: 'text' as const, text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
  });
  return server;
}

/** The 2026-07-28 handler over a gateway backend; 2025 requests are not its to answer (legacy: 'reject'). */
export function modernGatewayHandler(backend: GatewayBackend): McpHttpHandler {
  return createMcpHandler(() => modernServer(backend), { legacy: 'reject' });
}
