// Resources and prompts through `ladder gateway` (src/gateway/passThrough.ts): two real stdio
// servers that offer them (test/fixtures/resource-server.mjs) and one that offers only tools,
// with the SDK's client as the user's over Streamable HTTP.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ListResourcesResultSchema, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from '../../src/gateway/serve.ts';

const RESOURCES = fileURLToPath(new URL('../fixtures/resource-server.mjs', import.meta.url));
const CRASHY = fileURLToPath(new URL('../fixtures/crashy-server.mjs', import.meta.url));
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).reverse().map((o) => o.close()));
});

async function gatewayOver(servers: Record<string, unknown>): Promise<{ url: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ladder-passthrough-'));
  const path = join(dir, 'mcp.json');
  writeFileSync(path, JSON.stringify({ mcpServers: servers }));
  const running = await startGateway({ servers: path, transport: 'http' }, { env: { LADDER_STATE_DIR: join(dir, 'state') }, log: () => undefined });
  open.push(running);
  return { url: (running as unknown as { url: string }).url, dir };
}

const resourceServer = (name: string, log: string) => ({ command: 'node', args: [RESOURCES], env: { RESOURCE_NAME: name, RESOURCE_LOG: log } });

async function client(url: string, seen: string[] = []): Promise<Client> {
  const c = new Client({ name: 'user-client', version: '1.0.0' });
  c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(`updated ${n.params.uri}`));
  c.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen.push('resources changed'));
  c.setNotificationHandler(PromptListChangedNotificationSchema, () => void seen.push('prompts changed'));
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  open.push(c);
  return c;
}

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
}

const textOf = (contents: readonly object[]): unknown => (contents[0] as { text?: unknown } | undefined)?.text;

describe('ladder gateway: resources and prompts', () => {
  it('lists every server\'s resources and prompts, routes a read by the list and a prompt by its prefix, and refuses a URI it cannot place', async () => {
    const logs = mkdtempSync(join(tmpdir(), 'ladder-passthrough-log-'));
    const { url } = await gatewayOver({
      one: resourceServer('one', join(logs, 'one.log')), two: resourceServer('two', join(logs, 'two.log')), tools: { command: 'node', args: [CRASHY] },
    });
    const c = await client(url);
    expect(c.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } });
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['mem://one/note', 'mem://two/note']);
    expect((await c.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['mem://one/{id}', 'mem://two/{id}']);
    expect(textOf((await c.readResource({ uri: 'mem://two/note' })).contents)).toBe('read by two: mem://two/note');
    expect(textOf((await c.readResource({ uri: 'mem://one/note' })).contents)).toBe('read by one: mem://one/note');
    // Two servers offer resources and neither listed it: no guess.
    await expect(c.readResource({ uri: 'mem://two/7' })).rejects.toThrow(/resource "mem:\/\/two\/7": no server's resources\/list held it, and 2 servers offer resources; list resources first/);
    // Invalid params with the URI in its data, as the 2026-07-28 revision asks of a resource not found.
    await expect(c.readResource({ uri: 'mem://two/7' })).rejects.toMatchObject({ code: -32602, data: { uri: 'mem://two/7' } });
    expect((await c.listPrompts()).prompts.map((p) => p.name)).toEqual(['one__greet', 'two__greet']);
    const greeting = await c.getPrompt({ name: 'two__greet', arguments: { who: 'Ada' } });
    expect(greeting.messages[0]!.content).toEqual({ type: 'text', text: 'two greets Ada' });
    await expect(c.getPrompt({ name: 'greet' })).rejects.toThrow(/prompt "greet": not a name prompts\/list gave \(server__prompt\)/);
    await expect(c.getPrompt({ name: 'tools__greet' })).rejects.toThrow();
  });

  it('sends a template\'s URI to the only server that offers resources', async () => {
    const { url } = await gatewayOver({ one: resourceServer('one', join(tmpdir(), 'unused.log')), tools: { command: 'node', args: [CRASHY] } });
    const c = await client(url);
    expect(textOf((await c.readResource({ uri: 'mem://one/42' })).contents)).toBe('read by one: mem://one/42');
  });

  it('tells a session of an updated resource only if it subscribed, and subscribes the upstream once for any number of sessions', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'ladder-passthrough-log-')), 'one.log');
    const { url } = await gatewayOver({ one: resourceServer('one', log) });
    const [seenA, seenB] = [[] as string[], [] as string[]];
    const a = await client(url, seenA);
    const b = await client(url, seenB);
    await a.listResources();
    await a.subscribeResource({ uri: 'mem://one/note' });
    await b.subscribeResource({ uri: 'mem://one/note' });
    await b.unsubscribeResource({ uri: 'mem://one/note' });
    await b.callTool({ name: 'one__touch', arguments: {} });
    await until(() => seenA.length >= 3 && seenB.length >= 2);
    expect(seenA.sort()).toEqual(['prompts changed', 'resources changed', 'updated mem://one/note']);
    expect(seenB.sort()).toEqual(['prompts changed', 'resources changed']);
    // b's subscribe and unsubscribe never reached the upstream: a still held it.
    expect(readFileSync(log, 'utf8')).toBe('subscribe mem://one/note\n');
    // A session that ends (the client's DELETE) leaves what it held.
    await (a.transport as StreamableHTTPClientTransport).terminateSession();
    await until(() => readFileSync(log, 'utf8').includes('unsubscribe'));
    expect(readFileSync(log, 'utf8')).toBe('subscribe mem://one/note\nunsubscribe mem://one/note\n');
  });

  it('serves the same lists, reads and prompts to a client pinned to 2026-07-28, without subscribe, and tells its listen stream when the lists change', async () => {
    const { url } = await gatewayOver({ one: resourceServer('one', join(tmpdir(), 'unused.log')), tools: { command: 'node', args: [CRASHY] } });
    const seen: string[] = [];
    const c = new V2Client({ name: 'pinned', version: '1.0.0' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      listChanged: {
        resources: { autoRefresh: false, onChanged: () => void seen.push('resources changed') },
        prompts: { autoRefresh: false, onChanged: () => void seen.push('prompts changed') },
      },
    });
    await c.connect(new V2HttpTransport(new URL(url)));
    open.push(c);
    expect(c.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const caps = c.getServerCapabilities();
    expect(caps?.resources).toEqual({ listChanged: true });
    expect(caps?.prompts).toEqual({ listChanged: true });
    expect((await c.listResources()).resources.map((r) => r.uri)).toEqual(['mem://one/note']);
    expect(textOf((await c.readResource({ uri: 'mem://one/note' })).contents)).toBe('read by one: mem://one/note');
    const greeting = await c.getPrompt({ name: 'one__greet', arguments: { who: 'Ada' } });
    expect(greeting.messages[0]!.content).toEqual({ type: 'text', text: 'one greets Ada' });
    // touch makes the upstream send both list_changed notifications (and an update, a 2025 subscription's).
    await c.callTool({ name: 'one__touch', arguments: {} });
    await until(() => seen.length >= 2);
    expect(seen.sort()).toEqual(['prompts changed', 'resources changed']);
  });

  it('declares neither when no server offers them, and answers their methods "Method not found"', async () => {
    const { url } = await gatewayOver({ tools: { command: 'node', args: [CRASHY] } });
    const c = await client(url);
    const caps = c.getServerCapabilities();
    expect([caps?.resources, caps?.prompts]).toEqual([undefined, undefined]);
    await expect(c.request({ method: 'resources/list', params: {} }, ListResourcesResultSchema)).rejects.toThrow(/Method not found/);
  });
});
