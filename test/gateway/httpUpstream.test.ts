// `ladder gateway` in front of a Streamable HTTP server that drops and comes back:
// @modelcontextprotocol/server-everything in its HTTP mode, a real child process, stopped and
// started again on the same port. The SDK's client never closes on its own over HTTP, so the
// lane reads a lost session from the failed request (src/lane/connections.ts) and the
// gateway connects again with back-off, as it restarts a stdio server that exited.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from '../../src/gateway/serve.ts';
import { status, textOf, until } from '../helpers/gateway.ts';

const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const open: { close(): Promise<void> }[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.allSettled(open.splice(0).reverse().map((o) => o.close()));
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    }).once('error', () => resolve(false));
  });
}

/** server-everything over Streamable HTTP on `port`, once it accepts connections. */
async function everythingOn(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  children.push(child);
  const end = Date.now() + 20_000;
  while (!(await listening(port))) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`server-everything did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}




describe('ladder gateway: an HTTP upstream', () => {
  it('that drops is answered "restarting", connected again when it is back, and called as before', async () => {
    const port = await freePort();
    let upstream = await everythingOn(port);
    const dir = mkdtempSync(join(tmpdir(), 'ladder-gateway-http-'));
    const servers = join(dir, 'mcp.json');
    writeFileSync(servers, JSON.stringify({ mcpServers: { e: { url: `http://127.0.0.1:${port}/mcp` } } }));
    const running = await startGateway({ servers, transport: 'http', arm: 'circuit=off' }, { env: { LADDER_STATE_DIR: join(dir, 'state') }, log: () => undefined });
    open.push(running);
    const url = (running as unknown as { url: string }).url;
    const c = new Client({ name: 'user-client', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(url)));
    open.push(c);
    await c.listTools();
    expect(textOf(await c.callTool({ name: 'e__echo', arguments: { message: 'before' } }))).toBe('Echo: before');

    await stop(upstream);
    // The first call finds the server gone: it fails, and tells the gateway the session is lost.
    const lost = await c.callTool({ name: 'e__echo', arguments: { message: 'gone' } });
    expect(lost.isError).toBe(true);
    expect(textOf(await c.callTool({ name: 'e__echo', arguments: { message: 'meanwhile' } }))).toMatch(/^e__echo was not called: server e is restarting/);
    expect((await status(url)).upstreams[0]).toMatchObject({ name: 'e', state: 'restarting' });

    upstream = await everythingOn(port);
    const back = await until(() => status(url), (s) => s.upstreams[0]!.state === 'up', 20_000);
    expect(back.upstreams[0]).toMatchObject({ name: 'e', state: 'up', restarts: 1 });
    expect(textOf(await c.callTool({ name: 'e__echo', arguments: { message: 'after' } }))).toBe('Echo: after');
  });
});
