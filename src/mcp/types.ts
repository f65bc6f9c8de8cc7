// The MCP vocabulary the rest of Ladder speaks: the protocol's types, named once here so that no
// file outside src/mcp/ imports the SDK (test/mcp/seam.test.ts holds every file to that). When
// the SDK's next line renames or moves a type, this file changes and its users do not.
// The client and the servers are on the SDK's v2 line, which speaks both eras.
export type {
  CallToolResult,
  Client,
  GetPromptResult,
  JSONRPCMessage,
  MessageExtraInfo,
  Notification,
  Prompt,
  ReadResourceResult,
  RequestId,
  RequestOptions,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
  ToolAnnotations,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';
export type { Protocol } from './protocols.ts';
export type { Server, ServerCapabilities } from '@modelcontextprotocol/server';
// The workbench's (src/server/), still on the SDK's v1 line.
export type { McpServer, RegisteredTool, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
export type { ShapeOutput, ZodRawShapeCompat } from '@modelcontextprotocol/sdk/server/zod-compat.js';
export type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
export type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
