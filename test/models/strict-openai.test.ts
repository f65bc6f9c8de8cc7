// Each rule of the strict OpenAI-compatible servers: the request the adapter used to send is
// refused with the service's own error, and the one it sends now is accepted.
import { afterEach, describe, expect, it } from 'vitest';
import { assistantMessage, ModelConfigError, OpenAIAdapter, buildOpenAIRequest } from '../../src/models/index.ts';
import type { ChatMessage, ModelRequest, ToolSpec } from '../../src/models/index.ts';
import { FUNCTION_NAME_RULE, wireName } from '../../src/models/names.ts';
import { sendsSeed } from '../../src/models/openai.ts';
import { FakeProvider, openaiReply } from './fakeServer.ts';
import type { FakeOptions } from './fakeServer.ts';

const ASK: ChatMessage[] = [{ role: 'user', content: 'Go.' }];
const SCHEMA = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
const tool = (name: string, inputSchema: Record<string, unknown> = SCHEMA): ToolSpec => ({ name, description: 'A tool', inputSchema });
/** A tool as the adapter sent it before it adapted anything. */
const asListed = (t: ToolSpec) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: { ...t.inputSchema } } });

let server: FakeProvider;
afterEach(async () => server.close());

async function start(options: FakeOptions = {}): Promise<OpenAIAdapter> {
  server = await FakeProvider.start(options);
  return new OpenAIAdapter('m', { baseUrl: `${server.url}/v1`, apiKey: 'k', env: {}, retry: { maxAttempts: 1 } });
}

/** The old body refused by `rule`, the adapter's body accepted. */
async function oldRefusedNewAccepted(rule: string, old: unknown, request: ModelRequest, model: OpenAIAdapter, reply = openaiReply('ok')) {
  const refused = await server.post('/v1/chat/completions', old);
  expect(server.lastRefused).toBe(rule);
  server.reply(reply);
  const response = await model.complete(request);
  expect(server.lastRefused).toBeUndefined();
  return { refused, response };
}

describe('strict OpenAI: tool names', () => {
  it('refuses a function name with a character outside [a-zA-Z0-9_-]; the adapter sends it cleaned and maps the call back', async () => {
    const model = await start();
    const dotted = tool('fs__read.file');
    const { refused, response } = await oldRefusedNewAccepted(
      'function-name-pattern',
      { model: 'm', messages: ASK, tools: [asListed(dotted)] },
      { messages: ASK, tools: [dotted] },
      model,
      openaiReply(null, [{ id: 'c1', name: 'fs__read_file', args: { path: 'a' } }]),
    );
    expect(refused).toStrictEqual({
      status: 400,
      json: {
        error: {
          message: "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
          type: 'invalid_request_error', param: 'tools[0].function.name', code: 'invalid_value',
        },
      },
    });
    expect(server.seen.at(-1)!.body.tools[0].function.name).toBe('fs__read_file');
    expect(response.toolCalls).toStrictEqual([{ id: 'c1', name: 'fs__read.file', args: { path: 'a' } }]);
    expect(response.adaptations).toContainEqual({ kind: 'name', tool: 'fs__read.file', sent: 'fs__read_file' });
  });

  it('refuses a name over 64 characters; the adapter shortens it the same way every time and maps the call back exactly', async () => {
    const model = await start();
    const long = tool(`browser-automation__${'take_a_full_page_screenshot_of_the_current_tab_'.repeat(2)}`);
    const sent = wireName(long.name, FUNCTION_NAME_RULE);
    expect(sent).toHaveLength(64);
    expect(sent).toBe(wireName(long.name, FUNCTION_NAME_RULE));
    const { refused, response } = await oldRefusedNewAccepted(
      'function-name-length',
      { model: 'm', messages: ASK, tools: [asListed(long)] },
      { messages: ASK, tools: [long] },
      model,
      openaiReply(null, [{ id: 'c1', name: sent, args: { path: 'a' } }]),
    );
    expect(refused.json.error).toMatchObject({ code: 'string_above_max_length', message: expect.stringContaining(`got a string with length ${long.name.length} instead`) });
    expect(response.toolCalls[0]!.name).toBe(long.name);
    // the history carries the name the provider knows
    const conversation: ChatMessage[] = [...ASK, assistantMessage(response), { role: 'tool', toolCallId: 'c1', toolName: long.name, content: 'png' }];
    server.reply(openaiReply('done'));
    await model.complete({ messages: conversation, tools: [long] });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body.messages[1].tool_calls[0].function.name).toBe(sent);
  });

  it('treats two tools that would go out under one name as a fatal configuration error naming both', async () => {
    const model = await start();
    const long = tool(`a__${'x'.repeat(70)}`);
    const impostor = tool(wireName(long.name, FUNCTION_NAME_RULE));
    await expect(model.complete({ messages: ASK, tools: [long, impostor] })).rejects.toThrow(ModelConfigError);
    await expect(model.complete({ messages: ASK, tools: [long, impostor] })).rejects.toThrow(
      `tools ${JSON.stringify(long.name)} and ${JSON.stringify(impostor.name)} would both be sent to the provider as ${JSON.stringify(impostor.name)}`,
    );
    expect(server.seen).toHaveLength(0);
  });
});

