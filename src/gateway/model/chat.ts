// OpenAI Chat Completions (POST /v1/chat/completions), both ways. Rules checked here are the
// API reference's (platform.openai.com/docs/api-reference/chat/create) and the function-calling
// guide's (platform.openai.com/docs/guides/function-calling), each cited where it is enforced.
import type { ChatMessage, ModelRequest, ModelResponse, SamplingOptions, StopReason, ToolCall, ToolSpec } from '../../models/types.ts';
import { BodyReader, isObject } from './check.ts';
import type { Json } from './check.ts';
import { openaiErrorBody, openaiErrorType } from './errors.ts';
import { callId, freshId, priorCalls } from './ids.ts';
import { argumentsText, parseArguments, uniqueTools } from './tools.ts';
import type { EventSink, ParsedRequest, WireCodec, WireStream } from './types.ts';

const ENDPOINT = 'POST /v1/chat/completions';

interface ChatWire {
  readonly includeUsage: boolean;
}

/** Text of a content that is a string or text parts; the neutral request carries text only. */
function textOf(r: BodyReader, content: unknown, field: string, allowed: readonly string[] = ['text']): string {
  if (typeof content === 'string') return content;
  const parts = r.array(content, field);
  return parts
    .map((part, i) => {
      const p = r.object(part, `${field}[${i}]`);
      if (!allowed.includes(String(p.type))) {
        r.fail(`${field}[${i}].type`, `${JSON.stringify(p.type)} parts are not served: the model gateway carries text only (parts of type ${allowed.join(' or ')})`);
      }
      return r.string(p.type === 'refusal' ? p.refusal : p.text, `${field}[${i}].${p.type === 'refusal' ? 'refusal' : 'text'}`);
    })
    // text parts joined a line apart, as Ladder's lane joins an MCP result's text blocks
    .join('\n');
}

function parseTools(r: BodyReader, value: unknown): { tools: ToolSpec[]; otherTools: string[] } {
  if (value === undefined || value === null) return { tools: [], otherTools: [] };
  const tools: ToolSpec[] = [];
  const otherTools: string[] = [];
  const fields: { name: string; field: string }[] = [];
  for (const [i, item] of r.array(value, 'tools').entries()) {
    const t = r.object(item, `tools[${i}]`);
    if (t.type !== 'function') {
      // custom (free-form) tools and any later type: not functions Ladder's model can call
      const named = isObject(t[String(t.type)]) ? (t[String(t.type)] as Json).name : undefined;
      otherTools.push(typeof named === 'string' ? named : String(t.type));
      continue;
    }
    const f = r.object(t.function, `tools[${i}].function`);
    const name = r.string(f.name, `tools[${i}].function.name`);
    tools.push({ name, description: r.optionalString(f.description, `tools[${i}].function.description`) ?? '', inputSchema: r.schema(f.parameters, `tools[${i}].function.parameters`) });
    fields.push({ name, field: `tools[${i}].function.name` });
  }
  uniqueTools(r, fields);
  return { tools, otherTools };
}

function parseToolCalls(r: BodyReader, value: unknown, field: string): ToolCall[] {
  return r.array(value, field).map((item, j) => {
    const c = r.object(item, `${field}[${j}]`);
    if (c.type !== 'function') r.fail(`${field}[${j}].type`, `expected "function", got ${JSON.stringify(c.type)}`);
    const f = r.object(c.function, `${field}[${j}].function`);
    const id = r.string(c.id, `${field}[${j}].id`);
    const name = r.string(f.name, `${field}[${j}].function.name`);
    return { id, name, ...parseArguments(r.string(f.arguments ?? '', `${field}[${j}].function.arguments`)) };
  });
}

