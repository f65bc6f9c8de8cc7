// An MCP server scripted per test, in this process, over the SDK's in-memory transport pair:
// real protocol traffic, and counters at the wire (listings, calls per tool, progress tokens).
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ServerNotification, ServerRequest, Tool } from '@modelcontextprotocol/sdk/types.js';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
export type Handler = (args: Record<string, unknown>, extra: Extra) => CallToolResult | Promise<CallToolResult>;

export interface ScriptedTool {
  name: string;
  description?: string;
  meta?: Record<string, unknown>;
  annotations?: Tool['annotations'];
  handler: Handler;
}

export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
export const toolError = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }], isError: true });

export class ScriptedServer {
  readonly server = new Server({ name: 'scripted', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  /** The client end, for the lane's `{ transport }` server config. */
  readonly transport: InMemoryTransport;
  readonly calls = new Map<string, number>();
  /** Arguments of every call, in order. */
  readonly received: { name: string; args: Record<string, unknown>; progressToken: unknown }[] = [];
  listings = 0;
  /** Tools per page; every listing page is a round trip counted in `listings`. */
  pageSize = Infinity;
  /** While true, every tools/list request fails. */
  failListing = false;
  #tools: ScriptedTool[];

  constructor(tools: ScriptedTool[] = []) {
    this.#tools = [...tools];
    const [client, server] = InMemoryTransport.createLinkedPair();
    this.transport = client;
    this.server.setRequestHandler(ListToolsRequestSchema, (request) => {
      this.listings += 1;
      if (this.failListing) throw new Error('listing is down');
      const start = Number(request.params?.cursor ?? 0);
      const page = this.#tools.slice(start, start + this.pageSize);
      const next = start + page.length < this.#tools.length ? String(start + page.length) : undefined;
      return { tools: page.map(toTool), ...(next === undefined ? {} : { nextCursor: next }) };
    });
    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args = {} } = request.params;
      this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
      this.received.push({ name, args, progressToken: request.params._meta?.progressToken });
      const tool = this.#tools.find((t) => t.name === name);
      if (tool === undefined) return toolError(`unknown tool ${name}`);
      return tool.handler(args, extra);
    });
    void this.server.connect(server);
  }

  callsTo(name: string): number {
    return this.calls.get(name) ?? 0;
  }

  /** Adds a tool and tells the client, as a server does when its surface changes. */
  async addTool(tool: ScriptedTool): Promise<void> {
    this.#tools.push(tool);
    await this.server.sendToolListChanged();
  }
}

function toTool(tool: ScriptedTool): Tool {
  return {
    name: tool.name,
    description: tool.description ?? `the ${tool.name} tool`,
    inputSchema: { type: 'object', properties: {} },
    ...(tool.meta === undefined ? {} : { _meta: tool.meta }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
}

/** A tool that always answers with the same text. */
export function fixed(name: string, answer = `${name} ok`): ScriptedTool {
  return { name, handler: () => text(answer) };
}

/** A tool that always fails, as the dead browser did (docs/incidents.md, "A dead tool called six times in one turn"). */
export function dead(name: string, error = 'upstream MCP session is closed'): ScriptedTool {
  return { name, handler: () => toolError(error) };
}

/** A fake clock tests move by hand. */
export function fakeClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let now = start;
  return { now: () => now, advance: (ms) => { now += ms; } };
}
