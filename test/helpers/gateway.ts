// What the gateway tests read of a running `ladder gateway`: a call's text, its status, and a
// poll until that status says something.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { GatewayStatus } from '../../src/gateway/status.ts';

export const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string => (result.content as { text: string }[])[0]!.text;

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
