// Anthropic Messages (POST /v1/messages), both ways. Rules are the Messages API reference's
// (platform.claude.com/docs/en/api/messages) and the tool-use guide's
// (platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use), each cited where
// it is enforced. Consecutive turns of one role are read as one turn, as the API documents.
import type { ChatMessage, ModelRequest, ModelResponse, SamplingOptions, StopReason, ThinkingBlock, ToolCall, ToolSpec } from '../../models/types.ts';
import { BodyReader } from './check.ts';
import type { Json } from './check.ts';
import { anthropicErrorBody, anthropicErrorType } from './errors.ts';
import { callId, freshId, priorCalls } from './ids.ts';
import { uniqueTools } from './tools.ts';
import type { EventSink, ParsedRequest, WireCodec, WireStream } from './types.ts';

const ENDPOINT = 'POST /v1/messages';

interface Block {
  readonly block: Json;
  readonly field: string;
}

interface Turn {
  readonly role: 'user' | 'assistant';
  readonly blocks: Block[];
  readonly field: string;
}

/** The API's words for a system entry after a turn, on a model without mid-conversation system messages. */
const SYSTEM_NOT_SUPPORTED = "role 'system' is not supported on this model";

/**
 * A `{"role": "system"}` entry of `messages`, answered in the real API's words. The API takes one
 * only on models with mid-conversation system messages ("Mid-conversation system messages": Claude
 * Opus 4.8 only), never as messages.0; the model behind the gateway has no such channel, so it
 * answers as a model without it. Claude Code 2.1.328 sends its environment block so for a model
 * name it does not know, and re-sends without it when the 400 reads like one of these two
 * (it matches "role ... system ... not supported" and "use the top-level ... system ... parameter
 * for the initial system prompt"); any other wording makes it retry the same request and exit 1.
 */
function systemRole(r: BodyReader, i: number, afterTurn: boolean): never {
  // the body the API sent Claude Code for a model without the feature (anthropics/claude-code#61412)
  if (afterTurn) return r.refuse(SYSTEM_NOT_SUPPORTED, `messages.${i}.role`);
  // as the API answered a leading one (LeenHawk/gproxy#209, quoting it)
  return r.refuse(`messages.${i}: use the top-level 'system' parameter for the initial system prompt; the directive-only form (content: [] with output_config) is accepted at any position`, `messages.${i}`);
}

function turns(r: BodyReader, list: unknown[]): Turn[] {
  const out: Turn[] = [];
  for (const [i, item] of list.entries()) {
    const field = `messages.${i}`;
    const m = r.object(item, field);
    if (m.role === 'system') systemRole(r, i, out.length > 0);
    // the API's validation wording (pydantic's, as Claude Code's fallback also reads it)
    if (m.role !== 'user' && m.role !== 'assistant') r.refuse(`${field}.role: Input should be 'user' or 'assistant'`, `${field}.role`);
    const content = m.content;
    const blocks: Block[] =
      typeof content === 'string'
        ? [{ block: { type: 'text', text: content }, field: `${field}.content` }]
        : r.array(r.required(m, 'content', 'a string or content blocks', `${field}.content`), `${field}.content`).map((b, j) => ({ block: r.object(b, `${field}.content.${j}`), field: `${field}.content.${j}` }));
    const last = out.at(-1);
    if (last?.role === m.role) last.blocks.push(...blocks);
    else out.push({ role: m.role as Turn['role'], blocks, field });
  }
  return out;
}

/** A tool_result's content: a string or blocks; the neutral result is text. */
function resultText(r: BodyReader, content: unknown, field: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return r
    .array(content, field)
    .map((b, k) => {
      const block = r.object(b, `${field}.${k}`);
      // an image a tool returned cannot reach a text-only model; the model is told it was there
      return block.type === 'text' ? r.string(block.text, `${field}.${k}.text`) : `[${String(block.type)}: not carried by the model gateway, which passes text only]`;
    })
    .join('\n');
}

/**
 * The API's words for tool_use blocks left without their tool_result: `at` is the assistant turn
 * that made them (as its 400s read when quoted in agent and gateway threads).
 */
