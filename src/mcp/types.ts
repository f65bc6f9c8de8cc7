// The MCP vocabulary the rest of Ladder speaks: the protocol's types, named once here so that no
// file outside src/mcp/ imports the SDK (test/mcp/seam.test.ts holds every file to that). When
// the SDK's next line renames or moves a type, this file changes and its users do not.
// The client is on the SDK's v2 line (both eras); the servers are still on v1 (2025 only).
export type { CallToolResult, Client, ListToolsResult, RequestOptions, Tool, ToolAnnotations } from '@modelcontextprotocol/client';
export type { Protocol } from './protocols.ts';
export type { Server } from '@modelcontextprotocol/sdk/server/index.js';
export type { McpServer, RegisteredTool, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
export type { ShapeOutput, ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
export type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
export type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
export type {
  GetPromptResult,
  JSONRPCMessage,
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
} from '@modelcontextprotocol/sdk/types.js';
