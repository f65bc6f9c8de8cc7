// What the gateway tests do with a running `ladder gateway`: start one over HTTP, connect a
// user's client to it, and read a call's text, its status, and a poll until that status says
// something.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startGateway } from '../../src/gateway/serve.ts';
import type { GatewayRequest, RunningGateway } from '../../src/gateway/serve.ts';
import type { GatewayStatus } from '../../src/gateway/status.ts';
import type { Clock } from '../../src/reliability/index.ts';

/** `ladder gateway --transport http` over the servers file `servers`, its state under `dir`, quiet; on `clock` when given. */
export async function httpGateway(servers: string, dir: string, extra: Partial<GatewayRequest> = {}, clock?: Clock): Promise<RunningGateway & { url: string }> {
  const world = { env: { LADDER_STATE_DIR: join(dir, 'state') }, log: () => undefined, ...(clock === undefined ? {} : { clock }) };
  const running = await startGateway({ servers, transport: 'http', ...extra }, world);
  return running as RunningGateway & { url: string };
}

/** A user's client (the MCP SDK's), connected to the gateway at `url`. */
export async function userClient(url: string): Promise<Client> {
  const client = new Client({ name: 'user-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The first text of a call's result, from either SDK line's client. */
export const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

export async function status(url: string): Promise<GatewayStatus> {
  return (await (await fetch(new URL('/status', url))).json()) as GatewayStatus;
}

/** Reads until `done` holds or `ms` pass; the last value either way, for the test to assert on. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