function unanswered(r: BodyReader, at: string, ids: Iterable<string>): never {
  return r.refuse(`${at}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${[...ids].join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`, at);
}

/** The tool_use blocks of the last assistant turn still to be answered: id to tool name, and that turn's field. */
interface Asked {
  readonly ids: Map<string, string>;
  readonly at: string;
}

function userTurn(r: BodyReader, turn: Turn, asked: Asked): ChatMessage[] {
  const results: ChatMessage[] = [];
  const texts: string[] = [];
  const expected = asked.ids.size;
  for (const { block, field } of turn.blocks) {
    if (block.type === 'tool_result') {
      // tool-use guide: "tool_result blocks must come FIRST in the content array"; the API's words
      // for it as seen in its 400s (apify/tester-mcp-client#12)
      if (texts.length > 0) r.refuse(`${turn.field}: Did not find ${expected} tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.`, turn.field);
      const id = r.string(block.tool_use_id, `${field}.tool_use_id`);
      const toolName = asked.ids.get(id);
      // tool-use guide: "tool_result blocks must immediately follow their corresponding tool_use blocks"
      if (toolName === undefined) r.refuse(`${field}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`, `${field}.tool_use_id`);
      asked.ids.delete(id);
      const isError = r.optionalBoolean(block.is_error, `${field}.is_error`);
      results.push({ role: 'tool', toolCallId: id, toolName, content: resultText(r, block.content, `${field}.content`), ...(isError ? { isError } : {}) });
    } else if (block.type === 'text') {
      texts.push(r.string(block.text, `${field}.text`));
    } else {
      r.fail(`${field}.type`, `${JSON.stringify(block.type)} blocks are not served in a user turn: the model gateway carries text and tool_result blocks only`);
    }
  }
  // the same guide: every tool_use is answered by a tool_result in the next message
  if (asked.ids.size > 0) unanswered(r, asked.at, asked.ids.keys());
  return [...results, ...(texts.length > 0 ? [{ role: 'user' as const, content: texts.join('\n') }] : [])];
}

function assistantTurn(r: BodyReader, turn: Turn, asked: Asked): ChatMessage {
  const texts: string[] = [];
  const calls: ToolCall[] = [];
  const thinking: ThinkingBlock[] = [];
  for (const { block, field } of turn.blocks) {
    switch (block.type) {
      case 'text':
        texts.push(r.string(block.text, `${field}.text`));
        break;
      case 'tool_use': {
        const id = r.string(block.id, `${field}.id`);
        const name = r.string(block.name, `${field}.name`);
        calls.push({ id, name, args: r.object(block.input, `${field}.input`) });
        asked.ids.set(id, name);
        break;
      }
      case 'thinking': {
        // kept as they came: the API refuses a tool-use turn sent back with its thinking altered
        const signature = r.optionalString(block.signature, `${field}.signature`);
        thinking.push({ type: 'thinking', thinking: r.string(block.thinking, `${field}.thinking`), ...(signature === undefined ? {} : { signature }) });
        break;
      }
      case 'redacted_thinking':
        thinking.push({ type: 'redacted_thinking', data: r.string(block.data, `${field}.data`) });
        break;
      default:
        r.fail(`${field}.type`, `${JSON.stringify(block.type)} blocks are not served in an assistant turn: the model gateway carries text, tool_use and thinking blocks`);
    }
  }
  return {
    role: 'assistant', content: texts.join('\n'),
    ...(calls.length > 0 ? { toolCalls: calls } : {}), ...(thinking.length > 0 ? { thinking } : {}),
  };
}

function systemText(r: BodyReader, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  return r.array(value, 'system').map((b, i) => {
    const block = r.object(b, `system.${i}`);
    if (block.type !== 'text') r.fail(`system.${i}.type`, `expected "text", got ${JSON.stringify(block.type)}`);
    return r.string(block.text, `system.${i}.text`);
  }).join('\n');
}