describe('strict OpenAI: tool schemas', () => {
  it('refuses parameters without type "object" (a bare union); the adapter sends one object schema', async () => {
    const model = await start();
    const union = tool('db__find', { anyOf: [{ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }] });
    const { refused, response } = await oldRefusedNewAccepted('parameters-type-object', { model: 'm', messages: ASK, tools: [asListed(union)] }, { messages: ASK, tools: [union] }, model);
    expect(refused.json.error.message).toBe(`Invalid schema for function 'db__find': schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`);
    expect(server.seen.at(-1)!.body.tools[0].function.parameters).toStrictEqual({
      type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } },
    });
    expect(response.adaptations).toContainEqual({
      kind: 'schema', tool: 'db__find', changes: ['flattened the top-level anyOf of 2 schemas into one object'],
    });
  });

  it("refuses a top-level oneOf beside type 'object'; the adapter flattens it, keeping what every variant requires", async () => {
    const model = await start();
    const oneOf = tool('jobs__wait', {
      type: 'object',
      properties: { timeoutMs: { type: 'integer' } },
      required: ['timeoutMs'],
      oneOf: [{ properties: { jobId: { type: 'string' } }, required: ['jobId'] }, { properties: { all: { type: 'boolean' } }, required: ['all'] }],
    });
    const { refused } = await oldRefusedNewAccepted('parameters-top-level-keywords', { model: 'm', messages: ASK, tools: [asListed(oneOf)] }, { messages: ASK, tools: [oneOf] }, model);
    expect(refused.json.error.message).toBe(
      "Invalid schema for function 'jobs__wait': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top level.",
    );
    expect(server.seen.at(-1)!.body.tools[0].function.parameters).toStrictEqual({
      type: 'object', properties: { timeoutMs: { type: 'integer' }, jobId: { type: 'string' }, all: { type: 'boolean' } }, required: ['timeoutMs'],
    });
  });

  it('refuses an object schema without properties (a tool with no arguments); the adapter adds empty ones', async () => {
    const model = await start();
    const bare = tool('catalog__list', { type: 'object' });
    const { refused, response } = await oldRefusedNewAccepted('parameters-properties', { model: 'm', messages: ASK, tools: [asListed(bare)] }, { messages: ASK, tools: [bare] }, model);
    expect(refused.json.error).toStrictEqual({
      message: "Invalid schema for function 'catalog__list': In context=(), object schema missing properties.",
      type: 'invalid_request_error', param: 'tools[0].function.parameters', code: 'invalid_function_parameters',
    });
    expect(server.seen.at(-1)!.body.tools[0].function.parameters).toStrictEqual({ type: 'object', properties: {} });
    expect(response.adaptations).toStrictEqual([{ kind: 'schema', tool: 'catalog__list', changes: ['added empty properties'] }]);
  });
});

