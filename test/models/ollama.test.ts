import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assistantMessage, OllamaAdapter } from '../../src/models/index.ts';
import type { ChatMessage, ToolSpec } from '../../src/models/index.ts';
import { FakeProvider, ollamaReply } from './fakeServer.ts';

const WEATHER: ToolSpec = {
  name: 'wx__forecast',
  description: 'Forecast for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('OllamaAdapter', () => {
  let server: FakeProvider;
  beforeEach(async () => {
    server = await FakeProvider.start();
  });
  afterEach(async () => server.close());

  it('posts model, messages, tools and the set options to /api/chat, not streamed', async () => {
    server.reply(ollamaReply('hi'));
    const model = new OllamaAdapter('qwen3:8b', { baseUrl: server.url });
    await model.complete({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
      ],
      tools: [WEATHER],
      options: { temperature: 0, seed: 7, numCtx: 8192, maxTokens: 256 },
    });
    const [seen] = server.seen;
    expect(seen).toMatchObject({ method: 'POST', path: '/api/chat' });
    expect(seen!.headers['content-type']).toBe('application/json');
    expect(seen!.body).toStrictEqual({
      model: 'qwen3:8b',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
      ],
      tools: [{ type: 'function', function: { name: WEATHER.name, description: WEATHER.description, parameters: WEATHER.inputSchema } }],
      think: false,
      truncate: false,
      stream: false,
      options: { num_ctx: 8192, temperature: 0, seed: 7, num_predict: 256 },
    });
  });

  it('always sends think, truncate: false and num_ctx, and no tools when there are none', async () => {
    server.reply(ollamaReply('hi'), ollamaReply('hi'));
    await new OllamaAdapter('m', { baseUrl: server.url }).complete({ messages: [{ role: 'user', content: 'x' }], tools: [] });
    expect(server.seen[0]!.body).toStrictEqual({
      model: 'm', messages: [{ role: 'user', content: 'x' }], think: false, truncate: false, stream: false, options: { num_ctx: 8192 },
    });
    const thinking = new OllamaAdapter('m', { baseUrl: server.url, thinking: 'on', numCtx: 32_768 });
    expect(thinking.settings).toStrictEqual({ provider: 'ollama', baseUrl: server.url, thinking: 'on', numCtx: 32_768 });
    await thinking.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] });
    expect(server.seen[1]!.body).toMatchObject({ think: true, options: { num_ctx: 32_768 } });
  });

  it('records prompt_eval_count, eval_count and the durations', async () => {
    server.reply(ollamaReply('hi'));
    const res = await new OllamaAdapter('m', { baseUrl: server.url }).complete({ messages: [{ role: 'user', content: 'x' }], tools: [] });
    expect(res.usage).toStrictEqual({ inputTokens: 40, outputTokens: 12 });
    expect(res.details).toStrictEqual({
      provider: 'ollama',
      model: 'm',
      promptEvalCount: 40,
      evalCount: 12,
      totalDurationNs: 900_000_000,
      loadDurationNs: 100_000_000,
      promptEvalDurationNs: 200_000_000,
      evalDurationNs: 600_000_000,
    });
    expect(res).toMatchObject({ text: 'hi', stopReason: 'end', providerStopReason: 'stop', attempts: 1, ignoredOptions: [] });
  });

  it('reports no token counts as null, not zero', async () => {
    server.reply(ollamaReply('hi', [], { prompt_eval_count: undefined, eval_count: undefined }));
    const res = await new OllamaAdapter('m', { baseUrl: server.url }).complete({ messages: [{ role: 'user', content: 'x' }], tools: [] });
    expect(res.usage).toStrictEqual({ inputTokens: null, outputTokens: null });
  });

  it('carries tool calls over three rounds, keeping server ids and making the missing ones', async () => {
    server.reply(
      ollamaReply('', [
        { id: 'call_srv', name: 'wx__forecast', args: { city: 'Oslo' } },
        { name: 'wx__forecast', args: { city: 'Rome' } },
      ]),
      ollamaReply('', [{ name: 'wx__forecast', args: '{"city":"Lima"}' }]),
      ollamaReply('Oslo 3°, Rome 18°, Lima 20°.'),
    );
    const model = new OllamaAdapter('m', { baseUrl: server.url });
    const conversation: ChatMessage[] = [{ role: 'user', content: 'Weather in three cities?' }];
    const answer = (id: string, city: string): ChatMessage => ({ role: 'tool', toolCallId: id, toolName: 'wx__forecast', content: `${city}: fine` });

    const r1 = await model.complete({ messages: conversation, tools: [WEATHER] });
    expect(r1.toolCalls).toStrictEqual([
      { id: 'call_srv', name: 'wx__forecast', args: { city: 'Oslo' } },
      { id: 'ollama_call_1', name: 'wx__forecast', args: { city: 'Rome' } },
    ]);
    expect(r1.stopReason).toBe('tool_calls');
    conversation.push(assistantMessage(r1), answer('call_srv', 'Oslo'), answer('ollama_call_1', 'Rome'));

    const r2 = await model.complete({ messages: conversation, tools: [WEATHER] });
    expect(r2.toolCalls).toStrictEqual([{ id: 'ollama_call_2', name: 'wx__forecast', args: { city: 'Lima' } }]);
    conversation.push(assistantMessage(r2), answer('ollama_call_2', 'Lima'));

    const r3 = await model.complete({ messages: conversation, tools: [WEATHER] });
    expect(r3).toMatchObject({ text: 'Oslo 3°, Rome 18°, Lima 20°.', toolCalls: [], stopReason: 'end' });
    expect(server.seen[2]!.body.messages).toStrictEqual([
      { role: 'user', content: 'Weather in three cities?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_srv', function: { index: 0, name: 'wx__forecast', arguments: { city: 'Oslo' } } },
          { id: 'ollama_call_1', function: { index: 1, name: 'wx__forecast', arguments: { city: 'Rome' } } },
        ],
      },
      { role: 'tool', content: 'Oslo: fine', tool_name: 'wx__forecast', tool_call_id: 'call_srv' },
      { role: 'tool', content: 'Rome: fine', tool_name: 'wx__forecast', tool_call_id: 'ollama_call_1' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'ollama_call_2', function: { index: 0, name: 'wx__forecast', arguments: { city: 'Lima' } } }],
      },
      { role: 'tool', content: 'Lima: fine', tool_name: 'wx__forecast', tool_call_id: 'ollama_call_2' },
    ]);
  });

  it('maps done_reason length to max_tokens', async () => {
    server.reply(ollamaReply('cut', [], { done_reason: 'length' }));
    const res = await new OllamaAdapter('m', { baseUrl: server.url }).complete({ messages: [{ role: 'user', content: 'x' }], tools: [] });
    expect(res).toMatchObject({ stopReason: 'max_tokens', providerStopReason: 'length' });
  });

  it('reads the host from OLLAMA_HOST when no base URL is given', async () => {
    server.reply(ollamaReply('hi'));
    const model = new OllamaAdapter('m', { env: { OLLAMA_HOST: server.url } });
    expect(model.host).toBe(server.url);
    await model.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] });
    expect(server.seen).toHaveLength(1);
  });

  it('defaults to 127.0.0.1:11434 and says how to pull a missing model', async () => {
    expect(new OllamaAdapter('m', { env: {} }).host).toBe('http://127.0.0.1:11434');
    server.reply({ status: 404, json: { error: "model 'nope' not found" } });
    const model = new OllamaAdapter('nope', { baseUrl: server.url });
    await expect(model.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] })).rejects.toThrow(
      `ollama:nope: request rejected: HTTP 404: model 'nope' not found; pull the model with "ollama pull nope"`,
    );
  });
});
