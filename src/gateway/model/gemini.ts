// Google's Gemini API (POST /v1beta/models/{model}:generateContent and
// :streamGenerateContent?alt=sse), both ways. Rules are the API reference's
// (ai.google.dev/api/generate-content, ai.google.dev/api/caching#Content, #Part, #FunctionDeclaration)
// and the function-calling guide's (ai.google.dev/gemini-api/docs/function-calling), each cited
// where it is enforced. Where the API refuses with a fixed sentence ("Please use a valid role:
// user, model."), that sentence is the message and the field with what to do goes in the error's
// details, as Google attaches a BadRequest there; otherwise the message is in Google's validation
// form, `* GenerateContentRequest.<field>: <problem>`.
import type { ChatMessage, ModelRequest, ModelResponse, SamplingOptions, StopReason, ToolCall, ToolSpec } from '../../models/types.ts';
import { BodyReader } from './check.ts';
import type { Json } from './check.ts';
import { googleErrorBody, googleHttpStatus } from './errors.ts';
import { callId, freshId, priorCalls } from './ids.ts';
import { uniqueTools } from './tools.ts';
import type { EventSink, ParsedRequest, WireCodec, WireRoute, WireStream } from './types.ts';
import { WireRequestError } from './types.ts';
import { geminiSchema, WAIT_FOR_PREVIOUS, withoutWaitForPrevious } from './geminiSchema.ts';

interface GeminiWire {
  /** Tools whose declaration carried Gemini CLI's `wait_for_previous`: a call to one goes back without it. */
  readonly waitStripped: ReadonlySet<string>;
}

/** Reads a GenerateContentRequest; refusals name the field as Google's validation errors do. */
class GeminiReader extends BodyReader {
  constructor() {
    super('GenerateContentRequest');
  }

  override fail(field: string, problem: string): never {
    throw new WireRequestError(`* GenerateContentRequest.${field}: ${problem}`, field);
  }

  /** Google's own fixed sentence for a refusal, the field and what to do beside it. */
  refuseWithHint(sentence: string, field: string, hint: string): never {
    throw new WireRequestError(sentence, field, 400, null, hint);
  }

  /**
   * The object's fields by their JSON names: proto3 JSON takes a field's lowerCamelCase name or
   * its original snake_case one (`system_instruction`, as Google's REST samples write it), and the
   * API refuses any other name: `Invalid JSON payload received. Unknown name "x" at '...': Cannot find field.`
   */
  fields(value: unknown, field: string, known: readonly string[]): Json {
    const object = this.object(value, field || 'body');
    const out: Json = {};
    for (const [key, item] of Object.entries(object)) {
      const camel = key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
      if (!known.includes(camel)) {
        throw new WireRequestError(`Invalid JSON payload received. Unknown name ${JSON.stringify(key)}${field === '' ? '' : ` at '${field}'`}: Cannot find field.`, field === '' ? key : `${field}.${key}`);
      }
      out[camel] = item;
    }
    return out;
  }
}

// GenerateContentRequest's fields (API reference, "Request body"; `model` is the path's, and may be repeated in the body).
const REQUEST_FIELDS = ['model', 'contents', 'tools', 'toolConfig', 'safetySettings', 'systemInstruction', 'generationConfig', 'cachedContent'];
const CONTENT_FIELDS = ['role', 'parts'];
// Part: one `data` field (the union) and the metadata beside it.
const PART_DATA = ['text', 'inlineData', 'functionCall', 'functionResponse', 'fileData', 'executableCode', 'codeExecutionResult'];
const PART_FIELDS = [...PART_DATA, 'thought', 'thoughtSignature', 'partMetadata', 'videoMetadata', 'mediaResolution'];
const CALL_FIELDS = ['id', 'name', 'args'];
const RESPONSE_FIELDS = ['id', 'name', 'response', 'parts', 'willContinue', 'scheduling'];
// Tool: function declarations, and the API's own tools, which are the agent's, not the model's through Ladder.
const TOOL_KINDS = ['functionDeclarations', 'googleSearchRetrieval', 'codeExecution', 'googleSearch', 'computerUse', 'urlContext', 'fileSearch', 'googleMaps', 'mcpServers'];
const DECLARATION_FIELDS = ['name', 'description', 'behavior', 'parameters', 'parametersJsonSchema', 'response', 'responseJsonSchema'];
// FunctionDeclaration.name: the API's own refusal states the rule.
const NAME_RULE = /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/;
const NAME_RULE_TEXT = 'Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.';

