// The loop's trace events. A model.request is always followed by one model.response for the
// same round, also when no response came (the provider failed, the time limit passed), so a
// reader can pair them without guessing. Every message added to the conversation is recorded
// where it is added: system, user and tool messages as `message` events, the assistant's on
// its model.response, so the trace rebuilds each request exactly (src/trace/conversation.ts).
import { hashCallKey } from '../lane/callHash.ts';
import type { Adaptation, AssistantMessage, ChatMessage, ModelAdapter, ModelRequest, ModelResponse, ToolCall } from '../models/types.ts';
import { callKey } from '../reliability/index.ts';
import { requestHash } from '../trace/index.ts';
import type { Emit, ModelToolCall, RecordedAssistantMessage, RecordedMessage, Scrubber, TraceEventInput } from '../trace/index.ts';

type RequestEvent = Extract<TraceEventInput, { type: 'model.request' }>;
type ResponseEvent = Extract<TraceEventInput, { type: 'model.response' }>;

/**
 * Adds a message to the conversation and records it. The assistant's message is recorded on
 * its model.response instead, which is emitted just before it is added.
 */
export function addMessage(conversation: ChatMessage[], emit: Emit, step: number, message: ChatMessage): void {
  conversation.push(message);
  if (message.role !== 'assistant') emit({ type: 'message', step, message: message satisfies RecordedMessage });
}

const round3 = (ms: number): number => Math.round(ms * 1000) / 1000;

/** The hash the lane puts in tool.call's `key` for the same call, so the two can be joined. */
export function toolCallKey(call: Pick<ToolCall, 'name' | 'args'>): string {
  return hashCallKey(callKey(call.name, call.args));
}

export function requestEvent(model: ModelAdapter, step: number, round: number, request: ModelRequest, scrubber?: Scrubber): RequestEvent {
  return {
    type: 'model.request',
    step,
    round,
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': model.provider,
    'gen_ai.request.model': model.model,
    tools: request.tools.length,
    messages: request.messages.length,
    messageBytes: Buffer.byteLength(JSON.stringify(request.messages)),
    hash: requestHash(request, scrubber),
    ...(request.options === undefined ? {} : { options: { ...request.options } }),
  };
}

/**
 * `message` is the assistant message the loop adds to the conversation for this response;
 * `adaptations` what the adapter changed that the pass's trace does not hold yet.
 */
export function responseEvent(
  step: number, round: number, response: ModelResponse, message: AssistantMessage, adaptations: readonly Adaptation[] = [],
): ResponseEvent {
  const toolCalls: ModelToolCall[] = response.toolCalls.map((call) => ({
    'gen_ai.tool.name': call.name,
    key: toolCallKey(call),
  }));
  return {
    type: 'model.response',
    step,
    round,
    'gen_ai.usage.input_tokens': response.usage.inputTokens,
    'gen_ai.usage.output_tokens': response.usage.outputTokens,
    ...(response.usage.cacheReadTokens === undefined ? {} : { 'gen_ai.usage.cache_read.input_tokens': response.usage.cacheReadTokens }),
    ...(response.usage.cacheWriteTokens === undefined ? {} : { 'gen_ai.usage.cache_creation.input_tokens': response.usage.cacheWriteTokens }),
    // Ladder's own vocabulary (end, tool_calls, max_tokens, ...), so providers compare; the
    // provider's word is on the response for anyone who needs it.
    'gen_ai.response.finish_reasons': [response.stopReason],
    ms: round3(response.latencyMs),
    attempts: response.attempts,
    textBytes: Buffer.byteLength(response.text),
    toolCalls,
    message: message satisfies RecordedAssistantMessage,
    ...(adaptations.length === 0 ? {} : { adaptations: [...adaptations] }),
  };
}

/**
 * The adaptations not yet recorded in this pass. An adapter rewrites the same schemas and names
 * on every request of a pass; recorded once, they tell a reader what the provider was sent
 * without repeating a tool list's worth of notes every round.
 */
export function newAdaptations(seen: Set<string>, adaptations: readonly Adaptation[] | undefined): Adaptation[] {
  const fresh: Adaptation[] = [];
  for (const adaptation of adaptations ?? []) {
    const key = JSON.stringify(adaptation);
    if (seen.has(key)) continue;
    seen.add(key);
    fresh.push(adaptation);
  }
  return fresh;
}

/** The response slot of a request that got no response; `errorType` says why. */
export function failedResponseEvent(step: number, round: number, ms: number, attempts: number, errorType: string): ResponseEvent {
  return {
    type: 'model.response',
    step,
    round,
    'gen_ai.usage.input_tokens': null,
    'gen_ai.usage.output_tokens': null,
    'gen_ai.response.finish_reasons': [],
    ms: round3(ms),
    attempts,
    textBytes: 0,
    toolCalls: [],
    'error.type': errorType,
  };
}
