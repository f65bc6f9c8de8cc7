// Each rule of the strict Ollama server (native /api/chat): the request the adapter used to send
// is refused, or changed without a word, as Ollama does; the one it sends now is accepted whole.
import { afterEach, describe, expect, it } from 'vitest';
import { assistantMessage, buildOllamaRequest, OllamaAdapter } from '../../src/models/index.ts';
import type { AdapterOptions, ChatMessage, ModelRequest, ToolSpec } from '../../src/models/index.ts';
import { UNPARSED_CALL_NAME } from '../../src/models/ollama.ts';
import { errorReply, FakeProvider, ollamaReply } from './fakeServer.ts';
import type { FakeOptions } from './fakeServer.ts';

const ASK: ChatMessage[] = [{ role: 'user', content: 'Weather in Oslo?' }];
const FORECAST: ToolSpec = { name: 'wx__forecast', description: 'Forecast', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

let server: FakeProvider;
afterEach(async () => server.close());

async function start(options: FakeOptions = {}, adapter: Partial<AdapterOptions> = {}): Promise<OllamaAdapter> {
  server = await FakeProvider.start(options);
  return new OllamaAdapter('qwen3:8b', { baseUrl: server.url, env: {}, retry: { maxAttempts: 3, sleep: async () => {} }, ...adapter });
}

const post = (body: unknown) => server.post('/api/chat', body);

describe('strict Ollama: decoding', () => {
  it('refuses tool-call arguments that are not an object; the adapter sends {} for a call whose arguments were not one', async () => {
    const model = await start();
    const refused = await post({
      model: 'm', stream: false,
      messages: [...ASK, { role: 'assistant', content: '', tool_calls: [{ function: { name: 'wx__forecast', arguments: '{"city": "Os' } }] }, { role: 'tool', content: 'x', tool_name: 'wx__forecast' }],
    });
    expect(refused).toStrictEqual({ status: 400, json: { error: 'json: cannot unmarshal string into Go value of type map[string]interface {}' } });
    // a compatible server passing the model's text through: the adapter keeps it as rawArgs
    server.reply(ollamaReply('', [{ name: 'wx__forecast', args: '{"city": "Os' }]), ollamaReply('sorry'));
    const r1 = await model.complete({ messages: ASK, tools: [FORECAST] });
    expect(r1.toolCalls).toStrictEqual([{ id: 'ollama_call_0', name: 'wx__forecast', args: {}, rawArgs: '{"city": "Os' }]);
    await model.complete({
      messages: [...ASK, assistantMessage(r1), { role: 'tool', toolCallId: 'ollama_call_0', toolName: 'wx__forecast', content: 'not JSON', isError: true }],
      tools: [FORECAST],
    });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body.messages[1].tool_calls[0].function.arguments).toStrictEqual({});
  });

  it('refuses a parameters type that is not a string; the adapter sends "object"', async () => {
    const model = await start();
    const nullable: ToolSpec = { ...FORECAST, inputSchema: { ...FORECAST.inputSchema, type: ['object', 'null'] } };
    await post({ model: 'm', stream: false, messages: ASK, tools: [{ type: 'function', function: { name: 'wx__forecast', parameters: nullable.inputSchema } }] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toStrictEqual({
      error: 'json: cannot unmarshal array into Go struct field ToolFunctionParameters.tools.function.parameters.type of type string',
    });
    server.reply(ollamaReply('ok'));
    const res = await model.complete({ messages: ASK, tools: [nullable] });
    expect(server.lastRefused).toBeUndefined();
    expect(res.adaptations).toStrictEqual([{ kind: 'schema', tool: 'wx__forecast', changes: ['replaced type ["object","null"] with "object"'] }]);
  });
});

describe('strict Ollama: schemas it reads in part', () => {
  it('drops a top-level union and unknown keywords without a word; the adapter flattens the union and says what it dropped', async () => {
    const model = await start();
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      anyOf: [{ properties: { city: { type: 'string', minLength: 1 } }, required: ['city'] }, { properties: { lat: { type: 'number' }, lon: { type: 'number' } }, required: ['lat', 'lon'] }],
    };
    await post({ model: 'm', stream: false, messages: ASK, tools: [{ type: 'function', function: { name: 'wx__forecast', parameters: schema } }] });
    expect(server.seen.at(-1)!.notes).toStrictEqual(['wx__forecast: dropped $schema, additionalProperties, anyOf']);
    server.reply(ollamaReply('ok'));
    const res = await model.complete({ messages: ASK, tools: [{ ...FORECAST, inputSchema: schema }] });
    expect(server.seen.at(-1)!.notes).toStrictEqual([]);
    expect(server.seen.at(-1)!.body.tools[0].function.parameters).toStrictEqual({
      type: 'object', properties: { city: { type: 'string' }, lat: { type: 'number' }, lon: { type: 'number' } },
    });
    expect(res.adaptations).toStrictEqual([{
      kind: 'schema', tool: 'wx__forecast',
      changes: ['flattened the top-level anyOf of 2 schemas into one object', 'dropped keywords Ollama does not read: $schema, additionalProperties, minLength'],
    }]);
  });
});

describe('strict Ollama: think and num_ctx', () => {
  it('refuses think for a model that cannot think; the adapter sends think: false unless --thinking on, and says what to do', async () => {
    const model = await start({ model: { thinks: false } }, { thinking: 'on' });
    await expect(model.complete({ messages: ASK, tools: [] })).rejects.toThrow(
      'ollama:qwen3:8b: request rejected: HTTP 400: "qwen3:8b" does not support thinking; run with --thinking off',
    );
    expect(server.seen).toHaveLength(1);
    const off = new OllamaAdapter('qwen3:8b', { baseUrl: server.url, env: {} });
    server.reply(ollamaReply('hi'));
    await off.complete({ messages: ASK, tools: [] });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body.think).toBe(false);
  });

  it("cuts a prompt over the context without a word when not told otherwise; the adapter's truncate: false gets a 400, reported once, not retried", async () => {
    const model = await start({}, { numCtx: 256 });
    const long: ChatMessage[] = [{ role: 'user', content: 'x'.repeat(2_000) }];
    server.reply(ollamaReply('ok'));
    await post({ model: 'm', stream: false, messages: long, options: { num_ctx: 256 } });
    expect(server.seen.at(-1)!.notes).toStrictEqual([expect.stringMatching(/^truncated: the prompt \(\d+ tokens\) is over num_ctx 256; the oldest messages were dropped$/)]);
    const err = await model.complete({ messages: long, tools: [] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'context_length', attempts: 1, retryable: false });
    expect((err as Error).message).toMatch(
      /^ollama:qwen3:8b: the conversation is longer than the model's context: HTTP 400: request \(\d+ tokens\) exceeds the available context size \(256 tokens\), try increasing it; raise --num-ctx \(it is 256\) or shorten the rung$/,
    );
    expect(server.seen).toHaveLength(2);
    expect(server.seen.at(-1)!.body).toMatchObject({ truncate: false, options: { num_ctx: 256 } });
  });
});

