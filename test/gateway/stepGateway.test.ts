// The run's MCP gateway, end to end: an MCP SDK client (as an external agent's) over Streamable
// HTTP on 127.0.0.1, the gateway, the pass's lane, and a scripted server behind it. A step is a
// turn: the breaker refuses within it and forgets across it; the ceiling counts the gateway's
// calls; the tool list is fixed per step and a change is announced.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CEILING_TEXT } from '../../src/agent/index.ts';
import { serveGatewayHttp } from '../../src/gateway/mcp/http.ts';
import type { GatewayHttp } from '../../src/gateway/mcp/http.ts';
import { gatewayServer, TOOLS_PAGE_SIZE } from '../../src/gateway/mcp/server.ts';
import { NO_STEP_TEXT, StepGateway } from '../../src/gateway/mcp/step.ts';
import { Lane } from '../../src/lane/index.ts';
import { MemoryTrace } from '../../src/trace/index.ts';
import { ScriptedServer, dead, text } from '../lane/scripted.ts';
import { textOf } from '../helpers/gateway.ts';

const TOKEN = 'pass-token-0123456789';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).reverse().map((o) => o.close()));
});

async function gatewayOver(server: ScriptedServer, arm = 'on') {
  const trace = new MemoryTrace();
  const lane = await Lane.connect({ servers: { browser: { transport: server.transport } }, arm, emit: trace.emit });
  open.push(lane);
  const gateway = new StepGateway(lane);
  const http = await serveGatewayHttp({ newServer: () => gatewayServer({ backend: gateway }), token: TOKEN });
  open.push(http);
  return { gateway, http, trace };
}

async function agentClient(http: GatewayHttp, token = TOKEN): Promise<Client> {
  const client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  open.push(client);
  return client;
}


