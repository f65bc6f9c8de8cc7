// The MCP vocabulary the rest of Ladder speaks: the protocol's types, named once here so that no
// file outside src/mcp/ imports the SDK (test/mcp/seam.test.ts holds every file to that). When
// the SDK's next line renames or moves a type, this file changes and its users do not.
export type { Client } from '@modelcontextprotocol/sdk/client/index.js';
export type { Server } from '@modelcontextprotocol/sdk/server/index.js';
export type { McpServer, RegisteredTool, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
export type { ShapeOutput, ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
export type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export type { RequestHandlerExtra, RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
export type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
export type {
  CallToolResult,
  GetPromptResult,
  JSONRPCMessage,
  ListToolsResult,
  MessageExtraInfo,
  Notification,
  Prompt,
  ReadResourceResult,
  RequestId,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  ServerNotification,
  ServerRequest,
  Tool,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