describe("Ollama's tool-call parser failing", () => {
  it('is not retried as an outage: the model gets a failed call quoting what the server saw, and the history stays valid', async () => {
    const model = await start();
    server.reply(
      errorReply('ollama', 500, `error parsing tool call: raw='{"name": "wx__forecast", "arguments": {"city": "Os', err=unexpected end of JSON input`),
      ollamaReply('Oslo: 3°'),
    );
    const r1 = await model.complete({ messages: ASK, tools: [FORECAST] });
    expect(server.seen).toHaveLength(1);
    expect(r1).toMatchObject({ attempts: 1, stopReason: 'tool_calls' });
    expect(r1.toolCalls).toStrictEqual([{
      id: 'ollama_call_0', name: 'wx__forecast', args: {}, rawArgs: '{"name": "wx__forecast", "arguments": {"city": "Os',
      invalid: expect.stringMatching(/^Ollama could not parse this tool call \(error parsing tool call: .*\), so it was not made; write the call again as one JSON object\.$/),
    }]);
    await model.complete({
      messages: [...ASK, assistantMessage(r1), { role: 'tool', toolCallId: 'ollama_call_0', toolName: 'wx__forecast', content: r1.toolCalls[0]!.invalid!, isError: true }],
      tools: [FORECAST],
    });
    expect(server.lastRefused).toBeUndefined();
  });

  it('names the call after no tool when the server saw no name', async () => {
    const model = await start();
    server.reply(errorReply('ollama', 500, 'incomplete GLM tool call: unexpected EOF'));
    const r1 = await model.complete({ messages: ASK, tools: [FORECAST] });
    expect(r1.toolCalls[0]).toMatchObject({ name: UNPARSED_CALL_NAME, rawArgs: 'incomplete GLM tool call: unexpected EOF' });
  });

  it('leaves other server errors to the retries', async () => {
    const model = await start();
    server.reply(errorReply('ollama', 500, 'llama runner process has terminated'), ollamaReply('ok'));
    const res = await model.complete({ messages: ASK, tools: [] });
    expect(res).toMatchObject({ text: 'ok', attempts: 2 });
  });
});

describe('replies as real ones are', () => {
  it("keeps the model's thinking and sends it back with the turn", async () => {
    const model = await start({}, { thinking: 'on' });
    server.reply(ollamaReply('', [{ name: 'wx__forecast', args: { city: 'Oslo' } }], {}, 'The user wants Oslo.'), ollamaReply('3°'));
    const r1 = await model.complete({ messages: ASK, tools: [FORECAST] });
    expect(r1.thinking).toStrictEqual([{ type: 'thinking', thinking: 'The user wants Oslo.' }]);
    await model.complete({ messages: [...ASK, assistantMessage(r1), { role: 'tool', toolCallId: 'ollama_call_0', toolName: 'wx__forecast', content: '3°' }], tools: [FORECAST] });
    expect(server.seen.at(-1)!.body.messages[1]).toMatchObject({ role: 'assistant', thinking: 'The user wants Oslo.' });
  });
});

describe('the request builder', () => {
  it('is what complete() sends, byte for byte', async () => {
    const model = await start({}, { numCtx: 16_384 });
    const request: ModelRequest = { messages: [{ role: 'system', content: 'Be brief.' }, ...ASK], tools: [FORECAST], options: { seed: 5 } };
    server.reply(ollamaReply('ok'));
    await model.complete(request);
    expect(server.seen[0]!.raw).toBe(JSON.stringify(buildOllamaRequest('qwen3:8b', request, model.settings).body));
  });
});
