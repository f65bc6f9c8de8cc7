// OpenAI Responses (POST /v1/responses), both ways, stateless: the whole conversation comes in
// `input` every time (Codex sends `store: false`), so nothing that needs a stored response is
// served. Rules are the API reference's (platform.openai.com/docs/api-reference/responses/create)
// and the function-calling guide's, each cited where it is enforced.
import type { AssistantMessage, ChatMessage, ModelRequest, ModelResponse, SamplingOptions, ToolCall, ToolSpec } from '../../models/types.ts';
import { BodyReader } from './check.ts';
import type { Json } from './check.ts';
import { openaiErrorBody } from './errors.ts';
import { callId, freshId, priorCalls } from './ids.ts';
import { argumentsText, parseArguments, uniqueTools } from './tools.ts';
import type { EventSink, ParsedRequest, WireCodec, WireStream } from './types.ts';

const ENDPOINT = 'POST /v1/responses';

/** A namespace tool's nested tool as the model sees it: `<namespace>__<name>`. */
export function namespacedName(namespace: string, name: string): string {
  return `${namespace}__${name}`;
}

interface ResponsesWire {
  /** Neutral names of namespaced tools, to the namespace and nested name a call goes back under. */
  readonly namespaced: ReadonlyMap<string, { readonly namespace: string; readonly name: string }>;
  readonly instructions: string | null;
  readonly tools: unknown[];
  readonly temperature: number | null;
  readonly maxOutputTokens: number | null;
}

/** Kept only as a line saying what was there: the neutral request is text. */
const notCarried = (type: string) => `[${type}: not carried by the model gateway, which passes text only]`;

function textOf(r: BodyReader, content: unknown, field: string, allowed: readonly string[]): { text: string; refusal?: string } {
  if (typeof content === 'string') return { text: content };
  const texts: string[] = [];
  let refusal: string | undefined;
  for (const [i, part] of r.array(content, field).entries()) {
    const p = r.object(part, `${field}[${i}]`);
    if (!allowed.includes(String(p.type))) {
      r.fail(`${field}[${i}].type`, `${JSON.stringify(p.type)} parts are not served: the model gateway carries text only (parts of type ${allowed.join(' or ')})`);
    }
    if (p.type === 'refusal') refusal = r.string(p.refusal, `${field}[${i}].refusal`);
    else texts.push(r.string(p.text, `${field}[${i}].text`));
  }
  // text parts joined a line apart, as Ladder's lane joins an MCP result's text blocks
  return { text: texts.join('\n'), ...(refusal === undefined ? {} : { refusal }) };
}

/** A function_call_output's `output`: a string, or content items (Codex sends an MCP result so). */
function outputText(r: BodyReader, output: unknown, field: string): string {
  if (typeof output === 'string') return output;
  return r
    .array(output, field)
    .map((item, i) => {
      const p = r.object(item, `${field}[${i}]`);
      if (p.type === 'input_text' || p.type === 'output_text') return r.string(p.text, `${field}[${i}].text`);
      // an image or file a tool returned cannot reach a text-only model; the model is told it was there
      return notCarried(String(p.type));
    })
    .join('\n');
}

function parseTools(r: BodyReader, value: unknown) {
  const tools: ToolSpec[] = [];
  const otherTools: string[] = [];
  const namespaced = new Map<string, { namespace: string; name: string }>();
  const fields: { name: string; field: string }[] = [];
  const fn = (t: Json, field: string, name: string) => {
    tools.push({ name, description: r.optionalString(t.description, `${field}.description`) ?? '', inputSchema: r.schema(t.parameters, `${field}.parameters`) });
    fields.push({ name, field: `${field}.name` });
  };
  for (const [i, item] of (value === undefined || value === null ? [] : r.array(value, 'tools')).entries()) {
    const t = r.object(item, `tools[${i}]`);
    if (t.type === 'function') {
      fn(t, `tools[${i}]`, r.string(t.name, `tools[${i}].name`));
    } else if (t.type === 'namespace') {
      // Codex offers each MCP server as one namespace tool (`mcp__<server>`) with the server's tools
      // nested by their own names; the model calls them by the flattened name and the call goes
      // back as a function_call carrying the namespace and the nested name, as Codex expects
      const namespace = r.string(t.name, `tools[${i}].name`);
      for (const [j, nestedItem] of r.array(t.tools, `tools[${i}].tools`).entries()) {
        const nested = r.object(nestedItem, `tools[${i}].tools[${j}]`);
        const name = r.string(nested.name, `tools[${i}].tools[${j}].name`);
        const flat = namespacedName(namespace, name);
        if (nested.type !== 'function') {
          otherTools.push(flat);
          continue;
        }
        fn(nested, `tools[${i}].tools[${j}]`, flat);
        namespaced.set(flat, { namespace, name });
      }
    } else {
      // web_search, image_generation, local_shell, custom (free-form) and hosted tools: the agent's own
      const label = typeof t.name === 'string' ? t.name : typeof t.server_label === 'string' ? t.server_label : String(t.type);
      otherTools.push(label);
    }
  }
  uniqueTools(r, fields);
  return { tools, otherTools, namespaced };
}

