// One way to register a tool, so every tool gets the same fault handling and error shape:
// injected latency and failures happen before the tool runs, a dropped reply after it has
// done its work (the work stands, the caller's record of it is lost), and a ToolError
// becomes an `isError` result carrying its message.
import { z } from 'zod';
import type { CallToolResult, McpServer, RegisteredTool, ServerContext, ToolAnnotations } from '../mcp/types.ts';
import { transientError } from './faults.ts';
import type { SessionHooks, WorkbenchState } from './state.ts';

/** A failure the caller can act on; its message is the whole tool result. */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** What a tool's handler is told of its request: its id, signal and session (the SDK's v2 context). */
export type ToolExtra = ServerContext;

/** A tool's input as zod fields, and what they parse to. */
type Shape = Record<string, z.ZodType>;
type ShapeOutput<S extends Shape> = z.infer<z.ZodObject<S>>;

/** `_meta` key that declares a tool deterministic (README, "The reliability layer"). */
export const DETERMINISTIC_META = { 'ladder/deterministic': true } as const;

export function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

export function json(value: unknown): CallToolResult {
  return text(JSON.stringify(value, null, 2));
}

export function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export interface ToolSpec<S extends Shape> {
  title: string;
  description: string;
  inputSchema: S;
  annotations: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

export interface ToolHost {
  server: McpServer;
  state: WorkbenchState;
  hooks: SessionHooks;
}

export function addTool<S extends Shape>(
  host: ToolHost,
  name: string,
  spec: ToolSpec<S>,
  run: (args: ShapeOutput<S>, extra: ToolExtra) => CallToolResult | Promise<CallToolResult>,
): RegisteredTool {
  const { state, hooks } = host;
  const handler = async (args: ShapeOutput<S>, extra: ToolExtra): Promise<CallToolResult> => {
    const index = state.faults.nextCall(name);
    const latency = state.faults.latencyMs(name);
    if (latency > 0) await state.time.sleep(latency, extra.mcpReq.signal);
    if (state.faults.fails(name, index)) return failure(transientError(name));
    let result: CallToolResult;
    try {
      result = await run(args, extra);
    } catch (error) {
      if (!(error instanceof ToolError)) state.log(`${name}: ${(error as Error).stack ?? String(error)}`);
      result = failure(error instanceof Error ? error.message : String(error));
    }
    state.reveal.check();
    if (hooks.dropReply && state.faults.dropsReply(name, index)) await hooks.dropReply(extra);
    return result;
  };
  return host.server.registerTool(
    name,
    {
      title: spec.title,
      description: spec.description,
      // The object schema the SDK's v2 line takes (a bare shape it would wrap the same way).
      inputSchema: z.object(spec.inputSchema),
      annotations: spec.annotations,
      ...(spec._meta ? { _meta: spec._meta } : {}),
    },
    // The SDK parsed the arguments against that schema before calling.
    (args: unknown, extra: ToolExtra) => handler(args as ShapeOutput<S>, extra),
  );
}
