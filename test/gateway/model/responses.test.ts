import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/models/retry.ts';
import { gatewayAnswering, modelResponse, signal, sseEvents, TOKEN } from './fixture.ts';

const client = (baseURL: string) => new OpenAI({ apiKey: TOKEN, baseURL, maxRetries: 0 });

const READ_SCHEMA = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

// A request in the shape Codex CLI 0.171.0 was seen to send (docs/agent.md, "Namespace tools"): its built-in tools, each
// MCP server as one namespace tool with the server's tools nested by their own names, a
// namespaced call and its result as content items, a reasoning item, and no stored state.
const CODEX_REQUEST = {
  model: 'gpt-agent',
  instructions: 'You are Codex.',
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Sandbox: none.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read notes.txt' }] },
    { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA-opaque' },
    { type: 'function_call', call_id: 'call_read1', namespace: 'mcp__workbench', name: 'read_file', arguments: '{"path":"notes.txt"}' },
    {
      type: 'function_call_output',
      call_id: 'call_read1',
      output: [{ type: 'input_text', text: 'line one' }, { type: 'input_text', text: 'line two' }],
    },
  ],
  tools: [
    { type: 'function', name: 'exec_command', description: 'Run a command', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
    { type: 'web_search', external_web_access: false },
    { type: 'custom', name: 'apply_patch', description: 'Patch files', format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } },
    {
      type: 'namespace',
      name: 'mcp__workbench',
      description: 'Tools of the workbench MCP server',
      tools: [
        { type: 'function', name: 'read_file', description: 'Read a file', parameters: READ_SCHEMA },
        { type: 'function', name: 'list_files', description: 'List files', parameters: { type: 'object', properties: {} } },
      ],
    },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  reasoning: { effort: 'medium', summary: 'auto' },
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  prompt_cache_key: 'session-1',
};

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/responses`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('model gateway: Responses', () => {
  it('answers a Codex-shaped request: namespace tools flattened, array outputs joined, a namespaced call sent back with its namespace', async () => {
    await using fx = await gatewayAnswering([
      () => modelResponse({ text: 'Listing too.', toolCalls: [{ id: 'call_list1', name: 'mcp__workbench__list_files', args: {} }], stopReason: 'tool_calls', usage: { inputTokens: 40, outputTokens: 6 } }),
    ]);
    const res = await post(fx.gateway.openaiBaseUrl, CODEX_REQUEST);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(fx.seen).toStrictEqual([{
      format: 'openai-responses',
      model: 'gpt-agent',
      request: {
        messages: [
          { role: 'system', content: 'You are Codex.' },
          { role: 'system', content: 'Sandbox: none.' },
          { role: 'user', content: 'Read notes.txt' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'call_read1', name: 'mcp__workbench__read_file', args: { path: 'notes.txt' } }] },
          { role: 'tool', toolCallId: 'call_read1', toolName: 'mcp__workbench__read_file', content: 'line one\nline two' },
        ],
        tools: [
          { name: 'exec_command', description: 'Run a command', inputSchema: { type: 'object', properties: { cmd: { type: 'string' } } } },
          { name: 'mcp__workbench__read_file', description: 'Read a file', inputSchema: READ_SCHEMA },
          { name: 'mcp__workbench__list_files', description: 'List files', inputSchema: { type: 'object', properties: {} } },
        ],
      },
      stream: true,
      otherTools: ['web_search', 'apply_patch'],
    }]);
    const events = sseEvents(await res.text());
    const data = events.map((e) => e.data as Record<string, any>);
    // the event line names the same type as the data, as OpenAI sends them
    expect(events.every((e) => e.event === (e.data as { type: string }).type)).toBe(true);
    expect(data.map((d) => d.type)).toStrictEqual([
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done',
      'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ]);
    expect(data.map((d) => d.sequence_number)).toStrictEqual(data.map((_, i) => i));
    // the message item is added empty; its text part is added by the next event, not twice
    expect(data[2]!.item).toMatchObject({ type: 'message', status: 'in_progress', content: [] });
    const call = { type: 'function_call', status: 'completed', call_id: 'call_list1', namespace: 'mcp__workbench', name: 'list_files', arguments: '{}' };
    expect(data[11]).toMatchObject({ output_index: 1, item: call });
    const completed = data[12]!.response;
    expect(completed).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-agent', usage: { input_tokens: 40, output_tokens: 6, total_tokens: 46 } });
    expect(completed.output).toMatchObject([
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Listing too.' }] },
      call,
    ]);
  });

  it('streams through the SDK\'s responses.stream() helper, which rebuilds the response from the events in order', async () => {
    await using fx = await gatewayAnswering([
      () => modelResponse({ text: 'Reading it.', toolCalls: [{ id: 'call_r', name: 'read_file', args: { path: 'a' } }], stopReason: 'tool_calls' }),
    ]);
    const stream = client(fx.gateway.openaiBaseUrl).responses.stream({
      model: 'gpt-agent',
      input: 'Read a',
      tools: [{ type: 'function', name: 'read_file', description: 'Read a file', parameters: READ_SCHEMA, strict: false }],
    });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas).toStrictEqual(['Reading it.']);
    expect(final.output_text).toBe('Reading it.');
    expect(final.output).toMatchObject([
      { type: 'message', content: [{ type: 'output_text', text: 'Reading it.' }] },
      { type: 'function_call', call_id: 'call_r', name: 'read_file', arguments: '{"path":"a"}' },
    ]);
    expect((final.output[1] as { namespace?: string }).namespace).toBeUndefined();
  });

  it('streams a refusal as its own content part, which the stream helper keeps', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ refusal: 'I cannot help with that.', stopReason: 'refusal' })]);
    const final = await client(fx.gateway.openaiBaseUrl).responses.stream({ model: 'm', input: 'x' }).finalResponse();
    expect(final.output).toMatchObject([
      { type: 'message', content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] },
    ]);
  });

  it('answers without streaming with the response object, incomplete at the token limit', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'Cut', stopReason: 'max_tokens', providerStopReason: 'length' })]);
    const response = await client(fx.gateway.openaiBaseUrl).responses.create({ model: 'gpt-agent', input: [{ role: 'user', content: 'Go on' }], max_output_tokens: 16, temperature: 0 });
    expect(fx.seen[0]!.request).toStrictEqual({ messages: [{ role: 'user', content: 'Go on' }], tools: [], options: { temperature: 0, maxTokens: 16 } });
    expect(response).toMatchObject({ object: 'response', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output_text: 'Cut', max_output_tokens: 16 });
    expect(response.id).toMatch(/^resp_/);
  });

  it('forwards a streamed delta through responses.create({stream: true}) before the callback resolves', async () => {
    const sawFirst = signal();
    await using fx = await gatewayAnswering([
      async (_request, { onText }) => {
        onText!('Wor');
        await sawFirst.promise;
        return modelResponse({ text: 'Working.' });
      },
    ]);
    const stream = await client(fx.gateway.openaiBaseUrl).responses.create({ model: 'm', input: 'go', stream: true });
    const deltas: string[] = [];
    let completed: unknown;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') {
        deltas.push(event.delta);
        sawFirst.resolve();
      }
      if (event.type === 'response.completed') completed = event.response.output;
    }
    expect(deltas).toStrictEqual(['Wor', 'king.']);
    expect(completed).toMatchObject([{ type: 'message', content: [{ type: 'output_text', text: 'Working.' }] }]);
  });

  // In the API's own words, param and code where it has them; Ladder's where it has none (docs/models.md).
  it.each([
    [
      // Ladder's: the API would answer from its store; the model gateway keeps none
      'previous_response_id',
      { model: 'm', input: 'x', previous_response_id: 'resp_1' },
      'POST /v1/responses: previous_response_id: needs responses stored by the server, which the model gateway does not keep; send the whole conversation in input with store: false', 'previous_response_id', null,
    ],
    ['an output answering no call', { model: 'm', input: [{ type: 'function_call_output', call_id: 'call_x', output: 'r' }] }, 'No tool call found for function call output with call_id call_x.', 'input', null],
    ['a call with no output', { model: 'm', input: [{ role: 'user', content: 'x' }, { type: 'function_call', call_id: 'call_y', name: 'f', arguments: '{}' }] }, 'No tool output found for function call call_y.', 'input', null],
    ['a Chat Completions body', { model: 'm', messages: [{ role: 'user', content: 'x' }] }, "Unknown parameter: 'messages'.", 'messages', 'unknown_parameter'],
    ['no model', { input: 'x' }, "Missing required parameter: 'model'.", 'model', 'missing_required_parameter'],
    [
      // Ladder's: a flattened namespace name the API would keep apart
      'a namespaced tool that collides with a function',
      { model: 'm', input: 'x', tools: [{ type: 'function', name: 'mcp__a__b' }, { type: 'namespace', name: 'mcp__a', tools: [{ type: 'function', name: 'b' }] }] },
      'POST /v1/responses: tools[1].tools[0].name: tool name "mcp__a__b" is offered twice (first at tools[0].name); tool names must be unique', 'tools[1].tools[0].name', null,
    ],
  ])('refuses %s with a 400 in OpenAI\'s error body', async (_name, body, message, param, code) => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    const res = await post(fx.gateway.openaiBaseUrl, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toStrictEqual({ error: { message, type: 'invalid_request_error', param, code } });
    expect(fx.seen).toStrictEqual([]);
  });

  it('ends a stream whose answer failed after its text with response.failed carrying the code', async () => {
    await using fx = await gatewayAnswering([
      (_request, { onText }) => {
        onText!('Par');
        throw new ProviderError('openai:gpt-x: rate limited after 12 attempts: HTTP 429', 'rate_limit', 429, 12);
      },
    ]);
    const res = await post(fx.gateway.openaiBaseUrl, { model: 'm', input: 'x', stream: true });
    const data = sseEvents(await res.text()).map((e) => e.data as Record<string, any>);
    expect(data.map((d) => d.type)).toStrictEqual([
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.failed',
    ]);
    expect(data.at(-1)!.response).toMatchObject({ status: 'failed', error: { code: 'rate_limit_exceeded', message: 'openai:gpt-x: rate limited after 12 attempts: HTTP 429' } });
  });

  it('answers a stream whose answer failed before any output with the HTTP status, which the SDK reads', async () => {
    await using fx = await gatewayAnswering([() => { throw new ProviderError('ollama:q: the conversation is longer than the model\'s context: too long', 'context_length', 400, 1); }]);
    const error = await client(fx.gateway.openaiBaseUrl).responses.create({ model: 'm', input: 'x', stream: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('context_length_exceeded');
  });
});
