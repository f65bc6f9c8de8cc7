import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/models/retry.ts';
import { gatewayAnswering, modelResponse, signal, TOKEN } from './fixture.ts';

// The SDK sends the key as `Authorization: Bearer`; `x-api-key` is tested on the raw requests below.
const client = (baseURL: string) => new Anthropic({ apiKey: TOKEN, baseURL, maxRetries: 0 });

const READ_TOOL = { name: 'fs__read', description: 'Read a file', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } };

const SIGNED = { type: 'thinking' as const, thinking: 'The file first.', signature: 'sig_abc' };

describe('model gateway: Anthropic Messages', () => {
  it('answers a text request with a message, counting cached input as Anthropic does', async () => {
    await using fx = await gatewayAnswering([
      () => modelResponse({ text: 'Hello.', usage: { inputTokens: 100, outputTokens: 3, cacheReadTokens: 60, cacheWriteTokens: 15 } }),
    ]);
    const message = await client(fx.gateway.anthropicBaseUrl).messages.create({
      model: 'claude-agent',
      max_tokens: 512,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(fx.seen).toStrictEqual([{
      format: 'anthropic-messages',
      model: 'claude-agent',
      request: { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }], tools: [], options: { maxTokens: 512 } },
      stream: false,
      otherTools: [],
    }]);
    expect(message).toMatchObject({
      type: 'message', role: 'assistant', model: 'claude-agent', content: [{ type: 'text', text: 'Hello.' }], stop_reason: 'end_turn', stop_sequence: null,
      usage: { input_tokens: 25, output_tokens: 3, cache_read_input_tokens: 60, cache_creation_input_tokens: 15 },
    });
    expect(message.id).toMatch(/^msg_/);
  });

  it('round-trips a tool call with its thinking: tool_use out, tool_result back, the tool named from the call', async () => {
    await using fx = await gatewayAnswering([
      () => modelResponse({ thinking: [SIGNED], toolCalls: [{ id: 'toolu_01', name: 'fs__read', args: { path: 'a.txt' } }], stopReason: 'tool_calls' }),
      () => modelResponse({ text: 'It says hi.' }),
    ]);
    const anthropic = client(fx.gateway.anthropicBaseUrl);
    const tools = [READ_TOOL, { type: 'web_search_20250305' as const, name: 'web_search' as const }];
    const first = await anthropic.messages.create({ model: 'claude-agent', max_tokens: 256, tools, messages: [{ role: 'user', content: 'Read a.txt' }] });
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toStrictEqual([SIGNED, { type: 'tool_use', id: 'toolu_01', name: 'fs__read', input: { path: 'a.txt' } }]);
    await anthropic.messages.create({
      model: 'claude-agent',
      max_tokens: 256,
      tools,
      messages: [
        { role: 'user', content: 'Read a.txt' },
        { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: [{ type: 'text', text: 'hi' }], is_error: false }, { type: 'text', text: 'Summarise.' }] },
      ],
    });
    expect(fx.seen[1]).toStrictEqual({
      format: 'anthropic-messages',
      model: 'claude-agent',
      request: {
        messages: [
          { role: 'user', content: 'Read a.txt' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_01', name: 'fs__read', args: { path: 'a.txt' } }], thinking: [SIGNED] },
          { role: 'tool', toolCallId: 'toolu_01', toolName: 'fs__read', content: 'hi' },
          { role: 'user', content: 'Summarise.' },
        ],
        tools: [{ name: 'fs__read', description: 'Read a file', inputSchema: READ_TOOL.input_schema }],
        options: { maxTokens: 256 },
      },
      stream: false,
      otherTools: ['web_search'],
    });
  });

  it('streams through messages.stream(): text deltas as they come, then a tool_use, and finalMessage() has both', async () => {
    const sawFirst = signal();
    await using fx = await gatewayAnswering([
      async (_request, { onText }) => {
        onText!('Let me ');
        await sawFirst.promise;
        onText!('look.');
        return modelResponse({ text: 'Let me look.', toolCalls: [{ id: 'not a valid id', name: 'fs__read', args: { path: 'b' } }], stopReason: 'tool_calls', usage: { inputTokens: 50, outputTokens: 9 } });
      },
    ]);
    const stream = client(fx.gateway.anthropicBaseUrl).messages.stream({ model: 'claude-agent', max_tokens: 100, tools: [READ_TOOL], messages: [{ role: 'user', content: 'Read b' }] });
    const deltas: string[] = [];
    stream.on('text', (delta) => {
      deltas.push(delta);
      sawFirst.resolve();
    });
    const final = await stream.finalMessage();
    expect(deltas).toStrictEqual(['Let me ', 'look.']);
    expect(final.content).toMatchObject([{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', name: 'fs__read', input: { path: 'b' } }]);
    expect((final.content[1] as Anthropic.ToolUseBlock).id).toMatch(/^toolu_[0-9a-f]{24}$/);
    expect(final).toMatchObject({ stop_reason: 'tool_use', usage: { input_tokens: 50, output_tokens: 9 } });
    expect(fx.seen[0]!.stream).toBe(true);
  });

  it('streams thinking first with its signature, and passes an error result on as one', async () => {
    const redacted = { type: 'redacted_thinking' as const, data: 'opaque==' };
    await using fx = await gatewayAnswering([() => modelResponse({ thinking: [SIGNED, redacted], text: 'It failed.' })]);
    const stream = client(fx.gateway.anthropicBaseUrl).messages.stream({
      model: 'claude-agent',
      max_tokens: 100,
      tools: [READ_TOOL],
      messages: [
        { role: 'user', content: 'Read c' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_c', name: 'fs__read', input: { path: 'c' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_c', content: 'no such file', is_error: true }] },
      ],
    });
    const final = await stream.finalMessage();
    expect(final.content).toStrictEqual([SIGNED, redacted, { type: 'text', text: 'It failed.' }]);
    expect(fx.seen[0]!.request.messages.at(-1)).toStrictEqual({ role: 'tool', toolCallId: 'toolu_c', toolName: 'fs__read', content: 'no such file', isError: true });
  });

  it('writes each event with its event line, in the documented order', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'Done.', stopReason: 'max_tokens' })]);
    const res = await fetch(`${fx.gateway.anthropicBaseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': TOKEN, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'c', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    const text = await res.text();
    const events = [...text.matchAll(/^event: (.+)\ndata: (.+)$/gm)].map((m) => [m[1], (JSON.parse(m[2]!) as { type: string }).type]);
    expect(events).toStrictEqual([
      ['message_start', 'message_start'], ['content_block_start', 'content_block_start'], ['content_block_delta', 'content_block_delta'],
      ['content_block_stop', 'content_block_stop'], ['message_delta', 'message_delta'], ['message_stop', 'message_stop'],
    ]);
    expect(text).toContain('"delta":{"stop_reason":"max_tokens","stop_sequence":null}');
  });

  // Each refusal in the API's own words (docs/models.md lists where each wording is from).
  const toolTurn = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] };
  it.each([
    ['no anthropic-version header', {}, { model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, 'anthropic-version: header is required'],
    ['no max_tokens', { 'anthropic-version': '2023-06-01' }, { model: 'c', messages: [{ role: 'user', content: 'x' }] }, 'max_tokens: Field required'],
    ['no model', { 'anthropic-version': '2023-06-01' }, { max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, 'model: Field required'],
    ['a max_tokens of 0', { 'anthropic-version': '2023-06-01' }, { model: 'c', max_tokens: 0, messages: [{ role: 'user', content: 'x' }] }, 'max_tokens: Input should be greater than or equal to 1'],
    ['no message', { 'anthropic-version': '2023-06-01' }, { model: 'c', max_tokens: 5, messages: [] }, 'messages: at least one message is required'],
    ['a Responses body', { 'anthropic-version': '2023-06-01' }, { model: 'c', max_tokens: 5, input: 'x' }, 'messages: Field required'],
    [
      'a tool_result answering no tool_use', { 'anthropic-version': '2023-06-01' },
      { model: 'c', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'r' }] }] },
      'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    ],
    [
      'text before a tool_result', { 'anthropic-version': '2023-06-01' },
      { model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }, toolTurn, { role: 'user', content: [{ type: 'text', text: 'here' }, { type: 'tool_result', tool_use_id: 'toolu_1', content: 'r' }] }] },
      'messages.2: Did not find 1 tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.',
    ],
    [
      'a tool_use with no tool_result after it', { 'anthropic-version': '2023-06-01' },
      { model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }, toolTurn, { role: 'user', content: 'go on' }] },
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    ],
    [
      'a tool_use that ends the conversation', { 'anthropic-version': '2023-06-01' },
      { model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }, toolTurn] },
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    ],
    ['a system entry leading messages', { 'anthropic-version': '2023-06-01' }, { model: 'c', max_tokens: 5, messages: [{ role: 'system', content: 'env' }, { role: 'user', content: 'x' }] }, "messages.0: use the top-level 'system' parameter for the initial system prompt; the directive-only form (content: [] with output_config) is accepted at any position"],
    // Claude Code's environment block for a model name it does not know: this wording is what makes it re-send without it
    ['a system entry after the prompt', { 'anthropic-version': '2023-06-01' }, { model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }, { role: 'system', content: [{ type: 'text', text: 'env' }] }] }, "role 'system' is not supported on this model"],
    ['a role it does not know', { 'anthropic-version': '2023-06-01' }, { model: 'c', max_tokens: 5, messages: [{ role: 'tool', content: 'x' }] }, "messages.0.role: Input should be 'user' or 'assistant'"],
    ['two tools of one name', { 'anthropic-version': '2023-06-01' }, { model: 'c', max_tokens: 5, tools: [READ_TOOL, READ_TOOL], messages: [{ role: 'user', content: 'x' }] }, 'tools: Tool names must be unique.'],
    ['a custom tool without input_schema', { 'anthropic-version': '2023-06-01' }, { model: 'c', max_tokens: 5, tools: [{ name: 'f' }], messages: [{ role: 'user', content: 'x' }] }, 'tools.0.custom.input_schema: Field required'],
  ])('refuses %s with a 400 in Anthropic\'s error body', async (_name, headers, body, message) => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    const res = await fetch(`${fx.gateway.anthropicBaseUrl}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': TOKEN, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toStrictEqual({ type: 'error', error: { type: 'invalid_request_error', message } });
    expect(fx.seen).toStrictEqual([]);
  });

  it('leaves a deferred tool out of what the model is offered, as the API loads it only when a tool search finds it', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'ok' })]);
    const placeholder = { name: 'DeferredToolPlaceholder', description: 'never call this tool', input_schema: { type: 'object', properties: {} }, defer_loading: true };
    await fetch(`${fx.gateway.anthropicBaseUrl}/v1/messages`, {
      method: 'POST', headers: { 'x-api-key': TOKEN, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'c', max_tokens: 5, tools: [placeholder, READ_TOOL], messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(fx.seen.map((r) => [r.request.tools.map((t) => t.name), r.otherTools])).toStrictEqual([[['fs__read'], ['DeferredToolPlaceholder']]]);
  });

  it('answers an overloaded provider with 529 overloaded_error, which the SDK reads as such', async () => {
    await using fx = await gatewayAnswering([() => { throw new ProviderError('anthropic:claude: server error after 4 attempts: HTTP 529: Overloaded', 'server', 529, 4); }]);
    const error = await client(fx.gateway.anthropicBaseUrl).messages.create({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toStrictEqual({
      type: 'error', error: { type: 'overloaded_error', message: 'anthropic:claude: server error after 4 attempts: HTTP 529: Overloaded' },
    });
  });
});
