// Each rule of the strict Anthropic server: the request the adapter used to send (or a request
// breaking the rule, where the adapter always kept it) is refused with the API's own error, and
// the one the adapter sends now is accepted.
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicAdapter, assistantMessage, buildAnthropicRequest, parseThinking, ProviderError } from '../../src/models/index.ts';
import type { AdapterOptions, ChatMessage, ModelRequest, ToolSpec } from '../../src/models/index.ts';
import { CUT_OFF_TEXT } from '../../src/models/anthropic.ts';
import { FUNCTION_NAME_RULE, wireName } from '../../src/models/names.ts';
import { anthropicReply, FakeProvider } from './fakeServer.ts';
import type { FakeOptions } from './fakeServer.ts';
import { redactedBlock, thinkingBlock } from './strict/anthropic.ts';

const ASK: ChatMessage[] = [{ role: 'user', content: 'Read a.txt.' }];
const READ: ToolSpec = { name: 'fs__read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } };
const USER = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });

let server: FakeProvider;
afterEach(async () => server.close());

async function start(options: FakeOptions = {}, adapter: Partial<AdapterOptions> = {}): Promise<AnthropicAdapter> {
  server = await FakeProvider.start(options);
  return new AnthropicAdapter('claude-test', { baseUrl: server.url, apiKey: 'k', env: {}, retry: { maxAttempts: 1 }, ...adapter });
}

const post = (body: unknown) => server.post('/v1/messages', body);
const base = { model: 'claude-test', max_tokens: 1024 };

describe('strict Anthropic: the request', () => {
  it('refuses a request without max_tokens; the adapter always sends it', async () => {
    const model = await start();
    expect(await post({ model: 'claude-test', messages: [USER('hi')] })).toStrictEqual({
      status: 400,
      json: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' }, request_id: 'req_fake' },
    });
    server.reply(anthropicReply('hi'));
    await model.complete({ messages: ASK, tools: [] });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body.max_tokens).toBe(4096);
  });
});

