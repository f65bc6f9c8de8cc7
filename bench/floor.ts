// The floor of the lane benchmarks: a raw SDK call plus only what the trace format requires of
// every call (the call key, its sha256, the result's text, one JSON line through a TraceWriter).
// No lane that writes the trace can be cheaper, so each benchmark reports its lane beside it.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { hashCallKey } from '../src/lane/index.ts';
import { resultText } from '../src/lane/text.ts';
import { callKey } from '../src/reliability/index.ts';
import type { Emit } from '../src/trace/index.ts';

/** Calls `call` with `args` and records it as the lane would, as `server__tool`. */
export async function floorCall(emit: Emit, server: string, tool: string, args: Record<string, unknown>,
  call: () => Promise<CallToolResult>, deterministic = false): Promise<void> {
  const started = performance.now();
  const key = callKey(`${server}__${tool}`, args);
  const text = resultText(await call());
  emit({
    type: 'tool.call', 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': `${server}__${tool}`, turn: 1, round: 1, server,
    tool, key: hashCallKey(key), outcome: 'ok', ms: performance.now() - started, argBytes: key.length, resultBytes: text.length,
    deterministic,
  });
}