function parseInput(r: BodyReader, input: unknown, instructions: string | undefined): ChatMessage[] {
  const messages: ChatMessage[] = instructions === undefined ? [] : [{ role: 'system', content: instructions }];
  if (typeof input === 'string') return [...messages, { role: 'user', content: input }];
  const list = r.array(input, 'input');
  const calls = new Map<string, string>();
  const answered = new Set<string>();
  // function calls belong to the assistant turn they follow; a turn that only calls tools has no text
  let turn: { role: 'assistant'; content: string; toolCalls: ToolCall[]; refusal?: string } | undefined;
  for (const [i, value] of list.entries()) {
    const field = `input[${i}]`;
    const item = r.object(value, field);
    // an item with a role and no type is the API's "easy input message"
    const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
    switch (type) {
      case 'message': {
        const role = item.role;
        if (role === 'assistant') {
          const { text, refusal } = textOf(r, item.content, `${field}.content`, ['output_text', 'refusal']);
          turn = { role: 'assistant', content: text, toolCalls: [], ...(refusal === undefined ? {} : { refusal }) };
          messages.push(turn);
          continue;
        }
        const { text } = textOf(r, item.content, `${field}.content`, ['input_text']);
        if (role === 'user') messages.push({ role: 'user', content: text });
        else if (role === 'system' || role === 'developer') messages.push({ role: 'system', content: text });
        else r.fail(`${field}.role`, `expected "user", "assistant", "system" or "developer", got ${JSON.stringify(role)}`);
        turn = undefined;
        continue;
      }
      case 'function_call': {
        const id = r.string(item.call_id, `${field}.call_id`);
        const nested = r.string(item.name, `${field}.name`);
        const namespace = r.optionalString(item.namespace, `${field}.namespace`);
        const name = namespace === undefined ? nested : namespacedName(namespace, nested);
        const args = parseArguments(r.string(item.arguments ?? '', `${field}.arguments`));
        if (turn === undefined) {
          turn = { role: 'assistant', content: '', toolCalls: [] };
          messages.push(turn);
        }
        turn.toolCalls.push({ id, name, ...args });
        calls.set(id, name);
        continue;
      }
      case 'function_call_output': {
        const id = r.string(item.call_id, `${field}.call_id`);
        const toolName = calls.get(id);
        // the API answers "No tool call found for function call output with call_id ..." when the
        // call is not in the input, which with nothing stored is always the case for a call left out
        if (toolName === undefined) r.refuse(`No tool call found for function call output with call_id ${id}.`, 'input');
        answered.add(id);
        messages.push({ role: 'tool', toolCallId: id, toolName, content: outputText(r, item.output, `${field}.output`) });
        turn = undefined;
        continue;
      }
      case 'reasoning':
        // Dropped: its content is encrypted for the provider that wrote it, and Ladder's neutral
        // request has no place for OpenAI reasoning items; the model behind the gateway reasons anew.
        continue;
      case 'custom_tool_call':
      case 'custom_tool_call_output':
        r.fail(`${field}.type`, `${type} items are not served: custom (free-form) tools are the agent's own here, not tools the model calls through Ladder`);
      case 'item_reference':
        r.fail(`${field}.type`, 'item_reference needs items stored by the server, which the model gateway does not keep; send the items themselves with store: false');
      default:
        r.fail(`${field}.type`, `${JSON.stringify(type)} items are not served; send message, function_call, function_call_output or reasoning items`);
    }
  }
  // the API answers "No tool output found for function call ..." for a call with no output
  const unanswered = [...calls.keys()].filter((id) => !answered.has(id));
  if (unanswered.length > 0) r.refuse(`No tool output found for function call ${unanswered[0]}.`, 'input');
  return messages.map((m) => (m.role === 'assistant' ? tidyTurn(m) : m));
}

