import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assistantMessage, ModelConfigError, OpenAIAdapter } from '../../src/models/index.ts';
import type { ChatMessage, ToolSpec } from '../../src/models/index.ts';
import { FakeProvider, openaiReply } from './fakeServer.ts';

const LOOKUP: ToolSpec = {
  name: 'db__query',
  description: 'Run one SQL query',
  inputSchema: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] },
};

const ASK: ChatMessage[] = [{ role: 'user', content: 'How many rows?' }];

describe('OpenAIAdapter', () => {
  let server: FakeProvider;
  let model: OpenAIAdapter;
  beforeEach(async () => {
    server = await FakeProvider.start();
    model = new OpenAIAdapter('gpt-test', { baseUrl: `${server.url}/v1`, apiKey: 'sk-test', env: {} });
  });
  afterEach(async () => server.close());

  it('posts to /v1/chat/completions with the key, the tools as functions and the set options', async () => {
    server.reply(openaiReply('hi'));
    await model.complete({
      messages: [{ role: 'system', content: 'Be brief.' }, ...ASK],
      tools: [LOOKUP],
      options: { temperature: 0.2, seed: 11, maxTokens: 300 },
    });
    const [seen] = server.seen;
    expect(seen).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(seen!.headers.authorization).toBe('Bearer sk-test');
    expect(seen!.headers['content-type']).toBe('application/json');
    expect(seen!.body).toStrictEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'How many rows?' },
      ],
      tools: [{ type: 'function', function: { name: LOOKUP.name, description: LOOKUP.description, parameters: LOOKUP.inputSchema } }],
      temperature: 0.2,
      seed: 11,
      max_tokens: 300,
    });
  });

  it('does not send numCtx, and says so in ignoredOptions', async () => {
    server.reply(openaiReply('hi'));
    const res = await model.complete({ messages: ASK, tools: [], options: { numCtx: 4096 } });
    expect(Object.keys(server.seen[0]!.body).sort()).toStrictEqual(['messages', 'model']);
    expect(res.ignoredOptions).toStrictEqual(['numCtx']);
  });

  it('returns usage, finish reason and the completion details', async () => {
    server.reply(openaiReply('three'));
    const res = await model.complete({ messages: ASK, tools: [] });
    expect(res).toMatchObject({
      text: 'three',
      usage: { inputTokens: 30, outputTokens: 9 },
      stopReason: 'end',
      providerStopReason: 'stop',
      details: { provider: 'openai', id: 'chatcmpl-1', model: 'm-2026', systemFingerprint: 'fp_1' },
    });
  });

  it.each([
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
    ['something_new', 'other'],
  ])('maps finish_reason %s to %s', async (finish, stop) => {
    const reply = openaiReply('x');
    reply.json.choices[0]!.finish_reason = finish;
    server.reply(reply);
    const res = await model.complete({ messages: ASK, tools: [] });
    expect(res).toMatchObject({ stopReason: stop, providerStopReason: finish });
  });

  it('reports usage as null when a compatible server leaves it out', async () => {
    server.reply(openaiReply('three', [], { usage: undefined }));
    const res = await model.complete({ messages: ASK, tools: [] });
    expect(res.usage).toStrictEqual({ inputTokens: null, outputTokens: null });
  });

  it('keeps tool_call ids across three rounds and sends each result under its id', async () => {
    server.reply(
      openaiReply(null, [
        { id: 'call_a', name: 'db__query', args: { sql: 'select 1' } },
        { id: 'call_b', name: 'db__query', args: { sql: 'select 2' } },
      ]),
      openaiReply('Retrying.', [{ id: 'call_c', name: 'db__query', args: '{"sql": "select' }]),
      openaiReply('3 rows.'),
    );
    const conversation: ChatMessage[] = [...ASK];
    const r1 = await model.complete({ messages: conversation, tools: [LOOKUP] });
    expect(r1.toolCalls).toStrictEqual([
      { id: 'call_a', name: 'db__query', args: { sql: 'select 1' } },
      { id: 'call_b', name: 'db__query', args: { sql: 'select 2' } },
    ]);
    expect(r1).toMatchObject({ text: '', stopReason: 'tool_calls' });
    conversation.push(
      assistantMessage(r1),
      { role: 'tool', toolCallId: 'call_a', toolName: 'db__query', content: '1' },
      { role: 'tool', toolCallId: 'call_b', toolName: 'db__query', content: '2' },
    );

    const r2 = await model.complete({ messages: conversation, tools: [LOOKUP] });
    // broken JSON from the model is kept verbatim, not silently replaced
    expect(r2.toolCalls).toStrictEqual([{ id: 'call_c', name: 'db__query', args: {}, rawArgs: '{"sql": "select' }]);
    conversation.push(assistantMessage(r2), { role: 'tool', toolCallId: 'call_c', toolName: 'db__query', content: 'bad JSON', isError: true });

    const r3 = await model.complete({ messages: conversation, tools: [LOOKUP] });
    expect(r3).toMatchObject({ text: '3 rows.', toolCalls: [] });
    expect(server.seen[2]!.body.messages).toStrictEqual([
      { role: 'user', content: 'How many rows?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'db__query', arguments: '{"sql":"select 1"}' } },
          { id: 'call_b', type: 'function', function: { name: 'db__query', arguments: '{"sql":"select 2"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '1' },
      { role: 'tool', tool_call_id: 'call_b', content: '2' },
      {
        role: 'assistant',
        content: 'Retrying.',
        // the broken arguments go back as {}: the tool result quotes them, and a server that
        // parses the history would refuse the whole request over them
        tool_calls: [{ id: 'call_c', type: 'function', function: { name: 'db__query', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_c', content: 'bad JSON' },
    ]);
  });

  it('reads OPENAI_BASE_URL and OPENAI_API_KEY from the environment', async () => {
    server.reply(openaiReply('hi'));
    const fromEnv = new OpenAIAdapter('m', { env: { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-env' } });
    await fromEnv.complete({ messages: ASK, tools: [] });
    expect(server.seen[0]!.headers.authorization).toBe('Bearer sk-env');
  });

  it('refuses hosted OpenAI without a key, before any request', () => {
    expect(() => new OpenAIAdapter('gpt-test', { env: {} })).toThrow(ModelConfigError);
    expect(() => new OpenAIAdapter('gpt-test', { env: {} })).toThrow(/^openai:gpt-test: OPENAI_API_KEY is not set; /);
  });

  it('talks to a local compatible server without a key', async () => {
    server.reply(openaiReply('hi'));
    const local = new OpenAIAdapter('m', { baseUrl: `${server.url}/v1`, env: {} });
    const res = await local.complete({ messages: ASK, tools: [] });
    expect(res.text).toBe('hi');
    expect(server.seen[0]!.headers.authorization).toBe('Bearer unused');
  });

  it('retries a 200 that carries no choices, then fails as a server error', async () => {
    server.reply(openaiReply('x', [], { choices: [] }), openaiReply('x', [], { choices: [] }));
    const flaky = new OpenAIAdapter('m', { baseUrl: `${server.url}/v1`, apiKey: 'k', retry: { maxAttempts: 2, sleep: async () => {} } });
    await expect(flaky.complete({ messages: ASK, tools: [] })).rejects.toMatchObject({ kind: 'server', attempts: 2 });
    expect(server.seen).toHaveLength(2);
  });
});