describe('the MCP gateway of a pass', () => {
  it('refuses a failed call again within a step and sends it again in the next step', async () => {
    const server = new ScriptedServer([dead('browser_navigate')]);
    const { gateway, http, trace } = await gatewayOver(server);
    const client = await agentClient(http);
    const signal = new AbortController().signal;
    await gateway.openStep({ index: 0, ceiling: 10, signal });
    const args = { url: 'https://x.example' };
    const first = await client.callTool({ name: 'browser__browser_navigate', arguments: args });
    const second = await client.callTool({ name: 'browser__browser_navigate', arguments: args });
    const step0 = await gateway.endStep();
    await gateway.openStep({ index: 1, ceiling: 10, signal });
    await client.callTool({ name: 'browser__browser_navigate', arguments: args });
    await gateway.endStep();

    expect(first.isError).toBe(true);
    expect(second.isError).toBe(true);
    expect(textOf(second)).toBe('upstream MCP session is closed\nNot sent again: the identical call failed at round 1 of this turn with the error above.');
    expect(step0.calls.map((c) => c.outcome)).toEqual(['failed', 'refused']);
    // Each call keeps the arguments the agent sent, for the step's calledWith checks.
    expect(step0.calls.map((c) => c.args)).toEqual([args, args]);
    expect(server.callsTo('browser_navigate')).toBe(2);
    expect(trace.ofType('tool.call').map((e) => [e.turn, e.outcome])).toEqual([[1, 'failed'], [1, 'refused'], [2, 'failed']]);
  });

  it('sends every re-send with the breaker off', async () => {
    const server = new ScriptedServer([dead('browser_navigate')]);
    const { gateway, http } = await gatewayOver(server, 'breaker=off,circuit=off');
    const client = await agentClient(http);
    await gateway.openStep({ index: 0, ceiling: 10, signal: new AbortController().signal });
    for (let i = 0; i < 3; i += 1) await client.callTool({ name: 'browser__browser_navigate', arguments: { url: 'u' } });
    await gateway.endStep();
    expect(server.callsTo('browser_navigate')).toBe(3);
  });

  it('refuses the call past the ceiling without sending it, and says the step reached it', async () => {
    const server = new ScriptedServer([{ name: 'page', handler: () => text('ok') }]);
    const { gateway, http, trace } = await gatewayOver(server);
    const client = await agentClient(http);
    await gateway.openStep({ index: 0, ceiling: 2, signal: new AbortController().signal });
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await client.callTool({ name: 'browser__page', arguments: { i } }));
    const step = await gateway.endStep();
    expect(answers.map((a) => a.isError === true)).toEqual([false, false, true]);
    expect(textOf(answers[2]!)).toBe(CEILING_TEXT);
    expect(step).toEqual({
      calls: [expect.objectContaining({ outcome: 'ok', args: { i: 0 } }), expect.objectContaining({ outcome: 'ok', args: { i: 1 } })], ceilingReached: true,
    });
    expect(server.callsTo('page')).toBe(2);
    expect(trace.ofType('tool.call')).toHaveLength(2);
  });

  it('answers a call between steps without sending it', async () => {
    const server = new ScriptedServer([{ name: 'page', handler: () => text('ok') }]);
    const { http } = await gatewayOver(server);
    const client = await agentClient(http);
    const answer = await client.callTool({ name: 'browser__page', arguments: {} });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toBe(NO_STEP_TEXT);
    expect(server.callsTo('page')).toBe(0);
  });

  it("lists the step's tools and pages them", async () => {
    const tools = Array.from({ length: TOOLS_PAGE_SIZE + 5 }, (_, i) => ({ name: `t${i}`, handler: () => text('ok') }));
    const { gateway, http } = await gatewayOver(new ScriptedServer(tools));
    const client = await agentClient(http);
    await gateway.openStep({ index: 0, ceiling: 10, signal: new AbortController().signal });
    const first = await client.listTools();
    const second = await client.listTools({ cursor: first.nextCursor! });
    expect(first.tools).toHaveLength(TOOLS_PAGE_SIZE);
    expect(first.tools[0]!.name).toBe('browser__t0');
    expect(first.nextCursor).toBe('1');
    expect(second.tools.map((t) => t.name)).toEqual([...tools.slice(TOOLS_PAGE_SIZE).map((t) => `browser__${t.name}`), 'harness__refresh_tools']);
    expect(second.nextCursor).toBeUndefined();
  });

  it('tells the backend listeners when a step opens with another list, and only then', async () => {
    const server = new ScriptedServer([{ name: 'a', handler: () => text('ok') }]);
    const { gateway } = await gatewayOver(server);
    let changes = 0;
    gateway.onToolsChanged(() => (changes += 1));
    const signal = new AbortController().signal;
    await gateway.openStep({ index: 0, ceiling: 10, signal });
    await gateway.endStep();
    await gateway.openStep({ index: 1, ceiling: 10, signal });
    await gateway.endStep();
    expect(changes).toBe(1);
    await server.addTool({ name: 'b', handler: () => text('ok') });
    await gateway.openStep({ index: 2, ceiling: 10, signal });
    expect(changes).toBe(2);
    expect((await gateway.tools()).map((t) => t.name)).toEqual(['browser__a', 'browser__b', 'harness__refresh_tools']);
  });

  it('sends notifications/tools/list_changed to a connected agent when the list changes', async () => {
    const server = new ScriptedServer([{ name: 'a', handler: () => text('ok') }]);
    const { gateway, http } = await gatewayOver(server);
    const client = await agentClient(http);
    await gateway.openStep({ index: 0, ceiling: 10, signal: new AbortController().signal });
    await client.listTools();
    await gateway.endStep();
    const announced = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await server.addTool({ name: 'b', handler: () => text('ok') });
    await gateway.openStep({ index: 1, ceiling: 10, signal: new AbortController().signal });
    await announced;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('browser__b');
  });

  it('accepts logging/setLevel, and refuses resources and prompts with Method not found', async () => {
    const { http } = await gatewayOver(new ScriptedServer([]));
    const client = await agentClient(http);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    await expect(client.setLoggingLevel('warning')).resolves.toEqual({});
    await expect(client.listResources()).rejects.toThrow('MCP error -32601: Method not found');
    await expect(client.listPrompts()).rejects.toThrow('MCP error -32601: Method not found');
  });

  it('refuses a client without the pass token', async () => {
    const server = new ScriptedServer([]);
    const { http } = await gatewayOver(server);
    await expect(agentClient(http, 'wrong')).rejects.toThrow(/401|Invalid bearer token/);
  });

  it("answers a 2026-07-28 server/discover probe 400 with a JSON-RPC error and opens no session, so a client falls back to initialize", async () => {
    // Claude Code 2.1.328 sends this first and sends initialize at once on the 400 (docs/agent.md).
    const server = new ScriptedServer([]);
    const { http } = await gatewayOver(server);
    const probe = { jsonrpc: '2.0', id: 'server-discover-probe-1', method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } };
    const res = await fetch(http.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(probe),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await res.json()).toStrictEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: no Mcp-Session-Id; start with an initialize request' }, id: null });
    expect(http.sessions()).toBe(0);
    await agentClient(http);
    expect(http.sessions()).toBe(1);
  });
});
