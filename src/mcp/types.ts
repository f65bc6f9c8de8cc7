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
export type {
  EventId, EventStore, McpServer, RegisteredTool, Server, ServerCapabilities, ServerContext, StreamId, ToolCallback,
} from '@modelcontextprotocol/server';
