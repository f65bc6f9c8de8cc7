import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicAdapter, assistantMessage, ModelConfigError } from '../../src/models/index.ts';
import type { ChatMessage, ToolSpec } from '../../src/models/index.ts';
import { anthropicReply, FakeProvider } from './fakeServer.ts';

const READ: ToolSpec = {
  name: 'fs__read',
  description: 'Read a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const ASK: ChatMessage[] = [{ role: 'user', content: 'What is in a.txt and b.txt?' }];

describe('AnthropicAdapter', () => {
  let server: FakeProvider;
  let model: AnthropicAdapter;
  beforeEach(async () => {
    server = await FakeProvider.start();
    model = new AnthropicAdapter('claude-test', { baseUrl: server.url, apiKey: 'sk-ant-test', env: {} });
  });
  afterEach(async () => server.close());

  it('posts to /v1/messages with the key, an API version, system apart and tools as input_schema', async () => {
    server.reply(anthropicReply('hi'));
    await model.complete({
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'system', content: 'Use tools.' }, ...ASK],
      tools: [READ],
      options: { maxTokens: 512 },
    });
    const [seen] = server.seen;
    expect(seen).toMatchObject({ method: 'POST', path: '/v1/messages' });
    // SDK versions differ in which header carries the key; the key itself must arrive
    expect(seen!.headers['x-api-key'] ?? seen!.headers.authorization?.replace(/^Bearer /, '')).toBe('sk-ant-test');
    expect(seen!.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(seen!.body).toStrictEqual({
      model: 'claude-test',
      max_tokens: 512,
      thinking: { type: 'disabled' },
      system: 'Be brief.\n\nUse tools.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in a.txt and b.txt?' }] }],
      tools: [{ name: READ.name, description: READ.description, input_schema: READ.inputSchema }],
    });
  });

  it('asks for 4096 tokens by default and does not send what this API has no parameter for', async () => {
    server.reply(anthropicReply('hi'));
    const res = await model.complete({ messages: ASK, tools: [], options: { temperature: 0, seed: 3, numCtx: 2048 } });
    expect(Object.keys(server.seen[0]!.body).sort()).toStrictEqual(['max_tokens', 'messages', 'model', 'thinking']);
    expect(server.seen[0]!.body.max_tokens).toBe(4096);
    expect(res.ignoredOptions).toStrictEqual(['temperature', 'seed', 'numCtx']);
  });

  it('returns usage, stop reason and the message details', async () => {
    server.reply(anthropicReply('Both are empty.', [], { stop_reason: 'max_tokens' }));
    const res = await model.complete({ messages: ASK, tools: [] });
    expect(res).toMatchObject({
      text: 'Both are empty.',
      usage: { inputTokens: 50, outputTokens: 7 },
      stopReason: 'max_tokens',
      providerStopReason: 'max_tokens',
      details: { provider: 'anthropic', id: 'msg_1', model: 'm-2026', cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    });
  });

  it('keeps tool_use ids across three rounds and answers them as tool_result blocks in one user turn', async () => {
    server.reply(
      anthropicReply('Reading both.', [
        { id: 'toolu_1', name: 'fs__read', args: { path: 'a.txt' } },
        { id: 'toolu_2', name: 'fs__read', args: { path: 'b.txt' } },
      ]),
      anthropicReply('', [{ id: 'toolu_3', name: 'fs__read', args: { path: 'B.txt' } }]),
      anthropicReply('a says hi; B says bye.'),
    );
    const conversation: ChatMessage[] = [...ASK];
    const r1 = await model.complete({ messages: conversation, tools: [READ] });
    expect(r1).toMatchObject({ text: 'Reading both.', stopReason: 'tool_calls' });
    expect(r1.toolCalls).toStrictEqual([
      { id: 'toolu_1', name: 'fs__read', args: { path: 'a.txt' } },
      { id: 'toolu_2', name: 'fs__read', args: { path: 'b.txt' } },
    ]);
    conversation.push(
      assistantMessage(r1),
      { role: 'tool', toolCallId: 'toolu_1', toolName: 'fs__read', content: 'hi' },
      { role: 'tool', toolCallId: 'toolu_2', toolName: 'fs__read', content: 'no such file', isError: true },
    );
    const r2 = await model.complete({ messages: conversation, tools: [READ] });
    conversation.push(assistantMessage(r2), { role: 'tool', toolCallId: 'toolu_3', toolName: 'fs__read', content: 'bye' });
    // a step that ends at its ceiling leaves tool results last; the next prompt joins that turn
    conversation.push({ role: 'user', content: 'Now summarise.' });

    const r3 = await model.complete({ messages: conversation, tools: [READ] });
    expect(r3).toMatchObject({ text: 'a says hi; B says bye.', toolCalls: [], stopReason: 'end' });
    expect(server.seen[2]!.body.messages).toStrictEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is in a.txt and b.txt?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'fs__read', input: { path: 'a.txt' } },
          { type: 'tool_use', id: 'toolu_2', name: 'fs__read', input: { path: 'b.txt' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'hi' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'no such file', is_error: true },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'fs__read', input: { path: 'B.txt' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_3', content: 'bye' },
          { type: 'text', text: 'Now summarise.' },
        ],
      },
    ]);
  });

  it('leaves out an empty assistant turn, which the API would reject', async () => {
    server.reply(anthropicReply('ok'));
    await model.complete({
      messages: [...ASK, { role: 'assistant', content: '' }, { role: 'user', content: 'Again?' }],
      tools: [],
    });
    expect(server.seen[0]!.body.messages).toStrictEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in a.txt and b.txt?' },
          { type: 'text', text: 'Again?' },
        ],
      },
    ]);
  });

  it('reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment', async () => {
    server.reply(anthropicReply('hi'));
    const fromEnv = new AnthropicAdapter('m', { env: { ANTHROPIC_API_KEY: 'sk-env', ANTHROPIC_BASE_URL: server.url } });
    await fromEnv.complete({ messages: ASK, tools: [] });
    expect(server.seen[0]!.headers['x-api-key'] ?? server.seen[0]!.headers.authorization?.replace(/^Bearer /, '')).toBe('sk-env');
  });

  it('refuses to start without a key, before any request', () => {
    expect(() => new AnthropicAdapter('claude-test', { baseUrl: server.url, env: {} })).toThrow(ModelConfigError);
    expect(() => new AnthropicAdapter('claude-test', { env: {} })).toThrow(
      'anthropic:claude-test: ANTHROPIC_API_KEY is not set; export it and run again',
    );
    expect(server.seen).toHaveLength(0);
  });
});
