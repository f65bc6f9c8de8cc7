// `ladder gateway` over HTTP ends a session whose client left without DELETE, once it has had
// nothing open for the session idle time, and keeps one whose client is still there (its GET
// stream open, or a call in flight). The SDK's own client is the user's client: its close()
// sends no DELETE, as the v2 client's does not. The idle times are seconds, not less: a client's
// handshake leaves its session with nothing open between its requests, for longer than 0.4 s on a
// loaded machine, and a session ended there fails the client's connect.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayInputError, startGateway } from '../../src/gateway/serve.ts';
import { SESSION_IDLE_MS } from '../../src/gateway/mcp/http.ts';
import { statusText } from '../../src/gateway/status.ts';
import { status, textOf, until } from '../helpers/gateway.ts';

const CRASHY = fileURLToPath(new URL('../fixtures/crashy-server.mjs', import.meta.url));
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).reverse().map((o) => o.close()));
});

async function gateway(sessionIdle?: number): Promise<{ url: string; logs: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'ladder-sessions-'));
  const servers = join(dir, 'mcp.json');
  writeFileSync(servers, JSON.stringify({ mcpServers: { a: { command: 'node', args: [CRASHY] } } }));
  const logs: string[] = [];
  const running = await startGateway({ servers, transport: 'http', ...(sessionIdle === undefined ? {} : { sessionIdle }) },
    { env: { LADDER_STATE_DIR: join(dir, 'state') }, log: (line) => logs.push(line) });
  open.push(running);
  return { url: running.url!, logs };
}

async function client(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const c = new Client({ name: 'user-client', version: '1.0.0' });
  await c.connect(transport);
  open.push(c);
  return { client: c, transport };
}

describe('ladder gateway sessions over HTTP', () => {
  it('keeps a session 10 minutes idle by default', () => {
    expect(SESSION_IDLE_MS).toBe(600_000);
  });

  it('ends the sessions of clients that left without DELETE after the idle time, and keeps the one still connected', async () => {
    const { url, logs } = await gateway(2);
    const stays = await client(url);
    await stays.client.listTools();
    const leavers = [];
    for (let i = 0; i < 5; i += 1) {
      const leaver = await client(url);
      expect(textOf(await leaver.client.callTool({ name: 'a__echo', arguments: { n: i } }))).toBe(`echo {"n":${i}}`);
      leavers.push(leaver);
    }
    for (const leaver of leavers) await leaver.client.close();
    expect((await status(url)).sessions).toBe(6);
    const after = await until(() => status(url), (s) => s.sessions === 1, 15_000);
    expect(after.sessions).toBe(1);
    expect(statusText(after)[0]).toContain(', 1 session, since');
    expect(logs.filter((line) => line.includes('ended after 2 s with nothing open (its client left without DELETE)'))).toHaveLength(5);
    // Idle past the time with its GET stream open, the client that stayed is still served.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(textOf(await stays.client.callTool({ name: 'a__echo', arguments: { n: 9 } }))).toBe('echo {"n":9}');
    expect((await status(url)).sessions).toBe(1);
  });

  it('answers an ended session 404, as the spec asks, so its client can start a new one', async () => {
    const { url } = await gateway(2);
    const gone = await client(url);
    const id = gone.transport.sessionId!;
    await gone.client.close();
    await until(() => status(url), (s) => s.sessions === 0, 15_000);
    const response = await fetch(url, {
      method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18' },
    });
    expect(response.status).toBe(404);
  });

  it('does not end a session while a call of it is in flight, and ends it once the call is gone', async () => {
    const { url } = await gateway(1);
    // Raw requests: a session with no GET stream, whose one open request is a call that hangs.
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const post = (body: unknown, session?: string, signal?: AbortSignal) => fetch(url, {
      method: 'POST', body: JSON.stringify(body), ...(signal === undefined ? {} : { signal }),
      headers: { ...headers, ...(session === undefined ? {} : { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' }) },
    });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    const abort = new AbortController();
    const call = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'a__hang', arguments: {} } }, session, abort.signal);
    void call.text().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await status(url)).sessions).toBe(1);
    abort.abort();
    expect((await until(() => status(url), (s) => s.sessions === 0, 15_000)).sessions).toBe(0);
  });

  it("ends a call's stream once the client cancels the call, so a client that gives up without aborting holds nothing", async () => {
    const { url } = await gateway(1);
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const post = (body: unknown, session?: string) => fetch(url, {
      method: 'POST', body: JSON.stringify(body),
      headers: { ...headers, ...(session === undefined ? {} : { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' }) },
    });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    // The call hangs; the client keeps reading its stream, as the SDK's clients do after a timeout.
    const call = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'a__hang', arguments: {} } }, session);
    let ended = false;
    const read = call.text().then(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ended).toBe(false);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'timed out' } }, session)).status).toBe(202);
    // Left open, the stream never ends (no response is sent for a cancelled request) and the bound is reached.
    await Promise.race([read, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    expect(ended).toBe(true);
    // Nothing of the session is open any more: it ends after its idle time.
    expect((await until(() => status(url), (s) => s.sessions === 0, 15_000)).sessions).toBe(0);
  });

  it('keeps sessions until DELETE with --session-idle 0', async () => {
    const { url } = await gateway(0);
    const gone = await client(url);
    await gone.client.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await status(url)).sessions).toBe(1);
  });

  it.each([-1, Number.NaN])('refuses --session-idle %s in one line', async (idle) => {
    await expect(gateway(idle)).rejects.toThrow(new GatewayInputError(`--session-idle ${idle}: give the seconds a session with nothing open is kept (0 keeps it until its client sends DELETE)`));
  });
});
