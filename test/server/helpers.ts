// Fixtures for the workbench tests: a temporary workspace, a real MCP client on an
// in-memory pair, and a manual clock that moves only when a test says so.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createWorkbench, type Workbench } from '../../src/server/workbench.ts';
import type { WorkbenchOptions } from '../../src/server/options.ts';

export interface TempDir extends AsyncDisposable {
  dir: string;
}

export function tempDir(prefix = 'ladder-wb-'): TempDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, [Symbol.asyncDispose]: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Time that stands still until `advance`; sleepers wake in order of their deadlines. */
export class ManualClock {
  #now = 0;
  #timers: { at: number; resolve: () => void }[] = [];
  readonly clock = (): number => this.#now;
  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = { at: this.#now + Math.max(0, ms), resolve };
      this.#timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal.reason);
      });
    });

  /** Moves time forward by `ms`, waking each sleeper at its own deadline. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      await settle();
      const due = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = Math.max(this.#now, due.at);
      due.resolve();
    }
    this.#now = end;
    await settle();
  }
}

/** Lets every pending message and promise chain run (the in-memory transport included). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface Connected extends AsyncDisposable {
  client: Client;
  workbench: Workbench;
  dir: string;
  /** How many notifications/tools/list_changed the client has received. */
  listChanged: () => number;
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
}

/** A workbench on a fresh workspace, connected to a client over an in-memory pair. */
export async function connected(options: Partial<WorkbenchOptions> = {}, setup?: (dir: string) => void): Promise<Connected> {
  const temp = tempDir();
  setup?.(temp.dir);
  const workbench = createWorkbench({ log: () => {}, ...options, workspace: temp.dir });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await workbench.server.connect(serverSide);
  const client = new Client({ name: 'ladder-test', version: '0.0.0' });
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes += 1;
  });
  await client.connect(clientSide);
  return {
    client,
    workbench,
    dir: temp.dir,
    listChanged: () => changes,
    call: (name, args = {}) => callText(client, name, args),
    [Symbol.asyncDispose]: async () => {
      await client.close();
      await workbench.close();
      await temp[Symbol.asyncDispose]();
    },
  };
}

export async function callText(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  return { text, isError: result.isError === true };
}