describe('strict OpenAI: message order', () => {
  const call = { id: 'call_1', type: 'function', function: { name: 'fs__read', arguments: '{"path":"a"}' } };

  it('refuses tool calls left unanswered and a tool message answering nothing; the adapter answers each call under its id', async () => {
    const model = await start();
    await server.post('/v1/chat/completions', { model: 'm', messages: [...ASK, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'user', content: 'and?' }] });
    expect(server.lastRefused).toBe('tool-answers-tool-calls');
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({ error: { message: expect.stringContaining('did not have response messages: call_1') } });
    await server.post('/v1/chat/completions', { model: 'm', messages: [...ASK, { role: 'tool', tool_call_id: 'call_1', content: 'x' }] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({
      error: { message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'." },
    });
    server.reply(openaiReply(null, [{ id: 'call_1', name: 'fs__read', args: { path: 'a' } }]), openaiReply('done'));
    const r1 = await model.complete({ messages: ASK, tools: [tool('fs__read')] });
    await model.complete({ messages: [...ASK, assistantMessage(r1), { role: 'tool', toolCallId: 'call_1', toolName: 'fs__read', content: 'x' }], tools: [tool('fs__read')] });
    expect(server.seen.map((s) => s.refused?.rule)).toStrictEqual(['tool-answers-tool-calls', 'tool-answers-tool-calls', undefined, undefined]);
  });
});

describe("Ollama's /v1: arguments in the history", () => {
  it('refuses tool-call arguments that are not JSON; the adapter answers the call as failed and sends {} back', async () => {
    const model = await start({ strict: 'ollama-openai' });
    server.reply(openaiReply(null, [{ id: 'call_1', name: 'db__query', args: '{"sql": "select' }]));
    const r1 = await model.complete({ messages: ASK, tools: [tool('db__query')] });
    expect(r1.toolCalls).toStrictEqual([{ id: 'call_1', name: 'db__query', args: {}, rawArgs: '{"sql": "select' }]);
    expect(r1.adaptations).toStrictEqual([{ kind: 'arguments', tool: 'db__query', id: 'call_1', why: 'arguments were not a JSON object; sent back as {}' }]);
    const answered: ChatMessage = { role: 'tool', toolCallId: 'call_1', toolName: 'db__query', content: 'The arguments were not a JSON object', isError: true };
    const old = {
      model: 'm',
      messages: [...ASK, { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'db__query', arguments: '{"sql": "select' } }] }, { role: 'tool', tool_call_id: 'call_1', content: 'x' }],
    };
    const refused = await server.post('/v1/chat/completions', old);
    expect(refused).toStrictEqual({ status: 400, json: { error: { message: 'invalid tool call arguments', type: 'invalid_request_error', param: null, code: null } } });
    server.reply(openaiReply('sorry'));
    await model.complete({ messages: [...ASK, assistantMessage(r1), answered], tools: [tool('db__query')] });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body.messages[1].tool_calls[0].function.arguments).toBe('{}');
  });
});

describe('seed', () => {
  it('is refused as an unknown field by strict APIs; the adapter sends it only to servers known to take it', async () => {
    server = await FakeProvider.start({ strict: 'extra-forbidden' });
    const refused = await server.post('/v1/chat/completions', { model: 'm', messages: ASK, seed: 7 });
    expect(refused.status).toBe(422);
    expect(refused.json.message.detail[0]).toMatchObject({ type: 'extra_forbidden', loc: ['body', 'seed'] });
    const remote = new OpenAIAdapter('m', { baseUrl: `${server.url}/v1`, apiKey: 'k', env: {}, sendSeed: false });
    server.reply(openaiReply('ok'));
    const response = await remote.complete({ messages: ASK, tools: [], options: { seed: 7 } });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body).not.toHaveProperty('seed');
    expect(response.ignoredOptions).toStrictEqual(['seed']);
    expect(remote.settings.seed).toBe(false);
  });

  it('goes to local servers (Ollama, vLLM, llama.cpp, LM Studio), not to hosted OpenAI or another remote API', () => {
    expect(sendsSeed(new URL('http://127.0.0.1:11434/v1'))).toBe(true);
    expect(sendsSeed(new URL('http://localhost:8000/v1'))).toBe(true);
    expect(sendsSeed(new URL('http://192.168.1.20:1234/v1'))).toBe(true);
    expect(sendsSeed(new URL('https://api.openai.com/v1'))).toBe(false);
    expect(sendsSeed(new URL('https://api.mistral.ai/v1'))).toBe(false);
    expect(sendsSeed(new URL('https://openrouter.ai/api/v1'))).toBe(false);
  });
});