const ROLE_SENTENCE = 'Please use a valid role: user, model.';
const CALL_TURN_SENTENCE = 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.';
const RESPONSE_TURN_SENTENCE = 'Please ensure that function response turn comes immediately after a function call turn.';
const COUNT_SENTENCE = 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

interface Turn {
  readonly role: 'user' | 'model';
  readonly field: string;
  readonly texts: string[];
  readonly calls: (ToolCall & { readonly field: string })[];
  readonly responses: { readonly id?: string; readonly name: string; readonly field: string; readonly content: string; readonly isError: boolean }[];
}

/** A functionResponse's `response` as text: its "output" or "error" when that is all it holds, else the whole object (API reference, FunctionResponse.response). */
function responseText(response: Json): { content: string; isError: boolean } {
  const keys = Object.keys(response);
  if (keys.length === 1 && keys[0] === 'output') return { content: typeof response.output === 'string' ? response.output : JSON.stringify(response.output), isError: false };
  if (keys.length === 1 && keys[0] === 'error') return { content: typeof response.error === 'string' ? response.error : JSON.stringify(response.error), isError: true };
  return { content: JSON.stringify(response), isError: false };
}

function readTurn(r: GeminiReader, value: unknown, field: string): Turn {
  const content = r.fields(value, field, CONTENT_FIELDS);
  // Content.role: "Must be either 'user' or 'model'"; left unset it is the user's
  const role = content.role === undefined || content.role === '' ? 'user' : content.role;
  if (role !== 'user' && role !== 'model') r.refuseWithHint(ROLE_SENTENCE, `${field}.role`, `got ${JSON.stringify(role)}; put system text in systemInstruction`);
  const parts = r.array(r.required(content, 'parts', 'the content\'s parts', `${field}.parts`), `${field}.parts`);
  if (parts.length === 0) r.fail(`${field}.parts`, 'contents.parts must not be empty.');
  const turn: Turn = { role, field, texts: [], calls: [], responses: [] };
  for (const [j, item] of parts.entries()) {
    const at = `${field}.parts[${j}]`;
    const part = r.fields(item, at, PART_FIELDS);
    const data = PART_DATA.filter((name) => part[name] !== undefined);
    // Part.data is a union: exactly one of its fields
    if (data.length === 0) r.fail(`${at}.data`, 'required oneof field \'data\' must have one initialized field');
    if (data.length > 1) r.fail(at, `Oneof field 'data' is already set. Cannot set '${data[1]}'`);
    r.optionalBoolean(part.thought, `${at}.thought`);
    r.optionalString(part.thoughtSignature, `${at}.thoughtSignature`);
    if (part.text !== undefined) {
      const text = r.string(part.text, `${at}.text`);
      // the model's thoughts are not sent on: the model behind the gateway reasons anew
      if (part.thought !== true) turn.texts.push(text);
    } else if (part.functionCall !== undefined) {
      if (role !== 'model') r.fail(`${at}.function_call`, 'a function call is the model\'s: it goes in a content with role "model"');
      const call = r.fields(part.functionCall, `${at}.function_call`, CALL_FIELDS);
      const name = r.string(r.required(call, 'name', 'the function\'s name', `${at}.function_call.name`), `${at}.function_call.name`);
      const args = call.args === undefined || call.args === null ? {} : r.object(call.args, `${at}.function_call.args`);
      const id = r.optionalString(call.id, `${at}.function_call.id`);
      turn.calls.push({ id: id ?? '', name, args, field: at });
    } else if (part.functionResponse !== undefined) {
      if (role !== 'user') r.fail(`${at}.function_response`, 'a function response goes in a content with role "user", right after the function call turn');
      const response = r.fields(part.functionResponse, `${at}.function_response`, RESPONSE_FIELDS);
      const name = r.string(r.required(response, 'name', 'the name of the function it answers', `${at}.function_response.name`), `${at}.function_response.name`);
      const body = r.object(r.required(response, 'response', 'the function\'s response, a JSON object', `${at}.function_response.response`), `${at}.function_response.response`);
      const id = r.optionalString(response.id, `${at}.function_response.id`);
      turn.responses.push({ ...(id === undefined ? {} : { id }), name, field: `${at}.function_response`, ...responseText(body) });
    } else if (turn.responses.length > 0 && (part.inlineData !== undefined || part.fileData !== undefined)) {
      // An image or file after a function response in the same turn is that tool's result (Gemini
      // CLI sends an MCP image so): it cannot reach a text-only model, and the model is told it was
      // there, as the other formats tell it. In a turn of the user's own it is refused, as they refuse it.
      const last = turn.responses.length - 1;
      turn.responses[last] = { ...turn.responses[last]!, content: `${turn.responses[last]!.content}\n[${data[0]}: not carried by the model gateway, which passes text only]` };
    } else {
      r.fail(`${at}.${data[0]}`, `${data[0]} parts are not served: the model gateway carries text, functionCall and functionResponse parts only`);
    }
  }
  return turn;
}