function parseTools(r: BodyReader, value: unknown): { tools: ToolSpec[]; otherTools: string[] } {
  const tools: ToolSpec[] = [];
  const otherTools: string[] = [];
  const fields: { name: string; field: string }[] = [];
  for (const [i, item] of (value === undefined || value === null ? [] : r.array(value, 'tools')).entries()) {
    const t = r.object(item, `tools.${i}`);
    const name = r.string(t.name, `tools.${i}.name`);
    if (t.type !== undefined && t.type !== null && t.type !== 'custom') {
      // server tools (web_search_20250305, code_execution_...) and Anthropic-defined client tools
      // (bash_..., text_editor_...): the agent's own, not functions the model calls through Ladder
      otherTools.push(name);
      continue;
    }
    if (t.defer_loading === true) {
      // Tool search guide: a deferred tool is not loaded into the model's context until a tool
      // search finds it, so the model cannot call it as offered (Claude Code's DeferredToolPlaceholder)
      otherTools.push(name);
      continue;
    }
    // API reference: a custom tool's input_schema is required
    if (t.input_schema === undefined) r.refuse(`tools.${i}.custom.input_schema: Field required`, `tools.${i}.input_schema`);
    const schema = r.object(t.input_schema, `tools.${i}.input_schema`);
    tools.push({ name, description: r.optionalString(t.description, `tools.${i}.description`) ?? '', inputSchema: schema });
    fields.push({ name, field: `tools.${i}.name` });
  }
  // Messages API reference, tools: "Tool names must be unique"
  uniqueTools(r, fields, () => r.refuse('tools: Tool names must be unique.', 'tools'));
  return { tools, otherTools };
}

function parse(raw: unknown, headers: Readonly<Record<string, string | string[] | undefined>>): ParsedRequest {
  const r: BodyReader = new BodyReader(ENDPOINT);
  // Versioning (platform.claude.com/docs/en/api/versioning): "When making API requests, you must
  // send an anthropic-version request header"; the API refuses a request without it
  if (headers['anthropic-version'] === undefined) r.refuse('anthropic-version: header is required', 'anthropic-version');
  const body = r.object(raw, 'body');
  // API reference: model, max_tokens and messages are required; the API says so as its validator
  // does ("max_tokens: Field required"), field by field
  for (const key of ['model', 'max_tokens', 'messages']) if (body[key] === undefined) r.refuse(`${key}: Field required`, key);
  const model = r.model(body);
  const maxTokens = r.optionalNumber(body.max_tokens, 'max_tokens')!;
  // API reference: "x >= 1"; said in the validator's words (not checked against a real answer)
  if (!(Number.isInteger(maxTokens) && maxTokens >= 1)) r.refuse(`max_tokens: Input should be ${Number.isInteger(maxTokens) ? 'greater than or equal to 1' : 'a valid integer'}`, 'max_tokens');
  const list = r.array(body.messages, 'messages');
  if (list.length === 0) r.refuse('messages: at least one message is required', 'messages');
  const system = systemText(r, body.system);
  const messages: ChatMessage[] = system === undefined ? [] : [{ role: 'system', content: system }];
  let asked: Asked = { ids: new Map(), at: 'messages' };
  for (const turn of turns(r, list)) {
    if (turn.role === 'user') {
      messages.push(...userTurn(r, turn, asked));
    } else {
      if (asked.ids.size > 0) unanswered(r, asked.at, asked.ids.keys());
      asked = { ids: new Map(), at: turn.field };
      messages.push(assistantTurn(r, turn, asked));
    }
  }
  if (asked.ids.size > 0) unanswered(r, asked.at, asked.ids.keys());
  const { tools, otherTools } = parseTools(r, body.tools);
  const temperature = r.optionalNumber(body.temperature, 'temperature');
  const options: SamplingOptions = { maxTokens, ...(temperature === undefined ? {} : { temperature }) };
  const request: ModelRequest = { messages, tools, options };
  return { format: 'anthropic-messages', model, request, stream: r.optionalBoolean(body.stream, 'stream') ?? false, otherTools, wire: null };
}

