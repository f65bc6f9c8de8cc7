// A real lane over the SDK's in-memory transport pair, against a tool server scripted per test,
// and a model adapter scripted per test: real protocol traffic, counted at the wire.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Lane } from '../../src/lane/index.ts';
import type { ModelAdapter, ModelRequest, ModelResponse, ToolCall } from '../../src/models/types.ts';
import { MemoryTrace } from '../../src/trace/index.ts';

export interface FakeTool {
  name: string;
  /** Declared deterministic through `_meta`, as the workbench declares its catalog. */
  deterministic?: boolean;
  handler: (args: Record<string, unknown>) => CallToolResult | Promise<CallToolResult>;
}

export const ok = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });
export const fail = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

export class ToolServer {
  readonly received: { name: string; args: Record<string, unknown> }[] = [];
  readonly #tools: FakeTool[];
  readonly transport: InMemoryTransport;

  constructor(tools: FakeTool[]) {
    this.#tools = [...tools];
    const server = new Server({ name: 'fake', version: '1.0.0' }, { capabilities: { tools: {} } });
    const [client, end] = InMemoryTransport.createLinkedPair();
    this.transport = client;
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.#tools.map(toTool) }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args = {} } = request.params;
      this.received.push({ name, args });
      const tool = this.#tools.find((t) => t.name === name);
      return tool === undefined ? fail(`unknown tool ${name}`) : tool.handler(args);
    });
    void server.connect(end);
  }

  /** A tool that appears without a list_changed notification: only a re-listing finds it. */
  addSilently(tool: FakeTool): void {
    this.#tools.push(tool);
  }

  sent(name: string): { name: string; args: Record<string, unknown> }[] {
    return this.received.filter((r) => r.name === name);
  }
}

function toTool(tool: FakeTool): Tool {
  return {
    name: tool.name,
    description: `the ${tool.name} tool`,
    inputSchema: { type: 'object', properties: {} },
    ...(tool.deterministic === true ? { _meta: { 'ladder/deterministic': true } } : {}),
  };
}

/** One pass's world: the server named `wb`, a lane over it on `arm`, and one trace. */
export async function world(tools: FakeTool[], arm = 'on') {
  const server = new ToolServer(tools);
  const trace = new MemoryTrace();
  const lane = await Lane.connect({ servers: { wb: { transport: server.transport } }, arm, emit: trace.emit, trustServerHints: true });
  return { server, trace, lane };
}

export type Reply = { text?: string; calls?: { id?: string; name: string; args?: Record<string, unknown> }[] };

/** A model that answers from a script of replies, one per request, and keeps every request. */
export class FakeModel implements ModelAdapter {
  readonly spec = 'fake:scripted';
  readonly provider = 'openai' as const;
  readonly model = 'scripted';
  readonly requests: ModelRequest[] = [];
  readonly #reply: (request: ModelRequest, n: number) => Reply | Promise<Reply>;

  constructor(reply: (request: ModelRequest, n: number) => Reply | Promise<Reply>) {
    this.#reply = reply;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const n = this.requests.length;
    const reply = await this.#reply(request, n);
    const toolCalls: ToolCall[] = (reply.calls ?? []).map((c, i) => ({ id: c.id ?? `call_${n}_${i}`, name: c.name, args: c.args ?? {} }));
    return {
      text: reply.text ?? '',
      toolCalls,
      usage: { inputTokens: 100 * n, outputTokens: 10 * n },
      latencyMs: 5,
      attempts: 1,
      retryWaitMs: 0,
      stopReason: toolCalls.length > 0 ? 'tool_calls' : 'end',
      providerStopReason: null,
      ignoredOptions: [],
      details: { provider: 'openai', id: null, model: 'scripted', systemFingerprint: null },
    };
  }
}