/** An assistant turn in the neutral shape: no empty tool-call list. */
function tidyTurn(m: AssistantMessage): AssistantMessage {
  const { toolCalls, ...rest } = m;
  return toolCalls?.length ? m : rest;
}

function parse(raw: unknown): ParsedRequest {
  const r: BodyReader = new BodyReader(ENDPOINT);
  const body = r.object(raw, 'body');
  // state kept by OpenAI between requests; the model gateway keeps none
  for (const key of ['previous_response_id', 'conversation']) {
    if (body[key] !== undefined && body[key] !== null) {
      r.fail(key, 'needs responses stored by the server, which the model gateway does not keep; send the whole conversation in input with store: false');
    }
  }
  if (body.prompt !== undefined && body.prompt !== null) r.fail('prompt', 'prompt templates live on OpenAI\'s servers; send the instructions and input themselves');
  if (body.background === true) r.fail('background', 'background responses need a stored response to poll; send the request with background false');
  // a field the Responses API does not know (a Chat Completions or Messages body's), in its words
  if (body.messages !== undefined) r.refuse("Unknown parameter: 'messages'.", 'messages', 'unknown_parameter');
  if (body.model === undefined) r.refuse("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  const model = r.model(body);
  const input = r.required(body, 'input', 'a string or an array of input items');
  const instructions = r.optionalString(body.instructions, 'instructions');
  const { tools, otherTools, namespaced } = parseTools(r, body.tools);
  const temperature = r.optionalNumber(body.temperature, 'temperature');
  const maxTokens = r.optionalNumber(body.max_output_tokens, 'max_output_tokens');
  const options: SamplingOptions = { ...(temperature === undefined ? {} : { temperature }), ...(maxTokens === undefined ? {} : { maxTokens }) };
  const request: ModelRequest = { messages: parseInput(r, input, instructions), tools, ...(Object.keys(options).length > 0 ? { options } : {}) };
  const wire: ResponsesWire = {
    namespaced, instructions: instructions ?? null, tools: Array.isArray(body.tools) ? body.tools : [], temperature: temperature ?? null, maxOutputTokens: maxTokens ?? null,
  };
  return { format: 'openai-responses', model, request, stream: r.optionalBoolean(body.stream, 'stream') ?? false, otherTools, wire };
}

function usage(response: ModelResponse) {
  const input = response.usage.inputTokens ?? 0;
  const output = response.usage.outputTokens ?? 0;
  const reasoning = response.details.provider === 'openai' ? (response.details.reasoningTokens ?? 0) : 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: response.usage.cacheReadTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

/** One answer's ids, made once so the stream's events and the final response agree. */
class Answer {
  readonly id = freshId('resp_');
  readonly messageId = freshId('msg_');
  readonly createdAt = Math.floor(Date.now() / 1000);

  constructor(private readonly parsed: ParsedRequest) {}

  private get wire(): ResponsesWire {
    return this.parsed.wire as ResponsesWire;
  }

  /** The response object; `status` in_progress before the answer is known. */
  response(status: string, output: unknown[] = [], response?: ModelResponse, error: Json | null = null): Json {
    const incomplete = response?.stopReason === 'max_tokens';
    return {
      id: this.id, object: 'response', created_at: this.createdAt, status, background: false, error,
      incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
      instructions: this.wire.instructions, max_output_tokens: this.wire.maxOutputTokens, model: this.parsed.model, output,
      parallel_tool_calls: true, previous_response_id: null, reasoning: { effort: null, summary: null }, store: false,
      temperature: this.wire.temperature, text: { format: { type: 'text' } }, tool_choice: 'auto', tools: this.wire.tools, top_p: null,
      truncation: 'disabled', usage: response === undefined ? null : usage(response), metadata: {},
    };
  }

  statusOf(response: ModelResponse): 'completed' | 'incomplete' {
    return response.stopReason === 'max_tokens' ? 'incomplete' : 'completed';
  }

  textPart(text: string) {
    return { type: 'output_text', text, annotations: [], logprobs: [] };
  }

  /** The message item: a text part when there is text (or a stream opened one), a refusal part after it. */
  message(text: string, refusal: string | undefined, status: string, withText = text !== '' || refusal === undefined) {
    const content = [...(withText ? [this.textPart(text)] : []), ...(refusal === undefined ? [] : [{ type: 'refusal', refusal }])];
    return { id: this.messageId, type: 'message', status, role: 'assistant', content };
  }

  /** The answer's calls as function_call items; a namespaced tool's call carries its namespace and nested name. */
  calls(response: ModelResponse) {
    const prior = priorCalls(this.parsed.request);
    return response.toolCalls.map((c, i) => {
      const at = this.wire.namespaced.get(c.name);
      return {
        id: freshId('fc_'), type: 'function_call', status: 'completed', call_id: callId('call_', c, prior + i),
        name: at?.name ?? c.name, ...(at === undefined ? {} : { namespace: at.namespace }), arguments: argumentsText(c),
      };
    });
  }

  output(response: ModelResponse): unknown[] {
    const text = response.text !== '' || response.refusal !== undefined ? [this.message(response.text, response.refusal, 'completed')] : [];
    return [...text, ...this.calls(response)];
  }
}

function reply(parsed: ParsedRequest, response: ModelResponse): unknown {
  const answer = new Answer(parsed);
  return { ...answer.response(answer.statusOf(response), answer.output(response), response), output_text: response.text };
}

function stream(parsed: ParsedRequest, sink: EventSink): WireStream {
  const answer = new Answer(parsed);
  let sequence = 0;
  // every event carries its type and a sequence number one above the last (API reference, streaming events)
  const emit = (type: string, fields: Json) => sink.send({ type, sequence_number: sequence++, ...fields }, type);
  let opened = false;
  let itemOpen = false;
  let textOpen = false;
  let sent = '';
  let nextIndex = 0;
  const ids = () => ({ item_id: answer.messageId, output_index: 0 });
  const open = () => {
    if (opened) return;
    opened = true;
    const response = answer.response('in_progress');
    emit('response.created', { response });
    emit('response.in_progress', { response });
  };
  // the item is added empty and each part added to it after, as the accumulator in the SDK expects
  const openItem = () => {
    if (itemOpen) return;
    itemOpen = true;
    nextIndex++;
    emit('response.output_item.added', { output_index: 0, item: { ...answer.message('', undefined, 'in_progress'), content: [] } });
  };
  const openText = () => {
    openItem();
    if (textOpen) return;
    textOpen = true;
    emit('response.content_part.added', { ...ids(), content_index: 0, part: answer.textPart('') });
  };
  const delta = (text: string) => {
    sent += text;
    emit('response.output_text.delta', { ...ids(), content_index: 0, delta: text, logprobs: [] });
  };
  return {
    text(text) {
      open();
      if (text === '') return;
      openText();
      delta(text);
    },
    finish(response) {
      open();
      const { text, refusal } = response;
      const withText = textOpen || text !== '';
      if (withText || refusal !== undefined) {
        openItem();
        if (withText) {
          openText();
          // the answer's text is the whole of it; what was streamed is its start
          const rest = text.startsWith(sent) ? text.slice(sent.length) : '';
          if (rest !== '') delta(rest);
          emit('response.output_text.done', { ...ids(), content_index: 0, text, logprobs: [] });
          emit('response.content_part.done', { ...ids(), content_index: 0, part: answer.textPart(text) });
        }
        if (refusal !== undefined) {
          const content_index = withText ? 1 : 0;
          emit('response.content_part.added', { ...ids(), content_index, part: { type: 'refusal', refusal: '' } });
          emit('response.refusal.delta', { ...ids(), content_index, delta: refusal });
          emit('response.refusal.done', { ...ids(), content_index, refusal });
          emit('response.content_part.done', { ...ids(), content_index, part: { type: 'refusal', refusal } });
        }
        emit('response.output_item.done', { output_index: 0, item: answer.message(text, refusal, 'completed', withText) });
      }
      const calls = answer.calls(response);
      for (const call of calls) {
        const output_index = nextIndex++;
        emit('response.output_item.added', { output_index, item: { ...call, status: 'in_progress', arguments: '' } });
        emit('response.function_call_arguments.delta', { item_id: call.id, output_index, delta: call.arguments });
        emit('response.function_call_arguments.done', { item_id: call.id, output_index, name: call.name, arguments: call.arguments });
        emit('response.output_item.done', { output_index, item: call });
      }
      const message = itemOpen ? [answer.message(text, refusal, 'completed', withText)] : [];
      const status = answer.statusOf(response);
      emit(`response.${status}`, { response: answer.response(status, [...message, ...calls], response) });
    },
    fail(_status, message, code) {
      open();
      // Codex reads response.failed's error code (rate_limit_exceeded, context_length_exceeded)
      emit('response.failed', { response: answer.response('failed', [], undefined, { code: code ?? 'server_error', message }) });
    },
  };
}

export const responsesCodec: WireCodec = { format: 'openai-responses', parse, reply, stream, errorBody: openaiErrorBody };
