// Ids the gateway writes. A tool call's id must come back on its result, so one the answer
// carries is kept when the format allows it; otherwise one is made from the call's place in the
// conversation, the same every time, so a request rebuilt from a trace carries the same ids.
import { createHash, randomBytes } from 'node:crypto';
import type { ModelRequest, ToolCall } from '../../models/types.ts';

// Anthropic's tool_use `id` must match ^[a-zA-Z0-9_-]+$ (Messages API reference, ToolUseBlockParam);
// OpenAI documents no grammar for call ids, so the same rule keeps an id valid in either
// direction (an id the gateway wrote may reach the other provider in a later history).
const ID_RULE = /^[a-zA-Z0-9_-]{1,64}$/;

/** Tool calls already in the request's history: a new call's place in the conversation. */
export function priorCalls(request: ModelRequest): number {
  return request.messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.toolCalls?.length ?? 0) : 0), 0);
}

/** The id a call goes out under: its own when valid, else `prefix` and a hash of its place, name and id. */
export function callId(prefix: string, call: ToolCall, place: number): string {
  if (ID_RULE.test(call.id)) return call.id;
  const hash = createHash('sha256').update(`${place}\0${call.name}\0${call.id}`).digest('hex').slice(0, 24);
  return `${prefix}${hash}`;
}

/** An id for an object the agent never sends back (a completion, a response, an output item). */
export function freshId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}
