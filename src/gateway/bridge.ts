// The stdio bridge, for agents that only start commands: `ladder gateway bridge --url URL`
// speaks MCP over stdio and forwards every list and call to a gateway over Streamable HTTP
// (a run's pass gateway, with its token from LADDER_MCP_TOKEN). It applies no mechanism of its
// own: the gateway behind it does, and records what it did.
import { httpClientTransport, newClient } from '../mcp/client.ts';
import type { CallToolResult, Client, Tool } from '../mcp/types.ts';
import type { LaneTool } from '../lane/index.ts';
import { CLIENT_INFO } from '../lane/connections.ts';
import { ToolsChanged } from './mcp/backend.ts';
import type { GatewayAnswer, GatewayBackend, GatewayCallAt } from './mcp/backend.ts';

/** Pages followed, as the lane follows them. */
const MAX_PAGES = 64;

export class Bridge implements GatewayBackend {
  readonly #client: Client;
  readonly #changed: ToolsChanged;

  private constructor(client: Client, changed: ToolsChanged) {
    this.#client = client;
    this.#changed = changed;
  }

  static async connect(url: string, token: string | undefined): Promise<Bridge> {
    const changed = new ToolsChanged();
    const client = newClient(CLIENT_INFO, { toolsChanged: () => changed.fire() });
    const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
    await client.connect(httpClientTransport(url, headers));
    return new Bridge(client, changed);
  }

  async tools(): Promise<readonly LaneTool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const listed = await this.#client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema }));
  }

  async call(name: string, args: Record<string, unknown> | undefined, at: GatewayCallAt): Promise<GatewayAnswer> {
    const result = await this.#client.callTool({ name, ...(args === undefined ? {} : { arguments: args }) }, undefined, {
      signal: at.signal, ...(at.onProgress === undefined ? {} : { onprogress: at.onProgress }),
    }) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
    return { text, isError: result.isError === true, outcome: result.isError === true ? 'failed' : 'ok' };
  }

  onToolsChanged(listener: () => void): () => void {
    return this.#changed.subscribe(listener);
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}
