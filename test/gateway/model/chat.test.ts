import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/models/retry.ts';
import { gatewayAnswering, modelResponse, signal, TOKEN } from './fixture.ts';

const QUERY_TOOL = {
  type: 'function' as const,
  function: { name: 'db__query', description: 'Run one SQL query', parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] } },
};

const client = (baseURL: string) => new OpenAI({ apiKey: TOKEN, baseURL, maxRetries: 0 });

describe('model gateway: Chat Completions', () => {
  it('answers a text request with a chat.completion, and hands the callback the neutral request', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'Three rows.', usage: { inputTokens: 30, outputTokens: 4, cacheReadTokens: 10 } })]);
    const completion = await client(fx.gateway.openaiBaseUrl).chat.completions.create({
      model: 'gpt-agent',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'How many' }, { type: 'text', text: 'rows?' }] },
      ],
      temperature: 0.2,
      seed: 7,
      max_completion_tokens: 300,
    });
    expect(fx.seen).toStrictEqual([{
      format: 'openai-chat',
      model: 'gpt-agent',
      request: {
        messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'How many\nrows?' }],
        tools: [],
        options: { temperature: 0.2, seed: 7, maxTokens: 300 },
      },
      stream: false,
      otherTools: [],
    }]);
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-agent',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Three rows.', refusal: null }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34, prompt_tokens_details: { cached_tokens: 10 } },
    });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
  });

  it('round-trips a tool call: the call goes out, its result comes back with the tool named from the call', async () => {
    await using fx = await gatewayAnswering([
      () => modelResponse({ toolCalls: [{ id: 'call_q1', name: 'db__query', args: { sql: 'select count(*) from t' } }], stopReason: 'tool_calls' }),
      () => modelResponse({ text: 'There are 3 rows.' }),
    ]);
    const openai = client(fx.gateway.openaiBaseUrl);
    const tools = [QUERY_TOOL, { type: 'custom' as const, custom: { name: 'apply_patch' } }];
    const first = await openai.chat.completions.create({ model: 'gpt-agent', messages: [{ role: 'user', content: 'How many rows?' }], tools });
    const message = first.choices[0]!.message;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(message.content).toBeNull();
    expect(message.tool_calls).toStrictEqual([{ id: 'call_q1', type: 'function', function: { name: 'db__query', arguments: '{"sql":"select count(*) from t"}' } }]);
    const second = await openai.chat.completions.create({
      model: 'gpt-agent',
      tools,
      messages: [
        { role: 'user', content: 'How many rows?' },
        { role: 'assistant', content: null, tool_calls: message.tool_calls! },
        { role: 'tool', tool_call_id: 'call_q1', content: [{ type: 'text', text: '3' }] },
      ],
    });
    expect(second.choices[0]!.message.content).toBe('There are 3 rows.');
    expect(fx.seen[1]).toStrictEqual({
      format: 'openai-chat',
      model: 'gpt-agent',
      request: {
        messages: [
          { role: 'user', content: 'How many rows?' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'call_q1', name: 'db__query', args: { sql: 'select count(*) from t' } }] },
          { role: 'tool', toolCallId: 'call_q1', toolName: 'db__query', content: '3' },
        ],
        tools: [{ name: 'db__query', description: 'Run one SQL query', inputSchema: QUERY_TOOL.function.parameters }],
      },
      stream: false,
      otherTools: ['apply_patch'],
    });
  });

  it('passes a refusal on as message.refusal with finish_reason content_filter', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ refusal: 'I cannot help with that.', stopReason: 'refusal' })]);
    const completion = await client(fx.gateway.openaiBaseUrl).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(completion.choices[0]).toMatchObject({ message: { content: null, refusal: 'I cannot help with that.' }, finish_reason: 'content_filter' });
  });

  it('gives a call whose id breaks the rule an id made from its place, the same every time', async () => {
    const answer = () => modelResponse({ toolCalls: [{ id: 'call 1/with spaces', name: 'db__query', args: {} }] });
    await using fx = await gatewayAnswering([answer]);
    const openai = client(fx.gateway.openaiBaseUrl);
    const ask = () => openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }], tools: [QUERY_TOOL] });
    const [a, b] = [await ask(), await ask()];
    const id = a.choices[0]!.message.tool_calls![0]!.id;
    expect(id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(b.choices[0]!.message.tool_calls![0]!.id).toBe(id);
  });

  it('streams role, text, tool calls, the finish reason and a usage chunk, then [DONE]', async () => {
    await using fx = await gatewayAnswering([
      () => modelResponse({ text: 'Looking.', toolCalls: [{ id: 'call_a', name: 'db__query', args: { sql: 'x' } }, { id: 'call_b', name: 'db__query', args: {}, rawArgs: '{"sql": ' }], stopReason: 'tool_calls' }),
    ]);
    const stream = await client(fx.gateway.openaiBaseUrl).chat.completions.create({
      model: 'gpt-agent', messages: [{ role: 'user', content: 'go' }], tools: [QUERY_TOOL], stream: true, stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'gpt-agent')).toBe(true);
    expect(chunks.map((c) => [c.choices[0]?.delta ?? null, c.choices[0]?.finish_reason ?? null, c.usage ?? null])).toStrictEqual([
      [{ role: 'assistant', content: '', refusal: null }, null, null],
      [{ content: 'Looking.' }, null, null],
      [{ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'db__query', arguments: '' } }] }, null, null],
      [{ tool_calls: [{ index: 0, function: { arguments: '{"sql":"x"}' } }] }, null, null],
      [{ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'db__query', arguments: '' } }] }, null, null],
      [{ tool_calls: [{ index: 1, function: { arguments: '{"sql": ' } }] }, null, null],
      [{}, 'tool_calls', null],
      [null, null, { prompt_tokens: 21, completion_tokens: 8, total_tokens: 29 }],
    ]);
    expect(fx.seen[0]!.stream).toBe(true);
  });

  it('forwards a streamed delta before the callback has the whole answer', async () => {
    const sawFirst = signal();
    await using fx = await gatewayAnswering([
      async (_request, { onText }) => {
        onText!('Hel');
        // resolved only once the client has read the first delta: a gateway that held it back never gets here
        await sawFirst.promise;
        return modelResponse({ text: 'Hello.' });
      },
    ]);
    const stream = await client(fx.gateway.openaiBaseUrl).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta.content ?? '';
      if (delta !== '' && text === '') {
        expect(delta).toBe('Hel');
        sawFirst.resolve();
      }
      text += delta;
    }
    expect(text).toBe('Hello.');
  });

  // Each refusal in the API's own words, param and code (docs/models.md lists where each wording is from).
  it.each([
    [
      'a tool message answering no call',
      { model: 'm', messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'call_9', content: 'r' }] },
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", 'messages.[1].role', null,
    ],
    [
      'a call left unanswered',
      { model: 'm', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'user', content: 'and?' }] },
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1", 'messages.[2].role', null,
    ],
    [
      'a call left unanswered at the end',
      { model: 'm', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }] },
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1", 'messages.[2].role', null,
    ],
    ['an Anthropic Messages body', { model: 'm', max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'x' }] }, 'Unrecognized request argument supplied: system', null, null],
    ['no model', { messages: [{ role: 'user', content: 'x' }] }, 'you must provide a model parameter', null, null],
    ['no messages', { model: 'm' }, "Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter'],
    ['no message in messages', { model: 'm', messages: [] }, "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array'],
    ['a role it does not know', { model: 'm', messages: [{ role: 'human', content: 'x' }] }, "Invalid value: 'human'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", 'messages[0].role', 'invalid_value'],
    // Ladder's own words: the API takes images, the model gateway carries text only
    ['an image part', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:' } }] }] }, 'POST /v1/chat/completions: messages[0].content[0].type: "image_url" parts are not served: the model gateway carries text only (parts of type text)', 'messages[0].content[0].type', null],
  ])('refuses %s with a 400 in the API\'s words', async (_name, body, message, param, code) => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    const error = await client(fx.gateway.openaiBaseUrl).chat.completions.create(body as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toStrictEqual({ message, type: 'invalid_request_error', param, code });
    expect(fx.seen).toStrictEqual([]);
  });

  it('answers a rate-limited provider with 429 and an overloaded one with 503, in OpenAI\'s error body', async () => {
    await using fx = await gatewayAnswering([
      () => { throw new ProviderError('openai:gpt-x: rate limited after 12 attempts: HTTP 429', 'rate_limit', 429, 12); },
      () => { throw new ProviderError('anthropic:claude: server error after 4 attempts: HTTP 529', 'server', 529, 4); },
      () => { throw new ProviderError('openai:gpt-x: authentication failed: HTTP 401', 'auth', 401, 1); },
    ]);
    const openai = client(fx.gateway.openaiBaseUrl);
    const ask = () =>
      openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).then(
        () => { throw new Error('expected a refusal'); },
        (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
      );
    const limited = await ask();
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(limited.error).toStrictEqual({ message: 'openai:gpt-x: rate limited after 12 attempts: HTTP 429', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' });
    const overloaded = await ask();
    expect(overloaded.status).toBe(503);
    expect(overloaded.error).toStrictEqual({ message: 'anthropic:claude: server error after 4 attempts: HTTP 529', type: 'server_error', param: null, code: null });
    // the agent's own token was good: the provider's refusal is the gateway's upstream failing
    const upstream = await ask();
    expect(upstream.status).toBe(502);
  });

  it('sends a failure that comes after streamed text as an error chunk, which the SDK throws', async () => {
    await using fx = await gatewayAnswering([
      (_request, { onText }) => {
        onText!('Part');
        throw new ProviderError('openai:gpt-x: connection failed after 4 attempts: connection reset', 'connection', undefined, 4);
      },
    ]);
    const stream = await client(fx.gateway.openaiBaseUrl).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
    const texts: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) texts.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(texts).toStrictEqual(['', 'Part']);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toBe('openai:gpt-x: connection failed after 4 attempts: connection reset');
  });
});
