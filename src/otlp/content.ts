// The conversation in the GenAI conventions' message shapes (gen-ai-input-messages.json and
// gen-ai-output-messages.json of the semantic conventions): a message is a role and a list of
// parts, `text`, `reasoning`, `tool_call` (id, name, arguments) or `tool_call_response` (id,
// response). They go on spans as JSON strings, as the conventions allow where an exporter has
// no structured attribute values (OTLP's AnyValue has them, but backends do not show them yet).
import type { ConversationMessage, RecordedAssistantMessage } from '../trace/index.ts';

type Part =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: string };

interface GenAiMessage {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

function assistantParts(message: RecordedAssistantMessage): Part[] {
  const parts: Part[] = [];
  for (const block of message.thinking ?? []) if (block.type === 'thinking') parts.push({ type: 'reasoning', content: block.thinking });
  if (message.content !== '') parts.push({ type: 'text', content: message.content });
  if (message.refusal !== undefined) parts.push({ type: 'text', content: message.refusal });
  for (const call of message.toolCalls ?? []) {
    parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.rawArgs ?? call.args });
  }
  return parts;
}

function genAiMessage(message: ConversationMessage): GenAiMessage {
  if (message.role === 'assistant') return { role: 'assistant', parts: assistantParts(message) };
  if (message.role === 'tool') {
    return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.toolCallId, response: message.content ?? '' }] };
  }
  return { role: message.role, parts: [{ type: 'text', content: message.content ?? '' }] };
}

/** `gen_ai.input.messages`: the messages of one request, in the order they were sent. */
export function inputMessages(messages: readonly ConversationMessage[]): string {
  return JSON.stringify(messages.map(genAiMessage));
}

/** `gen_ai.output.messages`: the one choice a response carries, with why it ended. */
export function outputMessages(message: RecordedAssistantMessage, finishReason: string | undefined): string {
  return JSON.stringify([{ ...genAiMessage(message), finish_reason: finishReason ?? '' }]);
}
