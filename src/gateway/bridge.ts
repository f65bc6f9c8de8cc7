// The stdio bridge, for agents that only start commands: `ladder gateway bridge --url URL`
// speaks MCP over stdio and forwards every list and call to a gateway over Streamable HTTP
// (a run's pass gateway, with its token from LADDER_MCP_TOKEN). It applies no mechanism of its
// own: the gateway behind it does, and records what it did.
import { callTool, closeClient, httpClientTransport, listToolsPage, newClient } from '../mcp/client.ts';
import type { Client, Tool, Transport } from '../mcp/types.ts';
import type { LaneTool } from '../lane/index.ts';
import { CLIENT_INFO } from '../lane/connections.ts';
import { ToolsChanged } from './mcp/backend.ts';
import type { GatewayAnswer, GatewayBackend, GatewayCallAt } from './mcp/backend.ts';

/** Pages followed, as the lane follows them. */
const MAX_PAGES = 64;

export class Bridge implements GatewayBackend {
  readonly #client: Client;
  readonly #transport: Transport;
  readonly #changed: ToolsChanged;

  private constructor(client: Client, transport: Transport, changed: ToolsChanged) {
    this.#client = client;
    this.#transport = transport;
    this.#changed = changed;
  }

  static async connect(url: string, token: string | undefined): Promise<Bridge> {
    const changed = new ToolsChanged();
    const client = newClient(CLIENT_INFO, { toolsChanged: () => changed.fire() });
    const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
    const transport = httpClientTransport(url, headers);
    await client.connect(transport);
    return new Bridge(client, transport, changed);
  }

  async tools(): Promise<readonly LaneTool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const listed = await listToolsPage(this.#client, cursor, undefined);
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema }));
  }

  async call(name: string, args: Record<string, unknown> | undefined, at: GatewayCallAt): Promise<GatewayAnswer> {
    const result = await callTool(this.#client, name, args ?? {}, {
      signal: at.signal, ...(at.onProgress === undefined ? {} : { onprogress: at.onProgress }),
    });
    const text = result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
    return { text, isError: result.isError === true, outcome: result.isError === true ? 'failed' : 'ok' };
  }

  onToolsChanged(listener: () => void): () => void {
    return this.#changed.subscribe(listener);
  }

  close(): Promise<void> {
    return closeClient(this.#client, this.#transport);
  }
}
