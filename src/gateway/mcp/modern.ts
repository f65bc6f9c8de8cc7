// The gateway's front in the 2026-07-28 era, beside its 2025 one on the same /mcp endpoint
// (http.ts routes each request that carries no session by the SDK's own test, isLegacyRequest).
// No session and no `initialize`: the SDK builds a server per request from the factory here, and
// each request says its protocol version and the client's capabilities in its `_meta`. The
// tools are the same backend's, through the same reliability layer, so a client pinned to
// 2026-07-28 and one on 2025-11-25 can use one gateway at once.
//
// What a turn is without a session: the turn policy's boundaries do not need one (a tools/list,
// a change of `_meta["ladder/turn"]`, an idle gap), and the gateway's turns are its own across
// all its clients in either era. A tool list change reaches a 2026 client over HTTP on its
// `subscriptions/listen` stream (the SDK's handler serves those streams; the backend's change is
// published on its bus), as a 2025 session is told on its GET stream. Over stdio the client's
// first message chooses the era for the process (src/mcp/stdioEras.ts), one server serves the
// connection, and the SDK's stdio entry routes that server's list_changed onto the client's
// `subscriptions/listen` streams.
import { createMcpHandler, Server } from '../../mcp/server.ts';
import type { McpHttpHandler } from '../../mcp/server.ts';
import type { GatewayBackend } from './backend.ts';
import { answerCall, GATEWAY_INFO, toolsPage } from './server.ts';

/**
 * One server for 2026-07-28 requests: tools/list (paged) and tools/call, as the 2025 front
 * answers them (server.ts). Over HTTP one per request; over stdio one for the process.
 */
export function modernGatewayServer(backend: GatewayBackend): Server {
  const server = new Server(GATEWAY_INFO, { capabilities: { tools: { listChanged: true }, logging: {} } });
  server.setRequestHandler('tools/list', (request) => toolsPage(backend, request.params?.cursor, undefined));
  server.setRequestHandler('tools/call', (request, ctx) =>
    answerCall(backend, request.params, { signal: ctx.mcpReq.signal, session: undefined, notify: ctx.mcpReq.notify }));
  return server;
}

/**
 * The 2026-07-28 handler over a gateway backend; 2025 requests are not its to answer (legacy:
 * 'reject'). A change of the backend's tools is published to every open `subscriptions/listen`
 * stream that asked for tool list changes.
 */
export function modernGatewayHandler(backend: GatewayBackend): McpHttpHandler {
  const handler = createMcpHandler(() => modernGatewayServer(backend), { legacy: 'reject' });
  const unsubscribe = backend.onToolsChanged(() => handler.notify.toolsChanged());
  const close = handler.close;
  return { ...handler, close: async () => { unsubscribe(); await close(); } };
}

/** The 2026-07-28 server for one stdio connection: it tells the client's listen streams when the backend's tools change. */
export function modernGatewayStdioServer(backend: GatewayBackend): Server {
  const server = modernGatewayServer(backend);
  const unsubscribe = backend.onToolsChanged(() => void server.sendToolListChanged().catch(() => undefined));
  const close = server.onclose;
  server.onclose = () => {
    unsubscribe();
    close?.();
  };
  return server;
}