function parseMessages(r: BodyReader, list: unknown[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  // Function-calling guide, "Handling function calls": each result is a `tool` message with the
  // call's tool_call_id, after the assistant message that made the calls, and every call of
  // that message is answered before the conversation goes on (the API answers 400 otherwise).
  let open = new Map<string, string>();
  for (const [i, item] of list.entries()) {
    const field = `messages[${i}]`;
    const m = r.object(item, field);
    const role = m.role;
    if (role === 'tool') {
      const id = r.string(m.tool_call_id, `${field}.tool_call_id`);
      const toolName = open.get(id);
      if (toolName === undefined) {
        // the API's words (its spelling), as its 400s read when quoted in agent and SDK threads
        r.refuse("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`);
      }
      open.delete(id);
      messages.push({ role: 'tool', toolCallId: id, toolName, content: textOf(r, m.content, `${field}.content`) });
      continue;
    }
    if (open.size > 0) unanswered(r, i, open.keys());
    switch (role) {
      case 'system':
      case 'developer':
        // developer is the newer name of system for OpenAI's reasoning models; the same instructions
        messages.push({ role: 'system', content: textOf(r, m.content, `${field}.content`) });
        break;
      case 'user':
        if (m.content === undefined) r.fail(`${field}.content`, 'required (a string or text parts)');
        messages.push({ role: 'user', content: textOf(r, m.content, `${field}.content`) });
        break;
      case 'assistant': {
        const calls = m.tool_calls === undefined || m.tool_calls === null ? [] : parseToolCalls(r, m.tool_calls, `${field}.tool_calls`);
        const content = m.content === undefined || m.content === null ? '' : textOf(r, m.content, `${field}.content`, ['text', 'refusal']);
        const refusal = r.optionalString(m.refusal, `${field}.refusal`);
        messages.push({ role: 'assistant', content, ...(calls.length > 0 ? { toolCalls: calls } : {}), ...(refusal ? { refusal } : {}) });
        open = new Map(calls.map((c) => [c.id, c.name]));
        break;
      }
      case 'function':
        r.fail(`${field}.role`, '"function" messages are the deprecated form of function calling; send "tool" messages with a tool_call_id');
      default:
        r.refuse(`Invalid value: ${JSON.stringify(String(role)).replace(/^"|"$/g, "'")}. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, `${field}.role`, 'invalid_value');
    }
  }
  if (open.size > 0) unanswered(r, list.length, open.keys());
  return messages;
}

/** The API's words for tool calls no tool message answers, at the message after them (as seen in its 400s). */
function unanswered(r: BodyReader, at: number, ids: Iterable<string>): never {
  return r.refuse(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...ids].join(', ')}`, `messages.[${at}].role`);
}

function parse(raw: unknown): ParsedRequest {
  const r: BodyReader = new BodyReader(ENDPOINT);
  const body = r.object(raw, 'body');
  // The API's own words for each (as its 400s read; the API reference names the rules, not the wording):
  // a field it does not know (an Anthropic body's `system`), the model, then messages
  if (body.system !== undefined) r.refuse('Unrecognized request argument supplied: system', null);
  if (body.model === undefined) r.refuse('you must provide a model parameter', null);
  const model = r.model(body);
  if (body.messages === undefined) r.refuse("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  const list = r.array(body.messages, 'messages');
  // API reference: messages has a minimum length of 1
  if (list.length === 0) r.refuse("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  if (body.functions !== undefined) r.fail('functions', 'the deprecated form of function calling; send "tools" of type "function"');
  // one answer is what the callback gives; n > 1 asks for several
  if (body.n !== undefined && body.n !== null && body.n !== 1) r.fail('n', `only 1 choice is served, got ${JSON.stringify(body.n)}`);
  const { tools, otherTools } = parseTools(r, body.tools);
  const maxTokens = r.optionalNumber(body.max_completion_tokens, 'max_completion_tokens') ?? r.optionalNumber(body.max_tokens, 'max_tokens');
  const temperature = r.optionalNumber(body.temperature, 'temperature');
  const seed = r.optionalNumber(body.seed, 'seed');
  const options: SamplingOptions = {
    ...(temperature === undefined ? {} : { temperature }),
    ...(seed === undefined ? {} : { seed }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
  };
  const request: ModelRequest = { messages: parseMessages(r, list), tools, ...(Object.keys(options).length > 0 ? { options } : {}) };
  const stream = r.optionalBoolean(body.stream, 'stream') ?? false;
  const streamOptions = body.stream_options === undefined || body.stream_options === null ? {} : r.object(body.stream_options, 'stream_options');
  const wire: ChatWire = { includeUsage: r.optionalBoolean(streamOptions.include_usage, 'stream_options.include_usage') ?? false };
  return { format: 'openai-chat', model, request, stream, otherTools, wire };
}

export function finishReason(response: ModelResponse): string {
  const reasons: Record<StopReason, string> = { end: 'stop', tool_calls: 'tool_calls', max_tokens: 'length', refusal: 'content_filter', other: 'stop' };
  // calls the agent must make are announced as tool_calls whatever the provider said
  if (response.toolCalls.length > 0 && response.stopReason !== 'max_tokens') return 'tool_calls';
  return reasons[response.stopReason];
}

function usage(response: ModelResponse) {
  // a provider that counted nothing reads as 0: the field is a number in every client's types
  const prompt = response.usage.inputTokens ?? 0;
  const completion = response.usage.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(response.usage.cacheReadTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: response.usage.cacheReadTokens } }),
  };
}

function wireCalls(parsed: ParsedRequest, response: ModelResponse) {
  const prior = priorCalls(parsed.request);
  return response.toolCalls.map((c, i) => ({ id: callId('call_', c, prior + i), type: 'function' as const, function: { name: c.name, arguments: argumentsText(c) } }));
}

function reply(parsed: ParsedRequest, response: ModelResponse): unknown {
  const calls = wireCalls(parsed, response);
  return {
    id: freshId('chatcmpl-'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: parsed.model,
    choices: [{
      index: 0,
      message: {
        role: 'assistant',
        // null, not "", is the documented content of a turn that only calls tools or refuses
        content: response.text === '' && (calls.length > 0 || response.refusal !== undefined) ? null : response.text,
        refusal: response.refusal ?? null,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      },
      logprobs: null,
      finish_reason: finishReason(response),
    }],
    usage: usage(response),
  };
}

function stream(parsed: ParsedRequest, sink: EventSink): WireStream {
  const { includeUsage } = parsed.wire as ChatWire;
  const id = freshId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  let opened = false;
  let sent = '';
  // with include_usage every chunk carries usage: null until the last (API reference, stream_options)
  const chunk = (delta: Json, finish: string | null = null) =>
    sink.send({
      id, object: 'chat.completion.chunk', created, model: parsed.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    });
  const open = () => {
    if (opened) return;
    opened = true;
    chunk({ role: 'assistant', content: '', refusal: null });
  };
  return {
    text(delta) {
      open();
      if (delta === '') return;
      sent += delta;
      chunk({ content: delta });
    },
    finish(response) {
      open();
      // the answer's text is the whole of it; what was streamed is its start
      const rest = response.text.startsWith(sent) ? response.text.slice(sent.length) : '';
      if (rest !== '') chunk({ content: rest });
      if (response.refusal !== undefined) chunk({ refusal: response.refusal });
      for (const [index, call] of wireCalls(parsed, response).entries()) {
        chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
        chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] });
      }
      chunk({}, finishReason(response));
      if (includeUsage) sink.send({ id, object: 'chat.completion.chunk', created, model: parsed.model, choices: [], usage: usage(response) });
      sink.sendRaw('[DONE]');
    },
    fail(status, message, code) {
      // the SDKs throw on a chunk that carries `error`, as OpenAI sends one mid-stream
      sink.send({ error: { message, type: openaiErrorType(status), param: null, code: code ?? null } });
      sink.sendRaw('[DONE]');
    },
  };
}

export const chatCodec: WireCodec = { format: 'openai-chat', parse, reply, stream, errorBody: openaiErrorBody };
