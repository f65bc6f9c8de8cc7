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
import type { GatewayBackend, UpstreamNotification } from './backend.ts';
import { addPassThroughReads, passThroughCapabilities } from './passThroughHandlers.ts';
import { answerCall, GATEWAY_INFO, toolsPage } from './server.ts';

/**
 * One server for 2026-07-28 requests: tools/list (paged) and tools/call, as the 2025 front
 * answers them (server.ts), and the upstreams' resources and prompts when `ladder gateway` passes
 * them through (lists, reads, prompts; no resources/subscribe, which is a 2025 session's). Over
 * HTTP one per request; over stdio one for the process.
 */
export function modernGatewayServer(backend: GatewayBackend): Server {
  const rp = backend.resourcesAndPrompts;
  const server = new Server(GATEWAY_INFO, { capabilities: { tools: { listChanged: true }, logging: {}, ...passThroughCapabilities(rp, 'modern') } });
  server.setRequestHandler('tools/list', (request) => toolsPage(backend, request.params?.cursor, undefined));
  server.setRequestHandler('tools/call', (request, ctx) =>
    answerCall(backend, request.params, { signal: ctx.mcpReq.signal, session: undefined, notify: ctx.mcpReq.notify }));
  if (rp !== undefined) addPassThroughReads(server, rp);
  return server;
}

/** What a 2026-07-28 client can be told of an upstream's change: its lists changed (an updated resource is a 2025 subscription's). */
interface ListChanges {
  resourcesChanged(): void;
  promptsChanged(): void;
}

/** Forwards the upstreams' list changes the gateway offers; returns an unsubscribe (a no-op when nothing is passed through). */
function forwardListChanges(backend: GatewayBackend, to: ListChanges): () => void {
  const rp = backend.resourcesAndPrompts;
  if (rp === undefined) return () => undefined;
  return rp.onNotification((notification: UpstreamNotification) => {
    if (notification.method === 'notifications/resources/list_changed' && rp.offer.resources) to.resourcesChanged();
    if (notification.method === 'notifications/prompts/list_changed' && rp.offer.prompts) to.promptsChanged();
  });
}

/**
 * The 2026-07-28 handler over a gateway backend; 2025 requests are not its to answer (legacy:
 * 'reject'). A change of the backend's tools, or of an upstream's resource or prompt list, is
 * published to every open `subscriptions/listen` stream that asked for it.
 */
export function modernGatewayHandler(backend: GatewayBackend): McpHttpHandler {
  const handler = createMcpHandler(() => modernGatewayServer(backend), { legacy: 'reject' });
  const unsubscribe = backend.onToolsChanged(() => handler.notify.toolsChanged());
  const leave = forwardListChanges(backend, handler.notify);
  const close = handler.close;
  return { ...handler, close: async () => { unsubscribe(); leave(); await close(); } };
}

/** The 2026-07-28 server for one stdio connection: it tells the client's listen streams when the backend's tools, resources or prompts change. */
export function modernGatewayStdioServer(backend: GatewayBackend): Server {
  const server = modernGatewayServer(backend);
  const quietly = (send: () => Promise<void>) => void send().catch(() => undefined);
  const unsubscribe = backend.onToolsChanged(() => quietly(() => server.sendToolListChanged()));
  const leave = forwardListChanges(backend, {
    resourcesChanged: () => quietly(() => server.sendResourceListChanged()),
    promptsChanged: () => quietly(() => server.sendPromptListChanged()),
  });
  const close = server.onclose;
  server.onclose = () => {
    unsubscribe();
    leave();
    close?.();
  };
  return server;
}
