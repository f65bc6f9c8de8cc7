// An MCP server over Streamable HTTP on 127.0.0.1, stateless as a hosted server would run: a
// fresh server and transport for every request, its tools registered by the test each time.
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface StatelessMcp {
  /** The endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  close: () => Promise<void>;
}

/**
 * Listens on a free port; for each request, `onRequest` sees it first, then `register` adds the
 * tools to a new server named `name`, which answers it.
 */
export async function startStatelessMcp(
  name: string,
  register: (mcp: McpServer) => void,
  onRequest: (req: IncomingMessage) => void = () => {},
): Promise<StatelessMcp> {
  const http = createServer(async (req, res) => {
    onRequest(req);
    const mcp = new McpServer({ name, version: '1.0.0' });
    register(mcp);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