export function stopReason(response: ModelResponse): string {
  const reasons: Record<StopReason, string> = { end: 'end_turn', tool_calls: 'tool_use', max_tokens: 'max_tokens', refusal: 'refusal', other: 'end_turn' };
  if (response.toolCalls.length > 0 && response.stopReason !== 'max_tokens') return 'tool_use';
  return reasons[response.stopReason];
}

/** Anthropic's `input_tokens` is the uncached part only; Ladder's count holds the cache reads and writes too. */
function usage(response: ModelResponse) {
  const read = response.usage.cacheReadTokens ?? 0;
  const write = response.usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, (response.usage.inputTokens ?? 0) - read - write),
    output_tokens: response.usage.outputTokens ?? 0,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
  };
}

function thinkingBlocks(response: ModelResponse): Json[] {
  return (response.thinking ?? []).map((b) => (b.type === 'thinking' ? { type: 'thinking', thinking: b.thinking, signature: b.signature ?? '' } : { ...b }));
}

function toolUses(parsed: ParsedRequest, response: ModelResponse) {
  const prior = priorCalls(parsed.request);
  // arguments that were not a JSON object cannot be a tool_use input, which is an object; they go as {}
  return response.toolCalls.map((c, i) => ({ type: 'tool_use', id: callId('toolu_', c, prior + i), name: c.name, input: { ...c.args } }));
}

function reply(parsed: ParsedRequest, response: ModelResponse): unknown {
  return {
    id: freshId('msg_'), type: 'message', role: 'assistant', model: parsed.model,
    content: [...thinkingBlocks(response), ...(response.text === '' ? [] : [{ type: 'text', text: response.text }]), ...toolUses(parsed, response)],
    stop_reason: stopReason(response), stop_sequence: null, usage: usage(response),
  };
}

function stream(parsed: ParsedRequest, sink: EventSink): WireStream {
  const id = freshId('msg_');
  const emit = (type: string, fields: Json) => sink.send({ type, ...fields }, type);
  let opened = false;
  let index = 0;
  let textOpen = false;
  let sent = '';
  const open = () => {
    if (opened) return;
    opened = true;
    // the input count is not known until the answer is: message_delta carries it, and the SDK reads it there
    emit('message_start', {
      message: { id, type: 'message', role: 'assistant', model: parsed.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } },
    });
  };
  const openText = () => {
    if (textOpen) return;
    textOpen = true;
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
  };
  const textDelta = (text: string) => {
    sent += text;
    emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
  };
  const block = (start: Json, deltas: Json[]) => {
    emit('content_block_start', { index, content_block: start });
    for (const delta of deltas) emit('content_block_delta', { index, delta });
    emit('content_block_stop', { index });
    index++;
  };
  return {
    text(text) {
      open();
      if (text === '') return;
      openText();
      textDelta(text);
    },
    finish(response) {
      open();
      const thinking = thinkingBlocks(response).map((b) =>
        b.type === 'thinking'
          ? (): void => block({ type: 'thinking', thinking: '', signature: '' }, [{ type: 'thinking_delta', thinking: b.thinking }, { type: 'signature_delta', signature: b.signature }])
          : (): void => block(b, []),
      );
      // thinking comes first, as the API sends it, unless text was streamed ahead of it
      const streamed = textOpen;
      if (!streamed) for (const write of thinking) write();
      if (textOpen || response.text !== '') {
        openText();
        const rest = response.text.startsWith(sent) ? response.text.slice(sent.length) : '';
        if (rest !== '') textDelta(rest);
        emit('content_block_stop', { index });
        index++;
      }
      if (streamed) for (const write of thinking) write();
      for (const use of toolUses(parsed, response)) {
        block({ ...use, input: {} }, [{ type: 'input_json_delta', partial_json: JSON.stringify(use.input) }]);
      }
      emit('message_delta', { delta: { stop_reason: stopReason(response), stop_sequence: null }, usage: usage(response) });
      emit('message_stop', {});
    },
    fail(status, message) {
      emit('error', { error: { type: anthropicErrorType(status), message } });
    },
  };
}

export const messagesCodec: WireCodec = { format: 'anthropic-messages', parse, reply, stream, errorBody: (status, message) => anthropicErrorBody(status, message) };
