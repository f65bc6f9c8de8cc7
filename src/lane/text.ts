// What the model reads back from a tool call. Every call gets text, whatever happened to it:
// a call that was not sent says so and why, so nothing is ever dropped silently.
import { describeError } from '../mcp/errors.ts';
import type { CallToolResult } from '../mcp/types.ts';

type Block = CallToolResult['content'][number];

function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      // Base64 bytes are not text a model can use; say what was there and how big it was.
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    case 'resource_link':
      return `[resource link ${block.uri}]`;
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

/** The result's content as text; structured content stands in when there is no content. */
export function resultText(result: CallToolResult): string {
  const content = result.content ?? [];
  if (content.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return content.map(blockText).join('\n');
}

export function timeoutText(name: string, ms: number): string {
  const seconds = (ms / 1000).toFixed(1);
  return (
    `The call to ${name} got no answer within ${seconds} s and was abandoned. ` +
    'The tool may still be running on the server, so what it does may still happen.'
  );
}

export function abandonedText(name: string): string {
  return `The step ended while ${name} was running, so the harness stopped waiting and asked the server to cancel it; the tool may still have done its work.`;
}

export function unknownToolText(name: string): string {
  return `There is no tool named ${JSON.stringify(name)} in this turn's tool list, so nothing was called.`;
}

export function notStartedText(server: string, name: string): string {
  return `server ${server} is unavailable: it did not start, so ${name} was not called.`;
}

/** An error as the model is told it: a server's JSON-RPC error keeps its `MCP error N: ` prefix (mcp/errors.ts). */
export function errorText(error: unknown): string {
  return describeError(error);
}

/** A call to a server whose connection is being made again (`ladder gateway` restarts it). */
export function restartingText(server: string, name: string): string {
  return `${name} was not called: server ${server} is restarting after its connection closed; its tools stay listed, and the gateway says when it is back in its status.`;
}