/** The neutral messages of the conversation, checked as the function-calling guide orders the turns. */
function conversation(r: GeminiReader, list: unknown[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let previous: Turn | undefined;
  /** The neutral calls of the model turn before, ids made where the agent sent none. */
  let previousCalls: ToolCall[] = [];
  let place = 0;
  for (const [i, item] of list.entries()) {
    const turn = readTurn(r, item, `contents[${i}]`);
    const pending = previous?.role === 'model' && previous.calls.length > 0 ? previous : undefined;
    if (pending !== undefined && turn.responses.length !== pending.calls.length) {
      r.refuseWithHint(COUNT_SENTENCE, turn.field, `the turn before called ${pending.calls.length} function(s) (${pending.calls.map((c) => c.name).join(', ')}); answer each with one functionResponse part in this user turn`);
    }
    if (turn.role === 'model') {
      // a call turn follows a user turn (a function response turn is one)
      if (turn.calls.length > 0 && previous?.role !== 'user') r.refuseWithHint(CALL_TURN_SENTENCE, turn.field, 'a model turn with function calls must follow a user turn');
      const calls = turn.calls.map(({ field: _field, ...call }, k): ToolCall => ({ ...call, id: call.id === '' ? callId('call_', call, place + k) : call.id }));
      place += calls.length;
      previousCalls = calls;
      messages.push({ role: 'assistant', content: turn.texts.join(''), ...(calls.length > 0 ? { toolCalls: calls } : {}) });
    } else {
      if (turn.responses.length > 0 && pending === undefined) r.refuseWithHint(RESPONSE_TURN_SENTENCE, turn.field, 'function responses answer the function calls of the model turn just before');
      const asked = pending === undefined ? [] : previousCalls.map((call, k) => ({ call, wire: pending.calls[k]! }));
      for (const response of turn.responses) {
        // FunctionResponse.id: "the id of the function call this response is for"; its name "Matches FunctionCall.name"
        const k = asked.findIndex(({ call, wire }) => (response.id !== undefined && wire.id !== '' ? wire.id === response.id : call.name === response.name));
        if (k < 0) {
          r.fail(`${response.field}.name`, `${JSON.stringify(response.name)}${response.id === undefined ? '' : ` (id ${JSON.stringify(response.id)})`} answers no function call of the turn before (${pending!.calls.map((c) => c.name).join(', ')}); a function response names the call it answers`);
        }
        const { call } = asked.splice(k, 1)[0]!;
        messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: response.content, ...(response.isError ? { isError: true } : {}) });
      }
      if (turn.texts.length > 0) messages.push({ role: 'user', content: turn.texts.join('\n') });
    }
    previous = turn;
  }
  if (previous?.role === 'model' && previous.calls.length > 0) {
    r.refuseWithHint(COUNT_SENTENCE, previous.field, 'the conversation ends with the model\'s function calls; send their functionResponse parts in a user turn after it');
  }
  return messages;
}

