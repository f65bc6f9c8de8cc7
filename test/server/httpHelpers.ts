// An HTTP workbench on a free loopback port, a client for it, and raw requests for the cases
// a well-behaved client never sends.
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveHttp, type HttpServeOptions } from '../../src/server/http.ts';
import type { WorkbenchOptions } from '../../src/server/options.ts';
import { createWorkbench, type Workbench } from '../../src/server/workbench.ts';
import { tempDir } from './helpers.ts';

export interface Served extends AsyncDisposable {
  url: string;
  port: number;
  dir: string;
  workbench: Workbench;
  logs: string[];
  /** `listChanged` counts tools/list_changed notifications; `nextListChanged` settles at the next one. */
  connect(headers?: Record<string, string>): Promise<{ client: Client; listChanged: () => number; nextListChanged: () => Promise<void> }>;
}

export async function served(
  options: Partial<WorkbenchOptions> = {},
  http: Partial<Omit<HttpServeOptions, 'workbench'>> = {},
): Promise<Served> {
  const temp = tempDir();
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const workbench = createWorkbench({ log, ...options, workspace: temp.dir });
  const serving = await serveHttp({ workbench, log, ...http });
  const clients: Client[] = [];
  return {
    url: serving.url,
    port: serving.port,
    dir: temp.dir,
    workbench,
    logs,
    async connect(headers = {}) {
      const client = new Client({ name: 'ladder-http-test', version: '0.0.0' });
      let changes = 0;
      let waiters: (() => void)[] = [];
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes += 1;
        for (const wake of waiters) wake();
        waiters = [];
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers } }));
      clients.push(client);
      const nextListChanged = () => new Promise<void>((resolve) => waiters.push(resolve));
      return { client, listChanged: () => changes, nextListChanged };
    },
    [Symbol.asyncDispose]: async () => {
      await Promise.allSettled(clients.map((client) => client.close()));
      await serving.close();
      await workbench.close();
      await temp[Symbol.asyncDispose]();
    },
  };
}

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request with exactly the headers given (fetch would not let a test set Host). */
export function raw(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'POST', headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

export const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