describe('strict Anthropic: tools', () => {
  it('refuses a tool name over 64 characters or with a dot; the adapter sends one it takes and maps the call back', async () => {
    const model = await start();
    const long: ToolSpec = { ...READ, name: `files.v2__${'read_the_whole_file_at_the_given_path_'.repeat(2)}` };
    await post({ ...base, messages: [USER('hi')], tools: [{ name: long.name, description: long.description, input_schema: long.inputSchema }] });
    expect(server.lastRefused).toBe('tool-name');
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({ error: { message: "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'" } });
    const sent = wireName(long.name, FUNCTION_NAME_RULE);
    server.reply(anthropicReply('', [{ id: 'toolu_1', name: sent, args: { path: 'a' } }]));
    const res = await model.complete({ messages: ASK, tools: [long] });
    expect(server.lastRefused).toBeUndefined();
    expect(res.toolCalls).toStrictEqual([{ id: 'toolu_1', name: long.name, args: { path: 'a' } }]);
  });

  it('refuses an input_schema without type "object"', async () => {
    const model = await start();
    await post({ ...base, messages: [USER('hi')], tools: [{ name: 'a', input_schema: { properties: {} } }] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({ error: { message: 'tools.0.custom.input_schema.type: Field required' } });
    server.reply(anthropicReply('ok'));
    await model.complete({ messages: ASK, tools: [{ ...READ, inputSchema: { properties: { path: { type: 'string' } } } }] });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body.tools[0].input_schema).toStrictEqual({ properties: { path: { type: 'string' } }, type: 'object' });
  });

  it('refuses a top-level oneOf, anyOf or allOf; the adapter flattens it', async () => {
    const model = await start();
    const schema = { type: 'object', allOf: [{ properties: { path: { type: 'string' } }, required: ['path'] }, { properties: { encoding: { type: 'string' } } }] };
    await post({ ...base, messages: [USER('hi')], tools: [{ name: 'fs__read', input_schema: schema }] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({
      error: { message: 'tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level' },
    });
    server.reply(anthropicReply('ok'));
    const res = await model.complete({ messages: ASK, tools: [{ ...READ, inputSchema: schema }] });
    expect(server.lastRefused).toBeUndefined();
    // allOf: what any part requires is required
    expect(server.seen.at(-1)!.body.tools[0].input_schema).toStrictEqual({
      type: 'object', properties: { path: { type: 'string' }, encoding: { type: 'string' } }, required: ['path'],
    });
    expect(res.adaptations).toStrictEqual([{ kind: 'schema', tool: 'fs__read', changes: ['flattened the top-level allOf of 2 schemas into one object'] }]);
  });
});

describe('strict Anthropic: messages', () => {
  it('refuses whitespace-only text; the adapter leaves such assistant text out and says so', async () => {
    const model = await start();
    await post({ ...base, messages: [USER('hi'), { role: 'assistant', content: [{ type: 'text', text: '\n\n' }] }, USER('again')] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({ error: { message: 'messages: text content blocks must contain non-whitespace text' } });
    await post({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({ error: { message: 'messages: text content blocks must be non-empty' } });
    server.reply(anthropicReply('ok'));
    const res = await model.complete({ messages: [...ASK, { role: 'assistant', content: '\n\n' }, { role: 'user', content: 'again' }], tools: [] });
    expect(server.lastRefused).toBeUndefined();
    expect(res.adaptations).toStrictEqual([{ kind: 'message', index: 1, change: 'left out whitespace-only assistant text' }]);
  });

  it('refuses an error result with no content; the adapter gives it a placeholder', async () => {
    const model = await start();
    const use = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'fs__read', input: { path: 'a' } }] };
    await post({ ...base, messages: [USER('hi'), use, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '', is_error: true }] }] });
    expect(server.lastRefused).toBe('error-result-not-empty');
    server.reply(anthropicReply('', [{ id: 'toolu_1', name: 'fs__read', args: { path: 'a' } }]), anthropicReply('ok'));
    const r1 = await model.complete({ messages: ASK, tools: [READ] });
    await model.complete({ messages: [...ASK, assistantMessage(r1), { role: 'tool', toolCallId: 'toolu_1', toolName: 'fs__read', content: '', isError: true }], tools: [READ] });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body.messages.at(-1).content[0]).toStrictEqual({
      type: 'tool_result', tool_use_id: 'toolu_1', content: '(the tool reported an error with no text)', is_error: true,
    });
  });

  it('refuses tool_use without its results next, a result before the prompt it follows, and a result for no call', async () => {
    const model = await start();
    const use = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'fs__read', input: { path: 'a' } }] };
    const result = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' };
    await post({ ...base, messages: [USER('hi'), use, USER('go on')] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({
      error: { message: 'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.' },
    });
    // consecutive user turns are combined: the prompt first, then the result, is out of order
    await post({ ...base, messages: [USER('hi'), use, USER('go on'), { role: 'user', content: [result] }] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({ error: { message: expect.stringContaining('Did not find 1 tool_result block(s) at the beginning of this message') } });
    await post({ ...base, messages: [USER('hi'), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, { role: 'user', content: [result] }] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({ error: { message: expect.stringContaining('unexpected `tool_use_id` found in `tool_result` blocks: toolu_1') } });
    // the adapter: results first in the user turn after the calls, the next prompt after them
    server.reply(anthropicReply('', [{ id: 'toolu_1', name: 'fs__read', args: { path: 'a' } }]), anthropicReply('ok'));
    const r1 = await model.complete({ messages: ASK, tools: [READ] });
    await model.complete({
      messages: [...ASK, assistantMessage(r1), { role: 'tool', toolCallId: 'toolu_1', toolName: 'fs__read', content: 'x' }, { role: 'user', content: 'go on' }],
      tools: [READ],
    });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body.messages.at(-1)).toStrictEqual({ role: 'user', content: [result, { type: 'text', text: 'go on' }] });
  });
});

describe('strict Anthropic: thinking', () => {
  it('refuses a budget under 1024 or not below max_tokens; the adapter adds the budget to max_tokens', async () => {
    const model = await start({}, { thinking: 2048 });
    await post({ ...base, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [USER('hi')] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({ error: { message: expect.stringMatching(/^`max_tokens` must be greater than `thinking.budget_tokens`/) } });
    await post({ ...base, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 512 }, messages: [USER('hi')] });
    expect(server.lastRefused).toBe('thinking-budget');
    expect(() => parseThinking('512')).toThrow('--thinking 512: a thinking budget must be at least 1024 tokens');
    server.reply(anthropicReply('hi'));
    await model.complete({ messages: ASK, tools: [] });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body).toMatchObject({ max_tokens: 4096 + 2048, thinking: { type: 'enabled', budget_tokens: 2048 } });
  });

  it('sends on as adaptive thinking with room for it, off as disabled', async () => {
    const on = await start({}, { thinking: 'on' });
    server.reply(anthropicReply('hi'), anthropicReply('hi'));
    await on.complete({ messages: ASK, tools: [] });
    expect(server.seen.at(-1)!.body).toMatchObject({ max_tokens: 4096 + 8192, thinking: { type: 'adaptive' } });
    const off = new AnthropicAdapter('claude-test', { baseUrl: server.url, apiKey: 'k', env: {} });
    await off.complete({ messages: ASK, tools: [] });
    expect(server.seen.at(-1)!.body).toMatchObject({ max_tokens: 4096, thinking: { type: 'disabled' } });
    expect([on.settings.thinking, off.settings.thinking]).toStrictEqual(['on', 'off']);
  });

  it('says what to try when a model refuses thinking off, or a budget', async () => {
    const off = await start({ model: { mustThink: true, adaptiveOnly: true } });
    const err = await off.complete({ messages: ASK, tools: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toBe(
      'anthropic:claude-test: request rejected: HTTP 400: "thinking.type.disabled" is not supported for this model. Use "thinking.type.adaptive".' +
        '; this model takes thinking differently (--thinking is off); try --thinking on, off or a token budget',
    );
    const budget = new AnthropicAdapter('claude-test', { baseUrl: server.url, apiKey: 'k', env: {}, thinking: 4096, retry: { maxAttempts: 1 } });
    await expect(budget.complete({ messages: ASK, tools: [] })).rejects.toThrow(/"thinking.type.enabled" is not supported for this model.*--thinking is 4096/);
    const adaptive = new AnthropicAdapter('claude-test', { baseUrl: server.url, apiKey: 'k', env: {}, thinking: 'on' });
    server.reply(anthropicReply('hi'));
    await adaptive.complete({ messages: ASK, tools: [] });
    expect(server.lastRefused).toBeUndefined();
  });

  it('refuses a tool turn sent back without its thinking; the adapter keeps thinking and redacted thinking, unchanged and first', async () => {
    const model = await start({}, { thinking: 'on' });
    const thought = thinkingBlock('The file is a.txt; read it.');
    const hidden = redactedBlock('opaque');
    server.reply(anthropicReply('Reading.', [{ id: 'toolu_1', name: 'fs__read', args: { path: 'a' } }], {}, [thought, hidden]));
    const r1 = await model.complete({ messages: ASK, tools: [READ] });
    expect(r1.thinking).toStrictEqual([thought, hidden]);
    const turn = assistantMessage(r1);
    // the neutral turn survives a trace: plain JSON
    expect(JSON.parse(JSON.stringify(turn))).toStrictEqual(turn);
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hi' }] };
    const use = { type: 'tool_use', id: 'toolu_1', name: 'fs__read', input: { path: 'a' } };
    await post({ ...base, max_tokens: 12288, thinking: { type: 'adaptive' }, messages: [USER('Read a.txt.'), { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, use] }, result] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({
      error: { message: expect.stringContaining('Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block') },
    });
    server.reply(anthropicReply('It says hi.'));
    await model.complete({ messages: [...ASK, turn, { role: 'tool', toolCallId: 'toolu_1', toolName: 'fs__read', content: 'hi' }], tools: [READ] });
    expect(server.lastRefused).toBeUndefined();
    expect(server.seen.at(-1)!.body.messages[1]).toStrictEqual({ role: 'assistant', content: [thought, hidden, { type: 'text', text: 'Reading.' }, use] });
  });

  it('refuses thinking sent back altered', async () => {
    await start({}, { thinking: 'on' });
    const altered = { ...thinkingBlock('Read a.txt.'), thinking: 'Read b.txt.' };
    const use = { type: 'tool_use', id: 'toolu_1', name: 'fs__read', input: { path: 'a' } };
    await post({
      ...base, max_tokens: 12288, thinking: { type: 'adaptive' },
      messages: [USER('hi'), { role: 'assistant', content: [altered, use] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] }],
    });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({ error: { message: 'messages.1.content.0: Invalid `signature` in `thinking` block' } });
    await post({
      ...base, max_tokens: 12288, thinking: { type: 'adaptive' },
      messages: [USER('hi'), { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'made-up' }, use] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] }],
    });
    expect(server.lastRefused).toBe('thinking-unmodified');
  });

  it('refuses thinking in the final turn when thinking is off; the adapter leaves it out then', async () => {
    const model = await start();
    const thought = thinkingBlock('Read it.');
    await post({ ...base, thinking: { type: 'disabled' }, messages: [USER('hi'), { role: 'assistant', content: [thought, { type: 'text', text: 'ok' }] }, USER('and?')] });
    expect(server.seen.at(-1)!.refused!.refusal.json).toMatchObject({
      error: { message: 'messages.1.content.0: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.' },
    });
    server.reply(anthropicReply('ok'));
    const res = await model.complete({ messages: [...ASK, { role: 'assistant', content: 'ok', thinking: [thought] }, { role: 'user', content: 'and?' }], tools: [] });
    expect(server.lastRefused).toBeUndefined();
    expect(res.adaptations).toStrictEqual([{ kind: 'message', index: 1, change: 'left out thinking, as thinking is off' }]);
  });
});

describe('a tool_use cut off by max_tokens', () => {
  it('is marked invalid, so the loop answers it without making it, and the answer is accepted', async () => {
    const model = await start();
    server.reply(
      anthropicReply('', [{ id: 'toolu_1', name: 'fs__read', args: { path: 'a' } }, { id: 'toolu_2', name: 'fs__write', args: { path: 'b', text: 'unfini' } }], { stop_reason: 'max_tokens' }),
      anthropicReply('ok'),
    );
    const res = await model.complete({ messages: ASK, tools: [READ] });
    expect(res.stopReason).toBe('max_tokens');
    expect(res.toolCalls[0]).toStrictEqual({ id: 'toolu_1', name: 'fs__read', args: { path: 'a' } });
    expect(res.toolCalls[1]).toMatchObject({ id: 'toolu_2', invalid: CUT_OFF_TEXT });
    expect(res.adaptations).toContainEqual({ kind: 'arguments', tool: 'fs__write', id: 'toolu_2', why: 'the response stopped (max_tokens) inside this call; not made' });
    await model.complete({
      messages: [
        ...ASK, assistantMessage(res),
        { role: 'tool', toolCallId: 'toolu_1', toolName: 'fs__read', content: 'x' },
        { role: 'tool', toolCallId: 'toolu_2', toolName: 'fs__write', content: CUT_OFF_TEXT, isError: true },
      ],
      tools: [READ],
    });
    expect(server.lastRefused).toBeUndefined();
  });
});

describe('the request builder', () => {
  it('is what complete() sends, byte for byte', async () => {
    const model = await start({}, { thinking: 3000 });
    const request: ModelRequest = { messages: [{ role: 'system', content: 'Be brief.' }, ...ASK], tools: [READ], options: { seed: 1 } };
    server.reply(anthropicReply('ok'));
    await model.complete(request);
    expect(server.seen[0]!.raw).toBe(JSON.stringify(buildAnthropicRequest('claude-test', request, model.settings).body));
  });

  it('refuses a base URL that ends in /v1, which the client adds itself', () => {
    expect(() => new AnthropicAdapter('m', { baseUrl: 'https://api.anthropic.com/v1', apiKey: 'k', env: {} })).toThrow(
      'anthropic:m: base URL "https://api.anthropic.com/v1" ends in /v1, which the client adds itself; drop it',
    );
  });
});

describe('strict Anthropic: usage', () => {
  it('counts cache reads and writes into the input tokens, as OpenTelemetry counts input, and names each', async () => {
    const model = await start();
    server.reply(anthropicReply('hi', [], { usage: { input_tokens: 12, output_tokens: 7, cache_read_input_tokens: 900, cache_creation_input_tokens: 300 } }));
    const res = await model.complete({ messages: ASK, tools: [] });
    expect(res.usage).toStrictEqual({ inputTokens: 1212, outputTokens: 7, cacheReadTokens: 900, cacheWriteTokens: 300 });
  });

  it('keeps input tokens as sent when the reply has no cache counters', async () => {
    const model = await start();
    server.reply(anthropicReply('hi', [], { usage: { input_tokens: 12, output_tokens: 7 } }));
    const res = await model.complete({ messages: ASK, tools: [] });
    expect(res.usage).toStrictEqual({ inputTokens: 12, outputTokens: 7 });
  });
});
