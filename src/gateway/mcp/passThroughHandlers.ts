// The front's resources and prompts (src/gateway/passThrough.ts says what the gateway does with
// them): the capabilities it declares, the request handlers, and the notifications a session
// is sent. A session is told of an updated resource only if it subscribed to it, and its
// subscriptions are left when it closes, so the upstream keeps one per URI that anyone holds.
import type { Server, ServerCapabilities } from '../../mcp/types.ts';
import type { ResourcesAndPrompts } from './backend.ts';

/**
 * The capabilities to declare beside tools: only what an upstream offers. `subscribe` is a 2025
 * session's (resources/subscribe); a 2026-07-28 client, which has no session, is not offered it.
 */
export function passThroughCapabilities(rp: ResourcesAndPrompts | undefined, era: 'legacy' | 'modern' = 'legacy'): ServerCapabilities {
  if (rp === undefined) return {};
  const subscribe = rp.offer.subscribe && era === 'legacy';
  return {
    ...(rp.offer.resources ? { resources: { listChanged: true, ...(subscribe ? { subscribe: true } : {}) } } : {}),
    ...(rp.offer.prompts ? { prompts: { listChanged: true } } : {}),
  };
}

/** The read-only methods, the same in either era: lists, a resource's read, a prompt's get. */
export function addPassThroughReads(server: Server, rp: ResourcesAndPrompts): void {
  const { upstream, offer } = rp;
  if (offer.resources) {
    server.setRequestHandler('resources/list', async () => ({ resources: await upstream.listResources() }));
    server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: await upstream.listResourceTemplates() }));
    server.setRequestHandler('resources/read', async (request) => upstream.readResource(request.params.uri));
  }
  if (offer.prompts) {
    server.setRequestHandler('prompts/list', async () => ({ prompts: await upstream.listPrompts() }));
    server.setRequestHandler('prompts/get', async (request) => upstream.getPrompt(request.params.name, request.params.arguments));
  }
}

/** Sets the handlers on a 2025 session's server; returns what to call when the session closes. */
export function addPassThrough(server: Server, rp: ResourcesAndPrompts): () => void {
  const { upstream, offer } = rp;
  const subscribed = new Set<string>();
  addPassThroughReads(server, rp);
  if (offer.subscribe) {
    server.setRequestHandler('resources/subscribe', async (request) => {
      const { uri } = request.params;
      if (!subscribed.has(uri)) await upstream.subscribe(uri);
      subscribed.add(uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', async (request) => {
      const { uri } = request.params;
      if (subscribed.delete(uri)) await upstream.unsubscribe(uri);
      return {};
    });
  }
  const stop = rp.onNotification((notification) => {
    // Only a connected session can be told.
    if (server.transport === undefined) return;
    const send = notification.method === 'notifications/resources/updated' && subscribed.has(String(notification.params?.uri))
      ? server.sendResourceUpdated({ uri: String(notification.params!.uri) })
      : notification.method === 'notifications/resources/list_changed' && offer.resources ? server.sendResourceListChanged()
      : notification.method === 'notifications/prompts/list_changed' && offer.prompts ? server.sendPromptListChanged()
      : undefined;
    void send?.catch(() => undefined);
  });
  return () => {
    stop();
    for (const uri of subscribed) void upstream.unsubscribe(uri).catch(() => undefined);
    subscribed.clear();
  };
}
