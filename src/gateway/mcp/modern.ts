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
// tools/list, which a list result without `ttlMs` asks it to make every time. Over stdio the
// client's first message chooses the era for the process (src/mcp/stdioEras.ts).
import { createMcpHandler, ModernServer } from '../../mcp/server.ts';
import type { McpHttpHandler } from '../../mcp/server.ts';
import type { GatewayBackend } from './backend.ts';
import { answerCall, GATEWAY_INFO, toolsPage } from './server.ts';

/**
 * One server for 2026-07-28 requests: tools/list (paged) and tools/call, as the 2025 front
 * answers them (server.ts). Over HTTP one per request; over stdio one for the process.
 */
export function modernGatewayServer(backend: GatewayBackend): ModernServer {
  const server = new ModernServer(GATEWAY_INFO, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler('tools/list', (request) => toolsPage(backend, request.params?.cursor, undefined));
  server.setRequestHandler('tools/call', (request, ctx) =>
    answerCall(backend, request.params, { signal: ctx.mcpReq.signal, session: undefined, notify: ctx.mcpReq.notify }));
  return server;
}

/** The 2026-07-28 handler over a gateway backend; 2025 requests are not its to answer (legacy: 'reject'). */
export function modernGatewayHandler(backend: GatewayBackend): McpHttpHandler {
  return createMcpHandler(() => modernGatewayServer(backend), { legacy: 'reject' });
}