function parseTools(r: GeminiReader, value: unknown): { tools: ToolSpec[]; otherTools: string[]; waitStripped: Set<string> } {
  const tools: ToolSpec[] = [];
  const otherTools: string[] = [];
  const waitStripped = new Set<string>();
  const names: { name: string; field: string }[] = [];
  for (const [i, item] of (value === undefined || value === null ? [] : r.array(value, 'tools')).entries()) {
    const tool = r.fields(item, `tools[${i}]`, TOOL_KINDS);
    for (const kind of Object.keys(tool)) {
      if (kind !== 'functionDeclarations') otherTools.push(kind);
    }
    for (const [j, d] of (tool.functionDeclarations === undefined ? [] : r.array(tool.functionDeclarations, `tools[${i}].function_declarations`)).entries()) {
      const field = `tools[${i}].function_declarations[${j}]`;
      const declaration = r.fields(d, field, DECLARATION_FIELDS);
      const name = r.string(r.required(declaration, 'name', 'the function\'s name', `${field}.name`), `${field}.name`);
      if (!NAME_RULE.test(name)) r.fail(`${field}.name`, NAME_RULE_TEXT);
      // FunctionDeclaration: parametersJsonSchema "is mutually exclusive with parameters"
      if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
        r.fail(`${field}.parameters_json_schema`, 'parameters and parameters_json_schema are mutually exclusive; send one');
      }
      const schema = declaration.parametersJsonSchema !== undefined
        ? r.object(declaration.parametersJsonSchema, `${field}.parameters_json_schema`)
        : declaration.parameters !== undefined ? geminiSchema(r.object(declaration.parameters, `${field}.parameters`)) : { type: 'object', properties: {} };
      const stripped = withoutWaitForPrevious(schema);
      if (stripped !== schema) waitStripped.add(name);
      tools.push({ name, description: r.optionalString(declaration.description, `${field}.description`) ?? '', inputSchema: stripped });
      names.push({ name, field: `${field}.name` });
    }
  }
  uniqueTools(r, names);
  return { tools, otherTools, waitStripped };
}

function systemText(r: GeminiReader, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const content = r.fields(value, 'system_instruction', CONTENT_FIELDS);
  // systemInstruction: "Currently, text only"; its role, if any, is not read
  return r.array(content.parts ?? [], 'system_instruction.parts').map((item, j) => {
    const part = r.fields(item, `system_instruction.parts[${j}]`, PART_FIELDS);
    return r.string(part.text, `system_instruction.parts[${j}].text`);
  }).join('\n');
}