describe('replies as real ones are', () => {
  it('records a refusal as such, with its text, and sends it back with the turn', async () => {
    const model = await start();
    const reply = openaiReply(null);
    reply.json.choices[0]!.message.refusal = "I can't help with that." as unknown as null;
    server.reply(reply, openaiReply('ok'));
    const res = await model.complete({ messages: ASK, tools: [] });
    expect(res).toMatchObject({ text: '', refusal: "I can't help with that.", stopReason: 'refusal', providerStopReason: 'stop' });
    await model.complete({ messages: [...ASK, assistantMessage(res), { role: 'user', content: 'Why?' }], tools: [] });
    expect(server.seen.at(-1)!.body.messages[1]).toStrictEqual({ role: 'assistant', content: null, refusal: "I can't help with that." });
  });

  it('records cached input tokens and reasoning tokens from usage details', async () => {
    const model = await start();
    const reply = openaiReply('hi');
    reply.json.usage.prompt_tokens_details.cached_tokens = 24;
    reply.json.usage.completion_tokens_details.reasoning_tokens = 5;
    server.reply(reply);
    const res = await model.complete({ messages: ASK, tools: [] });
    expect(res.details).toMatchObject({ provider: 'openai', cachedInputTokens: 24, reasoningTokens: 5 });
    // prompt_tokens already counts the cached part: the neutral usage keeps it whole and names the cached share
    expect(res.usage).toStrictEqual({ inputTokens: 30, outputTokens: 9, cacheReadTokens: 24 });
  });

  it('leaves the cached count out of the usage when the server reports no details', async () => {
    const model = await start();
    const reply = openaiReply('hi');
    delete (reply.json.usage as { prompt_tokens_details?: unknown }).prompt_tokens_details;
    server.reply(reply);
    const res = await model.complete({ messages: ASK, tools: [] });
    expect(res.usage).toStrictEqual({ inputTokens: 30, outputTokens: 9 });
  });
});

describe('the request builder', () => {
  it('is what complete() sends, byte for byte', async () => {
    const model = await start();
    const request: ModelRequest = { messages: [{ role: 'system', content: 'Be brief.' }, ...ASK], tools: [tool('fs__read.file'), tool('catalog__list', { type: 'object' })], options: { seed: 3, temperature: 0 } };
    server.reply(openaiReply('ok'));
    await model.complete(request);
    expect(server.seen[0]!.raw).toBe(JSON.stringify(buildOpenAIRequest('m', request, model.settings).body));
    expect(JSON.parse(JSON.stringify(model.settings))).toStrictEqual(model.settings);
  });
});

describe('the base URL', () => {
  it('without a scheme is one line saying what to give, before any request', () => {
    expect(() => new OpenAIAdapter('m', { baseUrl: 'localhost:8000/v1', env: {} })).toThrow(
      'openai:m: base URL "localhost:8000/v1" has no http:// or https://; give the whole URL, e.g. http://localhost:8000/v1',
    );
    expect(() => new OpenAIAdapter('m', { baseUrl: 'api.example.com/v1', env: {} })).toThrow(/has no http:\/\/ or https:\/\//);
  });

  it('of a local server without /v1 is one line naming the URL to use', () => {
    expect(() => new OpenAIAdapter('m', { baseUrl: 'http://127.0.0.1:8000', env: {} })).toThrow(
      'openai:m: base URL "http://127.0.0.1:8000" has no path; OpenAI-compatible servers answer under /v1: use http://127.0.0.1:8000/v1',
    );
    expect(() => new OpenAIAdapter('m', { baseUrl: 'http://localhost:11434/', env: {} })).toThrow(/use http:\/\/localhost:11434\/v1$/);
    // a remote API keeps its own path
    expect(new OpenAIAdapter('m', { baseUrl: 'https://openrouter.ai/api/v1', apiKey: 'k', env: {} }).baseUrl).toBe('https://openrouter.ai/api/v1');
  });

  it('is recorded without a password', () => {
    const model = new OpenAIAdapter('m', { baseUrl: 'https://user:secret@llm.example.com/v1', apiKey: 'k', env: {} });
    expect(model.settings.baseUrl).toBe('https://***@llm.example.com/v1');
    expect(model.baseUrl).toBe('https://user:secret@llm.example.com/v1');
  });
});
