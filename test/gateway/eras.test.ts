// `ladder gateway` in front of servers of both MCP eras: the SDK v2 fixture that speaks only
// 2026-07-28, beside a 2025 server (the crashy fixture, on the v1 SDK), each as a real stdio
// process, with a user's client over Streamable HTTP. The status names the revision each
// upstream speaks; one that refused the revision it was given is `refused`, is started once and
// never again, and the other keeps answering.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayRequest, RunningGateway } from '../../src/gateway/serve.ts';
import { statusText } from '../../src/gateway/status.ts';
import { Lane } from '../../src/lane/index.ts';
import { eraOf } from '../../src/mcp/stdioEras.ts';
import { httpGateway, status, textOf, userClient } from '../helpers/gateway.ts';
import { fixtureLog, inheritedEnv, V2_SERVER } from '../helpers/v2Server.ts';

const CRASHY = fileURLToPath(new URL('../fixtures/crashy-server.mjs', import.meta.url));
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).reverse().map((o) => o.close()));
});

async function gateway(servers: Record<string, unknown>, extra: Partial<GatewayRequest> = {}): Promise<RunningGateway & { url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ladder-gateway-eras-'));
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  const running = await httpGateway(file, dir, extra);
  open.push(running);
  return running;
}

async function client(url: string): Promise<Client> {
  const c = await userClient(url);
  open.push(c);
  return c;
}

const modern = (log: string) => ({ command: 'node', args: [V2_SERVER, 'modern', 'stdio'], env: { V2_FIXTURE_LOG: log } });
const old = (dir: string) => ({ command: 'node', args: [CRASHY], env: { CRASHY_PIDS: join(dir, 'old.pids'), CRASHY_CANCELLED: join(dir, 'old.cancelled') } });

