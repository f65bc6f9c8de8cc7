// The SDK's server side (its v2 line, both eras): the servers, the transports they are served
// over, and the predicates that tell a 2025 request (initialize, a session's traffic) from a
// 2026-07-28 one (`server/discover`, a request carrying the per-request `_meta` envelope). The
// workbench (src/server/) and the gateway's front (src/gateway/) build on these and on nothing
// else of the SDK.
export {
  createMcpHandler, inputRequired, inputResponse, isInitializeRequest, isLegacyRequest, McpServer, Server, WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
export type { McpHttpHandler } from '@modelcontextprotocol/server';
export { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
