// `ladder gateway` in front of real stdio servers, with the MCP SDK's client as the user's
// client over Streamable HTTP: the breaker within a turn and across a boundary, an upstream
// that crashes and is restarted while the other keeps answering, cancellation reaching the
// upstream, the status, and every input mistake as one line before anything is served.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from '../../src/gateway/serve.ts';
import { abortableSleep } from '../../src/gateway/standalone.ts';
import type { GatewayRequest, RunningGateway } from '../../src/gateway/serve.ts';
import type { Clock } from '../../src/reliability/index.ts';
import { httpGateway, status, textOf, until, userClient } from '../helpers/gateway.ts';

const CRASHY = fileURLToPath(new URL('../fixtures/crashy-server.mjs', import.meta.url));
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).reverse().map((o) => o.close()));
});

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'ladder-gateway-'));
}

function serversFile(dir: string, servers: Record<string, unknown>): string {
  const path = join(dir, 'mcp.json');
  writeFileSync(path, JSON.stringify({ globalShortcut: 'x', mcpServers: servers }));
  return path;
}

const crashy = (dir: string, name: string) => ({
  command: 'node', args: [CRASHY], env: { CRASHY_PIDS: join(dir, `${name}.pids`), CRASHY_CANCELLED: join(dir, `${name}.cancelled`), API_KEY: `secret-${name}-0123456789` },
});

async function gateway(dir: string, extra: Partial<GatewayRequest> = {}, clock?: Clock): Promise<RunningGateway & { url: string }> {
  const running = await httpGateway(serversFile(dir, { a: crashy(dir, 'a'), b: crashy(dir, 'b') }), dir, extra, clock);
  open.push(running);
  return running;
}

async function client(url: string): Promise<Client> {
  const c = await userClient(url);
  open.push(c);
  return c;
}