function sampling(r: GeminiReader, value: unknown): SamplingOptions {
  if (value === undefined || value === null) return {};
  const config = r.object(value, 'generation_config');
  const get = (name: string) => config[name] ?? config[name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
  const candidates = r.optionalNumber(get('candidateCount'), 'generation_config.candidate_count');
  // one answer is what the callback gives
  if (candidates !== undefined && candidates !== 1) r.fail('generation_config.candidate_count', `only 1 candidate is served, got ${candidates}`);
  const temperature = r.optionalNumber(get('temperature'), 'generation_config.temperature');
  const seed = r.optionalNumber(get('seed'), 'generation_config.seed');
  const maxTokens = r.optionalNumber(get('maxOutputTokens'), 'generation_config.max_output_tokens');
  return {
    ...(temperature === undefined ? {} : { temperature }),
    ...(seed === undefined ? {} : { seed }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
  };
}

function parse(raw: unknown, _headers: unknown, route: WireRoute = {}): ParsedRequest {
  const r = new GeminiReader();
  const body = r.fields(raw, '', REQUEST_FIELDS);
  const model = route.model ?? '';
  if (model.trim() === '') r.fail('model', 'unexpected model name format');
  // a cached content lives on Google's servers; nothing here holds one
  if (body.cachedContent !== undefined) r.fail('cached_content', 'not served: the model gateway keeps no cached contents; send the whole conversation in contents');
  if (body.contents === undefined || (Array.isArray(body.contents) && body.contents.length === 0)) r.fail('contents', 'contents is not specified');
  const list = r.array(body.contents, 'contents');
  const system = systemText(r, body.systemInstruction);
  const messages: ChatMessage[] = [...(system === undefined ? [] : [{ role: 'system' as const, content: system }]), ...conversation(r, list)];
  const { tools, otherTools, waitStripped } = parseTools(r, body.tools);
  const options = sampling(r, body.generationConfig);
  const request: ModelRequest = { messages, tools, ...(Object.keys(options).length > 0 ? { options } : {}) };
  const wire: GeminiWire = { waitStripped };
  return { format: 'gemini', model, request, stream: route.stream ?? false, otherTools, wire };
}

/** Candidate.finishReason: a call is not a reason of its own at Google; the turn stops. */
export function finishReason(response: ModelResponse): string {
  const reasons: Record<StopReason, string> = { end: 'STOP', tool_calls: 'STOP', max_tokens: 'MAX_TOKENS', refusal: 'SAFETY', other: 'STOP' };
  return reasons[response.stopReason];
}

/** UsageMetadata: promptTokenCount is the whole prompt, cached part included (API reference, UsageMetadata). */
function usageMetadata(response: ModelResponse) {
  const prompt = response.usage.inputTokens ?? 0;
  const candidates = response.usage.outputTokens ?? 0;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates,
    ...(response.usage.cacheReadTokens === undefined ? {} : { cachedContentTokenCount: response.usage.cacheReadTokens }),
  };
}

/**
 * The answer's calls as functionCall parts, each with an id: Gemini CLI keeps the id it is given
 * (`fnCall.id ?? <its own>`) and sends it back on the functionResponse, so the gateway can tell
 * which of its calls a result answers. Arguments that were not a JSON object go as {}: args is one.
 */
function callParts(parsed: ParsedRequest, response: ModelResponse): Json[] {
  const { waitStripped } = parsed.wire as GeminiWire;
  const prior = priorCalls(parsed.request);
  return response.toolCalls.map((call, i) => {
    // Gemini CLI adds a boolean wait_for_previous to every declaration it sends, and passes the
    // model's arguments to the MCP server as they are: one sent on would reach the server (a
    // schema that allows no extra property refuses it) and change the call's key, so the lane
    // would not know the call for the one the model asked for. It is taken off here, before
    // Gemini CLI makes the call.
    const { [WAIT_FOR_PREVIOUS]: _wait, ...args } = call.args;
    return { functionCall: { id: callId('call_', call, prior + i), name: call.name, args: waitStripped.has(call.name) ? args : { ...call.args } } };
  });
}

function candidate(parts: Json[], finish?: string) {
  return { content: { role: 'model', parts }, ...(finish === undefined ? {} : { finishReason: finish }), index: 0 };
}

function reply(parsed: ParsedRequest, response: ModelResponse): unknown {
  const text = response.text !== '' ? response.text : (response.refusal ?? '');
  const parts = [...(text === '' ? [] : [{ text }]), ...callParts(parsed, response)];
  return {
    candidates: [candidate(parts.length === 0 ? [{ text: '' }] : parts, finishReason(response))],
    usageMetadata: usageMetadata(response),
    modelVersion: parsed.model,
    responseId: freshId(''),
  };
}

/** `data: {GenerateContentResponse}` chunks, as `alt=sse` sends them; the last has the finish reason and usage. */
function stream(parsed: ParsedRequest, sink: EventSink): WireStream {
  const responseId = freshId('');
  let sent = '';
  const chunk = (parts: Json[], finish?: string, usage?: unknown) =>
    sink.send({ candidates: [candidate(parts, finish)], ...(usage === undefined ? {} : { usageMetadata: usage }), modelVersion: parsed.model, responseId });
  return {
    text(delta) {
      if (delta === '') return;
      sent += delta;
      chunk([{ text: delta }]);
    },
    finish(response) {
      const whole = response.text !== '' ? response.text : (response.refusal ?? '');
      const rest = whole.startsWith(sent) ? whole.slice(sent.length) : '';
      const parts = [...(rest === '' ? [] : [{ text: rest }]), ...callParts(parsed, response)];
      chunk(parts.length === 0 ? [{ text: '' }] : parts, finishReason(response), usageMetadata(response));
    },
    fail(status, message, code) {
      // @google/genai reads an error mid-stream as a chunk that is a JSON object with `error`
      // (its stream reader tries JSON.parse on each chunk before the `data:` lines); Gemini CLI then retries or stops by its status
      sink.write(JSON.stringify(errorBody(status, message, null, code)));
    },
  };
}

/**
 * Google's error body. A context too long reads as Google says it ("The input token count ...
 * exceeds the maximum number of tokens allowed"); a refusal with a fixed sentence carries the
 * field and what to do as a google.rpc.BadRequest field violation.
 */
function errorBody(status: number, message: string, param?: string | null, code?: string | null, hint?: string | null): unknown {
  const text = code === 'context_length_exceeded' ? `The input token count exceeds the maximum number of tokens allowed: ${message}` : message;
  const details = hint === null || hint === undefined || param === null || param === undefined
    ? []
    : [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: param, description: hint }] }];
  return googleErrorBody(status, text, details);
}

export const geminiCodec: WireCodec = { format: 'gemini', parse, reply, stream, errorBody, httpStatus: googleHttpStatus };
