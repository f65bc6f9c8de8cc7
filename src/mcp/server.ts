// The SDK's server side: the servers, the transports they are served over, and the request
// schemas their handlers are registered by. The workbench (src/server/) and the gateway's front
// (src/gateway/) build on these and on nothing else of the SDK.
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  isInitializeRequest,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

// The SDK's v2 server side, for what Ladder serves in the 2026-07-28 era: a server built per
// request (no session), the web-standard handler that serves it, and the predicate that tells a
// 2025 request (initialize, a session's traffic) from a 2026-07-28 one (`server/discover`, a
// request carrying the per-request `_meta` envelope).
export { createMcpHandler, isLegacyRequest, Server as ModernServer } from '@modelcontextprotocol/server';
export type { McpHttpHandler } from '@modelcontextprotocol/server';