describe('ladder gateway', () => {
  it('refuses an identical failed call within a turn and sends it again after a tools/list begins the next', async () => {
    const dir = folder();
    const { url } = await gateway(dir);
    const c = await client(url);
    const tools = await c.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['a__echo', 'a__fail', 'a__crash', 'a__hang', 'a__steps', 'b__echo', 'b__fail', 'b__crash', 'b__hang', 'b__steps', 'harness__refresh_tools']);
    const first = await c.callTool({ name: 'a__fail', arguments: { n: 1 } });
    const again = await c.callTool({ name: 'a__fail', arguments: { n: 1 } });
    const other = await c.callTool({ name: 'a__fail', arguments: { n: 2 } });
    await c.listTools();
    const nextTurn = await c.callTool({ name: 'a__fail', arguments: { n: 1 } });
    expect(textOf(first)).toBe('upstream MCP session is closed');
    expect(textOf(again)).toBe('upstream MCP session is closed\nNot sent again: the identical call failed at round 1 of this turn with the error above.');
    expect(textOf(other)).toBe('upstream MCP session is closed');
    expect(textOf(nextTurn)).toBe('upstream MCP session is closed');
    const s = await status(url);
    // Turn 1 opened at start (the collision check), 2 and 3 at the two listings.
    expect(s.turn).toBe(3);
    // Three failures sent with no success between: the circuit opened after the third.
    expect(s.upstreams.find((u) => u.name === 'a')).toMatchObject({ calls: 4, failures: 3, state: 'circuit open', lastError: 'upstream MCP session is closed' });
  });

  it('sends every identical failed call on the off arm', async () => {
    const dir = folder();
    const { url } = await gateway(dir, { arm: 'off' });
    const c = await client(url);
    await c.listTools();
    for (let i = 0; i < 3; i += 1) expect(textOf(await c.callTool({ name: 'a__fail', arguments: {} }))).toBe('upstream MCP session is closed');
  });

  it('short-circuits the third identical call to a declared deterministic tool within a turn, and counts afresh in the next', async () => {
    const dir = folder();
    const { url } = await gateway(dir, { deterministic: ['a__echo'] });
    const c = await client(url);
    await c.listTools();
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(textOf(await c.callTool({ name: 'a__echo', arguments: { n: 7 } })));
    await c.listTools();
    answers.push(textOf(await c.callTool({ name: 'a__echo', arguments: { n: 7 } })));
    expect(answers[0]).toBe('echo {"n":7}');
    expect(answers[1]).toBe('echo {"n":7}');
    expect(answers[2]).not.toBe('echo {"n":7}');
    expect(answers[2]).toMatch(/identical/i);
    expect(answers[3]).toBe('echo {"n":7}');
    expect(readFileSync(join(dir, 'a.pids'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('begins a turn after the idle gap when the policy says so', async () => {
    const dir = folder();
    // The gap is read off a clock the test moves: with a real 0.3 s gap, two calls that a
    // loaded machine answers more than 0.3 s apart would fall in two turns.
    let skew = 0;
    const { url } = await gateway(dir, { turn: 'idle=60' }, () => Date.now() + skew);
    const c = await client(url);
    await c.listTools();
    await c.callTool({ name: 'a__fail', arguments: {} });
    expect(textOf(await c.callTool({ name: 'a__fail', arguments: {} }))).toContain('Not sent again');
    skew += 30_000;
    expect(textOf(await c.callTool({ name: 'a__fail', arguments: {} }))).toContain('Not sent again');
    skew += 60_000;
    expect(textOf(await c.callTool({ name: 'a__fail', arguments: {} }))).toBe('upstream MCP session is closed');
  });

  it('restarts a server that crashed, keeps its tools listed, and answers the other meanwhile', async () => {
    const dir = folder();
    const { url } = await gateway(dir);
    const c = await client(url);
    await c.listTools();
    const crashed = await c.callTool({ name: 'a__crash', arguments: {} });
    expect(crashed.isError).toBe(true);
    // Until it is back (a second at least), its calls are answered so, without reaching it.
    expect(textOf(await c.callTool({ name: 'a__echo', arguments: { n: 0 } }))).toBe('a__echo was not called: server a is restarting after its connection closed; its tools stay listed, and the gateway says when it is back in its status.');
    expect(textOf(await c.callTool({ name: 'b__echo', arguments: { n: 1 } }))).toBe('echo {"n":1}');
    const back = await until(() => status(url), (s) => s.upstreams[0]!.restarts === 1);
    expect(back.upstreams[0]).toMatchObject({ name: 'a', state: 'up', restarts: 1, tools: 5 });
    expect(textOf(await c.callTool({ name: 'a__echo', arguments: { n: 2 } }))).toBe('echo {"n":2}');
    expect(readFileSync(join(dir, 'a.pids'), 'utf8').trim().split('\n')).toHaveLength(2);
    // The status shows commands, never the env values given to them.
    expect(JSON.stringify(back)).not.toContain('secret-a-');
  });

  it('sends the identical call again, in the same turn, once the server that failed it has been restarted', async () => {
    const dir = folder();
    const once = { ...crashy(dir, 'a'), env: { ...crashy(dir, 'a').env, CRASHY_CRASHED: join(dir, 'a.crashed') } };
    const running = await startGateway({ servers: serversFile(dir, { a: once }), transport: 'http' }, { env: { LADDER_STATE_DIR: join(dir, 'state') }, log: () => undefined });
    open.push(running);
    const url = running.url!;
    const c = await client(url);
    await c.listTools();
    const turn = (await status(url)).turn;
    const crashed = await c.callTool({ name: 'a__crash', arguments: { n: 1 } });
    expect(textOf(crashed)).toMatch(/Connection closed/);
    await until(() => status(url), (s) => s.upstreams[0]!.restarts === 1);
    // The restarted server's first failure is remembered as before: the breaker still works.
    expect(textOf(await c.callTool({ name: 'a__fail', arguments: { n: 2 } }))).toBe('upstream MCP session is closed');
    expect(textOf(await c.callTool({ name: 'a__fail', arguments: { n: 2 } }))).toMatch(/^upstream MCP session is closed\nNot sent again: the identical call failed at round \d+ of this turn/);
    // The call the old process failed is not refused by the new one's breaker.
    expect(textOf(await c.callTool({ name: 'a__crash', arguments: { n: 1 } }))).toBe('crash survived {"n":1}');
    expect((await status(url)).turn).toBe(turn);
    expect(readFileSync(join(dir, 'a.pids'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it("passes the client's cancellation on to the upstream", async () => {
    const dir = folder();
    const { url } = await gateway(dir);
    const c = await client(url);
    await c.listTools();
    const abort = new AbortController();
    const call = c.callTool({ name: 'a__hang', arguments: {} }, undefined, { signal: abort.signal });
    await until(async () => (await status(url)).upstreams[0]!.calls, () => false, 300);
    abort.abort();
    await expect(call).rejects.toThrow();
    const seen = await until(async () => { try { return readFileSync(join(dir, 'a.cancelled'), 'utf8'); } catch { return ''; } }, (t) => t !== '');
    expect(seen).toBe('cancelled\n');
  });

  it("passes an upstream's progress on to the client, with the client's token, before the answer", async () => {
    // Raw Streamable HTTP, to read the stream as sent: the SDK's own client drops a progress
    // notification that arrives in the same chunk as its answer (docs/gateway.md).
    const dir = folder();
    const { url } = await gateway(dir);
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const post = (body: unknown, session?: string) => fetch(url, {
      method: 'POST', headers: { ...headers, ...(session === undefined ? {} : { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' }) }, body: JSON.stringify(body),
    });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session)).text();
    const call = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'a__steps', arguments: {}, _meta: { progressToken: 'mine-7' } } }, session);
    const messages = (await call.text()).split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)));
    expect(messages).toEqual([
      ...[1, 2, 3].map((i) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'mine-7', progress: i, total: 3, message: `step ${i}` } })),
      { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'three steps done' }] } },
    ]);
  });

  it('answers a call past the in-flight limit with a JSON-RPC error and keeps serving', async () => {
    const dir = folder();
    const { url } = await startGatewayWithLimit(dir);
    const c = await client(url);
    await c.listTools();
    const hanging = new AbortController();
    const held = c.callTool({ name: 'a__hang', arguments: {} }, undefined, { signal: hanging.signal });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(c.callTool({ name: 'b__echo', arguments: {} })).rejects.toThrow();
    hanging.abort();
    await held.catch(() => undefined);
    expect(textOf(await c.callTool({ name: 'b__echo', arguments: { n: 3 } }))).toBe('echo {"n":3}');
  });

  it('answers garbage and an oversized body with JSON-RPC errors', async () => {
    const dir = folder();
    const { url } = await gateway(dir);
    const garbage = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{not json' });
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON' }, id: null });
    const big = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ x: 'y'.repeat(5 * 1024 * 1024) }) }).catch(() => undefined);
    expect(big === undefined || big.status === 413).toBe(true);
    // Still serving.
    const c = await client(url);
    expect((await c.listTools()).tools).toHaveLength(11);
  });
});