describe('ladder gateway over both eras', () => {
  it('serves a 2026-07-28-only server beside a 2025 one, and says which revision each speaks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ladder-eras-'));
    const { url } = await gateway({ v2: modern(join(dir, 'v2.log')), old: old(dir) });
    const c = await client(url);
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['v2__add', 'old__echo']));
    expect(textOf(await c.callTool({ name: 'v2__add', arguments: { a: 4, b: 5 } }))).toBe('sum 9');
    const s = await status(url);
    expect(s.upstreams.map((u) => [u.name, u.state, u.protocol])).toEqual([['v2', 'up', '2026-07-28'], ['old', 'up', '2025-11-25']]);
    const text = statusText(s);
    expect(text[1]).toMatch(/^upstream +state +protocol +failures +restarts +tools +calls +p95 +last error$/);
    expect(text[2]).toMatch(/^v2 +up +2026-07-28 +0 +0 +3 +1 /);
  });

  it('marks a server that refused the revision it was given refused, starts it once, never restarts it, and serves the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ladder-eras-'));
    const log = join(dir, 'v2.log');
    const { url } = await gateway({ v2: { ...modern(log), protocol: 'legacy' }, old: old(dir) });
    const c = await client(url);
    expect(textOf(await c.callTool({ name: 'old__echo', arguments: { n: 1 } }))).toBe('echo {"n":1}');
    const s = await status(url);
    const v2 = s.upstreams.find((u) => u.name === 'v2')!;
    expect(v2).toMatchObject({ state: 'refused', protocol: null, restarts: 0 });
    expect(v2.lastError).toMatch(/^server "v2" refused Ladder's protocol version \(.*\): it speaks 2026-07-28, .*give it protocol: auto in its server entry, or --protocol auto$/);
    expect(v2.retryAt).toBeUndefined();
    // The supervisor's first retry would come after a second: wait past it, and count the starts.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(fixtureLog(log).filter((line) => line.startsWith('start '))).toHaveLength(1);
    expect(statusText(await status(url)).find((line) => line.startsWith('v2 '))).toMatch(/^v2 +refused +- +/);
  });

  it('answers a client pinned to 2026-07-28 and one pinned to 2025-11-25 at once, through the same layer, on one endpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ladder-eras-'));
    const { url } = await gateway({ old: old(dir) });
    const connect = async (mode: 'legacy' | { pin: string }) => {
      const c = new V2Client({ name: 'pinned', version: '1.0.0' }, { versionNegotiation: { mode } });
      await c.connect(new V2HttpTransport(new URL(url)));
      open.push(c);
      return c;
    };
    const modernClient = await connect({ pin: '2026-07-28' });
    const legacyClient = await connect('legacy');
    expect([modernClient.getNegotiatedProtocolVersion(), legacyClient.getNegotiatedProtocolVersion()]).toEqual(['2026-07-28', '2025-11-25']);
    for (const c of [modernClient, legacyClient]) {
      expect((await c.listTools()).tools.map((t) => t.name)).toContain('old__echo');
    }
    expect(textOf(await modernClient.callTool({ name: 'old__echo', arguments: { n: 1 } }))).toBe('echo {"n":1}');
    expect(textOf(await legacyClient.callTool({ name: 'old__echo', arguments: { n: 2 } }))).toBe('echo {"n":2}');
    // The breaker is the gateway's, whichever era a call came in: a call that failed in the
    // turn is refused to the other client too (one turn: no tools/list came between).
    const failed = await modernClient.callTool({ name: 'old__fail', arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(await legacyClient.callTool({ name: 'old__fail', arguments: {} }))).toMatch(/Not sent again: the identical call failed at round \d+ of this turn/);
    // Only the 2025 client holds a session.
    expect((await status(url)).sessions).toBe(1);
  });

  it("tells a 2026-07-28 client's subscriptions/listen stream when the tools change, as a 2025 session is told", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ladder-eras-'));
    const ws = join(dir, 'ws');
    mkdirSync(join(ws, 'release'), { recursive: true });
    // The workbench reveals release_publish once release/READY exists (checked after a call).
    const { url } = await gateway({ wb: { command: process.execPath, args: [fileURLToPath(new URL('../../bin/ladder.js', import.meta.url)), 'serve', '--workspace', ws] } });
    let told!: () => void;
    const changed = new Promise<void>((resolve) => (told = resolve));
    const modernClient = new V2Client({ name: 'listener', version: '1.0.0' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      listChanged: { tools: { autoRefresh: false, onChanged: () => told() } },
    });
    await modernClient.connect(new V2HttpTransport(new URL(url)));
    open.push(modernClient);
    expect((await modernClient.listTools()).tools.map((t) => t.name)).not.toContain('wb__release_publish');
    writeFileSync(join(ws, 'release', 'READY'), '');
    const other = await client(url);
    await other.callTool({ name: 'wb__files_list', arguments: {} });
    // The 2025 client's tools/list opens a turn, which lists the upstream again and finds the new tool.
    expect((await other.listTools()).tools.map((t) => t.name)).toContain('wb__release_publish');
    await changed;
    expect((await modernClient.listTools()).tools.map((t) => t.name)).toContain('wb__release_publish');
  });

  it('speaks the revision --protocol names with every upstream, over the entries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ladder-eras-'));
    const { url } = await gateway({ v2: { ...modern(join(dir, 'v2.log')), protocol: 'legacy' } }, { protocol: '2026-07-28' });
    const c = await client(url);
    expect(textOf(await c.callTool({ name: 'v2__echo', arguments: { text: 'hi' } }))).toBe('hi');
    expect((await status(url)).upstreams[0]).toMatchObject({ state: 'up', protocol: '2026-07-28' });
    expect(readFileSync(join(dir, 'v2.log'), 'utf8')).toMatch(/^start \d+\n$/);
  });
});

describe('ladder gateway over stdio, in the era its client opens with', () => {
  const LADDER = fileURLToPath(new URL('../../bin/ladder.js', import.meta.url));

  it('serves a client pinned to 2026-07-28, one pinned to 2025-11-25 and one on auto, each from its own gateway process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ladder-eras-stdio-'));
    const file = join(dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { old: old(dir) } }));
    const stdio = { command: process.execPath, args: [LADDER, 'gateway', '--servers', file], env: { ...inheritedEnv(), LADDER_STATE_DIR: dir } };
    for (const [protocol, revision] of [['2026-07-28', '2026-07-28'], ['legacy', '2025-11-25'], ['auto', '2026-07-28']] as const) {
      await using lane = await Lane.connect({ servers: { gw: { ...stdio, protocol } }, connectTimeoutMs: 60_000 });
      expect(lane.startErrors).toEqual([]);
      expect(lane.protocols()).toEqual({ gw: revision });
      await lane.openTurn();
      expect((await lane.call('gw__old__echo', { n: 1 }, { round: 1 })).text).toBe('echo {"n":1}');
      expect((await lane.call('gw__old__fail', {}, { round: 2 })).outcome).toBe('failed');
    }
    // Three gateway processes, each starting its upstream: seconds each on a loaded 2-core machine.
  }, 60_000);

  it('takes initialize as the 2025 era and anything else as 2026-07-28, a line it cannot parse included', () => {
    expect(eraOf('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}')).toBe('legacy');
    expect(eraOf('{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{}}')).toBe('modern');
    expect(eraOf('{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{"_meta":{}}}')).toBe('modern');
    expect(eraOf('not json')).toBe('modern');
  });
});