async function startGatewayWithLimit(dir: string) {
  // One call in flight at most, through the standalone backend's own option.
  const { StandaloneGateway } = await import('../../src/gateway/standalone.ts');
  const { serveGatewayHttp } = await import('../../src/gateway/mcp/http.ts');
  const { gatewayServer } = await import('../../src/gateway/mcp/server.ts');
  const { DEFAULT_TURN_POLICY } = await import('../../src/gateway/turns.ts');
  const backend = await StandaloneGateway.start({ servers: { a: crashy(dir, 'a'), b: crashy(dir, 'b') }, arm: 'on', turns: DEFAULT_TURN_POLICY, maxInFlight: 1 });
  open.push(backend);
  const http = await serveGatewayHttp({ newServer: () => gatewayServer({ backend }) });
  open.push(http);
  return http;
}

describe('ladder gateway --otlp', () => {
  it("sends each turn's spans, named as ladder export names a run's, when the next turn begins and at the end", async () => {
    const { startReceiver } = await import('../export/receiver.ts');
    const receiver = await startReceiver();
    open.push({ close: async () => receiver[Symbol.asyncDispose]() });
    const dir = folder();
    const running = await gateway(dir, { otlp: receiver.url });
    const c = await client(running.url);
    await c.listTools();
    await c.callTool({ name: 'a__echo', arguments: { n: 1 } });
    await c.callTool({ name: 'a__fail', arguments: {} });
    await c.listTools();
    await running.close();
    const spans = receiver.spans();
    const names = spans.map((s) => s.name);
    // Turn 1 (the start's collision check) has only its listing; turn 2 the two calls; turn 3 its listing.
    expect(names.filter((n) => n === 'invoke_workflow gateway')).toHaveLength(3);
    expect(names).toContain('execute_tool a__echo');
    expect(names).toContain('execute_tool a__fail');
    const failed = spans.find((s) => s.name === 'execute_tool a__fail')!;
    expect(failed.attributes['ladder.call.turn']).toBe(2);
    expect(receiver.requests[0]!.resource['service.name']).toBe('ladder-gateway');
    // No content: the call's arguments and result are not on the span.
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('"n":1');
  });

  it('refuses a URL that cannot be an OTLP/HTTP endpoint in one line', async () => {
    const dir = folder();
    await expect(startGateway({ servers: serversFile(dir, { a: crashy(dir, 'a') }), transport: 'http', otlp: 'grpc://x:4317' },
      { env: { LADDER_STATE_DIR: join(dir, 'state') }, log: () => undefined })).rejects.toThrow('--otlp "grpc://x:4317": OTLP/HTTP needs an http:// or https:// URL (gRPC endpoints are not supported)');
  });
});

describe('ladder gateway input mistakes, each one line before anything is served', () => {
  const attempt = async (request: Partial<Parameters<typeof startGateway>[0]>, dir = folder()) =>
    startGateway({ servers: join(dir, 'missing.json'), transport: 'http', ...request }, { env: { LADDER_STATE_DIR: join(dir, 'state') }, log: () => undefined })
      .then((r) => { open.push(r); return 'started'; }, (e: Error) => e.message);

  it('names a missing file, a file that is not JSON, a bad server name and an empty list', async () => {
    const dir = folder();
    expect(await attempt({}, dir)).toBe(`--servers ${join(dir, 'missing.json')}: no such file; give a JSON file with an "mcpServers" object, as Claude Desktop, Cursor and Claude Code write it`);
    writeFileSync(join(dir, 'bad.json'), '{"mcpServers": {');
    expect(await attempt({ servers: join(dir, 'bad.json') }, dir)).toMatch(/^--servers .*bad\.json: not JSON \(.*\); the file holds \{"mcpServers"/);
    expect(await attempt({ servers: serversFile(dir, { My_Server: { command: 'node' } }) }, dir)).toMatch(/^--servers .*mcp\.json: mcpServers: .*My_Server/);
    expect(await attempt({ servers: serversFile(dir, {}) }, dir)).toMatch(/mcpServers is empty; add at least one server$/);
  });

  it('refuses a bad arm, a bad turn policy, a port in use and a non-loopback host without a token', async () => {
    const dir = folder();
    const servers = serversFile(dir, { a: crashy(dir, 'a') });
    expect(await attempt({ servers, arm: 'breaker=sideways' }, dir)).toMatch(/breaker/);
    expect(await attempt({ servers, turn: 'sometimes' }, dir)).toBe('--turn sometimes: "sometimes" is not list, meta or idle=<seconds>; e.g. --turn list,meta,idle=60');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    expect(await attempt({ servers, port }, dir)).toBe(`--port ${port}: in use on 127.0.0.1; choose another --port, or 0 for a free one`);
    holder.close();
    expect(await attempt({ servers, host: '0.0.0.0' }, dir)).toBe('--host 0.0.0.0 is not a loopback address; give a --token (or LADDER_GATEWAY_TOKEN) to serve beyond this machine');
  });

  it('refuses a server that lists two tools under one name, naming both', async () => {
    const dir = folder();
    const twice = { ...crashy(dir, 'a'), env: { ...crashy(dir, 'a').env, CRASHY_TWICE: '1' } };
    const servers = serversFile(dir, { a: twice, b: crashy(dir, 'b') });
    expect(await attempt({ servers }, dir)).toBe('tool name collision: server "a" tool "echo" and server "a" tool "echo" are both named "a__echo"; rename one of them or remove the server');
    // Nothing of it is left running: both servers' processes were stopped with the gateway.
    const pids = ['a', 'b'].flatMap((n) => readFileSync(join(dir, `${n}.pids`), 'utf8').trim().split('\n').map(Number));
    expect(pids.filter((pid) => { try { process.kill(pid, 0); return true; } catch { return false; } })).toEqual([]);
  });
});

describe("the supervisor's wait between restarts", () => {
  it('leaves no listener on the stop signal once it has waited, however many restarts there were', async () => {
    const stop = new AbortController();
    for (let i = 0; i < 12; i += 1) await abortableSleep(1, stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('ends at once, rejecting with the reason, when the gateway stops', async () => {
    const stop = new AbortController();
    const waiting = abortableSleep(60_000, stop.signal);
    stop.abort(new Error('stopping'));
    await expect(waiting).rejects.toThrow('stopping');
  });
});
