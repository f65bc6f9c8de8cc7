// The model gateway's Gemini format, through raw fetch with the exact wire shapes: no Google
// client is among Ladder's dependencies, and the one that matters, Gemini CLI, is run for real in
// test/agents-real/gemini.test.ts. The requests below have the shape Gemini CLI 0.61.0 sent.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/models/retry.ts';
import { gatewayAnswering, modelResponse, signal, TOKEN } from './fixture.ts';

const json = { 'content-type': 'application/json' };
const key = { ...json, 'x-goog-api-key': TOKEN };

/** A boolean Gemini CLI adds to every declaration; the gateway takes it off. */
const WAIT = { type: 'boolean', description: 'Set to true to wait for all previously requested tools in this turn to complete before starting.' };
const LIST_TOOL = {
  name: 'mcp_ladder_wb__files_list',
  description: 'Lists the entries of a folder.',
  parametersJsonSchema: { type: 'object', properties: { path: { type: 'string', default: '.' }, wait_for_previous: WAIT }, $schema: 'http://json-schema.org/draft-07/schema#' },
};
const READ_TOOL = {
  name: 'mcp_ladder_wb__files_read',
  description: 'Reads a file.',
  parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' }, wait_for_previous: WAIT }, required: ['path'] },
};
const TOOLS = [{ functionDeclarations: [LIST_TOOL, READ_TOOL] }];
const SYSTEM = { role: 'user', parts: [{ text: 'You are Gemini CLI.' }] };
const CONTEXT = { text: '<session_context>This is the Gemini CLI.</session_context>' };
const GENERATION = { temperature: 1, topP: 0.95, topK: 64, thinkingConfig: { includeThoughts: true } };

const url = (base: string, model: string, method: string) => `${base}/v1beta/models/${model}:${method}`;
const post = (target: string, body: unknown, headers: Record<string, string> = key) => fetch(target, { method: 'POST', headers, body: JSON.stringify(body) });

/** The `data:` chunks of an SSE body, parsed; anything outside the framing fails the parse. */
function chunks(text: string): unknown[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text.split('\n\n').filter((b) => b !== '').map((b) => {
    expect(b.startsWith('data: ')).toBe(true);
    return JSON.parse(b.slice(6)) as unknown;
  });
}

describe('model gateway: Google Gemini API', () => {
  it('answers generateContent: the model from the path split at its last colon, systemInstruction first, usage as Google counts it', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'Hello.', usage: { inputTokens: 100, outputTokens: 3, cacheReadTokens: 60 } })]);
    const res = await post(url(fx.gateway.geminiBaseUrl, 'synthetic:retrier', 'generateContent'), {
      contents: [{ role: 'user', parts: [CONTEXT, { text: 'Hi' }] }], systemInstruction: SYSTEM, generationConfig: { ...GENERATION, maxOutputTokens: 512, seed: 4 },
    });
    expect(res.status).toBe(200);
    expect(fx.seen).toStrictEqual([{
      format: 'gemini', model: 'synthetic:retrier', stream: false, otherTools: [],
      request: {
        messages: [{ role: 'system', content: 'You are Gemini CLI.' }, { role: 'user', content: `${CONTEXT.text}\nHi` }],
        tools: [], options: { temperature: 1, seed: 4, maxTokens: 512 },
      },
    }]);
    const body = (await res.json()) as { responseId: string };
    expect(body).toStrictEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hello.' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 3, totalTokenCount: 103, cachedContentTokenCount: 60 },
      modelVersion: 'synthetic:retrier', responseId: body.responseId,
    });
    expect(body.responseId).toMatch(/^[0-9a-f]{24}$/);
  });

  it('runs three tool rounds streamed: calls go out with ids and without wait_for_previous, responses come back by id', async () => {
    await using fx = await gatewayAnswering([
      () => modelResponse({ toolCalls: [{ id: 'call_a', name: 'mcp_ladder_wb__files_list', args: { path: '.', wait_for_previous: true } }], stopReason: 'tool_calls' }),
      () => modelResponse({ toolCalls: [{ id: 'call_b', name: 'mcp_ladder_wb__files_read', args: { path: 'note.txt' } }, { id: 'call_c', name: 'mcp_ladder_wb__files_read', args: { path: 'gone.txt' } }], stopReason: 'tool_calls' }),
      () => modelResponse({ text: 'The note says hi.', usage: { inputTokens: 300, outputTokens: 6 } }),
    ]);
    const target = `${url(fx.gateway.geminiBaseUrl, 'synthetic:retrier', 'streamGenerateContent')}?alt=sse`;
    const user = { role: 'user', parts: [CONTEXT, { text: 'Read the note.' }] };
    const round = async (contents: unknown[]) => {
      const res = await post(target, { contents, systemInstruction: SYSTEM, tools: TOOLS, generationConfig: GENERATION });
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
      return chunks(await res.text()) as { candidates: { content: { parts: Record<string, { id: string; name: string; args: unknown }>[] }; finishReason?: string }[]; usageMetadata?: unknown }[];
    };

    const first = await round([user]);
    expect(first.at(-1)!.candidates[0]!.finishReason).toBe('STOP');
    const listCall = first.at(-1)!.candidates[0]!.content.parts[0]!.functionCall!;
    expect(listCall).toStrictEqual({ id: 'call_a', name: 'mcp_ladder_wb__files_list', args: { path: '.' } });
    // the model is shown the tools as the MCP server lists them
    expect(fx.seen[0]!.request.tools).toStrictEqual([
      { name: LIST_TOOL.name, description: LIST_TOOL.description, inputSchema: { ...LIST_TOOL.parametersJsonSchema, properties: { path: { type: 'string', default: '.' } } } },
      { name: READ_TOOL.name, description: READ_TOOL.description, inputSchema: { ...READ_TOOL.parametersJsonSchema, properties: { path: { type: 'string' } } } },
    ]);

    const callTurn1 = { role: 'model', parts: [{ functionCall: listCall, thoughtSignature: 'skip_thought_signature_validator' }] };
    const responseTurn1 = { role: 'user', parts: [{ functionResponse: { id: 'call_a', name: listCall.name, response: { output: 'note.txt\ngone.txt' } } }] };
    const second = await round([user, callTurn1, responseTurn1]);
    const parts = second.at(-1)!.candidates[0]!.content.parts;
    expect(parts.map((p) => p.functionCall)).toStrictEqual([
      { id: 'call_b', name: 'mcp_ladder_wb__files_read', args: { path: 'note.txt' } },
      { id: 'call_c', name: 'mcp_ladder_wb__files_read', args: { path: 'gone.txt' } },
    ]);

    // responses in another order than the calls, matched by id; an error response is a failed result
    const callTurn2 = { role: 'model', parts: parts.map((p) => ({ functionCall: p.functionCall })) };
    const responseTurn2 = {
      role: 'user',
      parts: [
        { functionResponse: { id: 'call_c', name: 'mcp_ladder_wb__files_read', response: { error: 'no such file' } } },
        { functionResponse: { id: 'call_b', name: 'mcp_ladder_wb__files_read', response: { output: 'hi' } } },
      ],
    };
    const third = await round([user, callTurn1, responseTurn1, callTurn2, responseTurn2]);
    expect(third.at(-1)).toMatchObject({
      candidates: [{ content: { role: 'model', parts: [{ text: 'The note says hi.' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 300, candidatesTokenCount: 6, totalTokenCount: 306 },
    });
    expect(fx.seen[2]!.request.messages).toStrictEqual([
      { role: 'system', content: 'You are Gemini CLI.' },
      { role: 'user', content: `${CONTEXT.text}\nRead the note.` },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_a', name: 'mcp_ladder_wb__files_list', args: { path: '.' } }] },
      { role: 'tool', toolCallId: 'call_a', toolName: 'mcp_ladder_wb__files_list', content: 'note.txt\ngone.txt' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_b', name: 'mcp_ladder_wb__files_read', args: { path: 'note.txt' } }, { id: 'call_c', name: 'mcp_ladder_wb__files_read', args: { path: 'gone.txt' } }] },
      { role: 'tool', toolCallId: 'call_c', toolName: 'mcp_ladder_wb__files_read', content: 'no such file', isError: true },
      { role: 'tool', toolCallId: 'call_b', toolName: 'mcp_ladder_wb__files_read', content: 'hi' },
    ]);
    expect(fx.seen.map((r) => r.stream)).toEqual([true, true, true]);
  });

  it('matches a response without an id by name, gives an id-less call one from its place, and reads Google\'s own Schema', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'ok' })]);
    const res = await post(url(fx.gateway.geminiBaseUrl, 'gemini-2.5-flash', 'generateContent'), {
      contents: [
        { parts: [{ text: 'Look up x.' }] },
        { role: 'model', parts: [{ text: 'thinking...', thought: true }, { functionCall: { name: 'lookup', args: { q: 'x' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { found: true } } }] },
      ],
      tools: [{ function_declarations: [{ name: 'lookup', parameters: { type: 'OBJECT', properties: { q: { type: 'STRING', nullable: true } }, required: ['q'] } }] }, { googleSearch: {} }],
    });
    expect(res.status).toBe(200);
    const [request] = fx.seen;
    const id = (request!.request.messages[1] as unknown as { toolCalls: { id: string }[] }).toolCalls[0]!.id;
    expect(id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(request!.request.messages).toStrictEqual([
      { role: 'user', content: 'Look up x.' },
      { role: 'assistant', content: '', toolCalls: [{ id, name: 'lookup', args: { q: 'x' } }] },
      { role: 'tool', toolCallId: id, toolName: 'lookup', content: '{"found":true}' },
    ]);
    expect(request!.request.tools).toStrictEqual([{ name: 'lookup', description: '', inputSchema: { type: 'object', properties: { q: { type: ['string', 'null'] } }, required: ['q'] } }]);
    expect(request!.otherTools).toEqual(['googleSearch']);
  });

  it('streams text as it is produced, then the rest with the finish reason and usage', async () => {
    const sawFirst = signal();
    await using fx = await gatewayAnswering([
      async (_request, { onText }) => {
        onText!('Let me ');
        await sawFirst.promise;
        onText!('look.');
        return modelResponse({ text: 'Let me look. Done.', stopReason: 'max_tokens' });
      },
    ]);
    const res = await post(`${url(fx.gateway.geminiBaseUrl, 'm', 'streamGenerateContent')}?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(chunks(first)).toMatchObject([{ candidates: [{ content: { role: 'model', parts: [{ text: 'Let me ' }] }, index: 0 }], modelVersion: 'm' }]);
    expect(first).not.toContain('finishReason');
    sawFirst.resolve();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    const all = chunks(first + rest) as { candidates: { content: { parts: { text: string }[] }; finishReason?: string }[]; usageMetadata?: unknown; responseId: string }[];
    expect(all.map((c) => c.candidates[0]!.content.parts[0]!.text).join('')).toBe('Let me look. Done.');
    expect(all.at(-1)).toMatchObject({ candidates: [{ finishReason: 'MAX_TOKENS' }], usageMetadata: { promptTokenCount: 21, candidatesTokenCount: 8, totalTokenCount: 29 } });
    expect(new Set(all.map((c) => c.responseId)).size).toBe(1);
  });

  it('takes the key as ?key= and as a bearer token too', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'ok' })]);
    const body = { contents: [{ role: 'user', parts: [{ text: 'x' }] }] };
    expect((await post(`${url(fx.gateway.geminiBaseUrl, 'm', 'generateContent')}?key=${TOKEN}`, body, json)).status).toBe(200);
    expect((await post(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), body, { ...json, authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect(fx.seen).toHaveLength(2);
  });

  const KEY_WANTED = { '@type': 'type.googleapis.com/google.rpc.DebugInfo', detail: expect.stringContaining('x-goog-api-key: <token>') };
  it.each([
    ['no key', json, 403, 'PERMISSION_DENIED', 'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.', [KEY_WANTED]],
    ['a wrong key', { ...json, 'x-goog-api-key': 'nope' }, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } }, KEY_WANTED,
    ]],
    ['a wrong bearer token', { ...json, authorization: 'Bearer nope' }, 401, 'UNAUTHENTICATED', expect.stringMatching(/^Request had invalid authentication credentials\. Expected OAuth 2 access token/), [KEY_WANTED]],
  ])('refuses %s as the Gemini API does, before reading the body', async (_name, headers, status, name, message, details) => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    const res = await fetch(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), { method: 'POST', headers, body: 'not json' });
    expect(res.status).toBe(status);
    expect(await res.json()).toStrictEqual({ error: { code: status, message, status: name, details } });
    expect(fx.seen).toStrictEqual([]);
  });

  const user = (text = 'x') => ({ role: 'user', parts: [{ text }] });
  const call = (name: string, id?: string) => ({ role: 'model', parts: [{ functionCall: { name, args: {}, ...(id === undefined ? {} : { id }) } }] });
  const answer = (name: string, id?: string) => ({ functionResponse: { name, response: { output: 'r' }, ...(id === undefined ? {} : { id }) } });
  it.each([
    ['no contents', {}, '* GenerateContentRequest.contents: contents is not specified', null],
    ['empty contents', { contents: [] }, '* GenerateContentRequest.contents: contents is not specified', null],
    ['an unknown role', { contents: [{ role: 'system', parts: [{ text: 'x' }] }] }, 'Please use a valid role: user, model.', { field: 'contents[0].role', description: 'got "system"; put system text in systemInstruction' }],
    ['a content with no parts', { contents: [{ role: 'user', parts: [] }] }, '* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.', null],
    ['a part with no data', { contents: [{ role: 'user', parts: [{ thought: true }] }] }, '* GenerateContentRequest.contents[0].parts[0].data: required oneof field \'data\' must have one initialized field', null],
    ['a part with two data fields', { contents: [{ role: 'user', parts: [{ text: 'x', functionCall: { name: 'f' } }] }] }, '* GenerateContentRequest.contents[0].parts[0]: Oneof field \'data\' is already set. Cannot set \'functionCall\'', null],
    ['an unknown field', { contents: [{ role: 'user', parts: [{ txt: 'x' }] }] }, 'Invalid JSON payload received. Unknown name "txt" at \'contents[0].parts[0]\': Cannot find field.', null],
    ['an image', { contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] }] }, '* GenerateContentRequest.contents[0].parts[0].inlineData: inlineData parts are not served: the model gateway carries text, functionCall and functionResponse parts only', null],
    ['a function call turn first', { contents: [call('f'), { role: 'user', parts: [answer('f')] }] }, 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.', { field: 'contents[0]', description: 'a model turn with function calls must follow a user turn' }],
    ['a function response after a user turn', { contents: [user(), { role: 'user', parts: [answer('f')] }] }, 'Please ensure that function response turn comes immediately after a function call turn.', { field: 'contents[1]', description: 'function responses answer the function calls of the model turn just before' }],
    ['fewer responses than calls', { contents: [user(), { role: 'model', parts: [{ functionCall: { name: 'f' } }, { functionCall: { name: 'g' } }] }, { role: 'user', parts: [answer('f')] }] },
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.', { field: 'contents[2]', description: 'the turn before called 2 function(s) (f, g); answer each with one functionResponse part in this user turn' }],
    ['a conversation ending on calls', { contents: [user(), call('f')] },
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.', { field: 'contents[1]', description: 'the conversation ends with the model\'s function calls; send their functionResponse parts in a user turn after it' }],
    ['a response naming no call', { contents: [user(), call('f'), { role: 'user', parts: [answer('g')] }] },
      '* GenerateContentRequest.contents[2].parts[0].function_response.name: "g" answers no function call of the turn before (f); a function response names the call it answers', null],
    ['a response whose id answers no call', { contents: [user(), call('f', 'id_1'), { role: 'user', parts: [answer('f', 'id_2')] }] },
      '* GenerateContentRequest.contents[2].parts[0].function_response.name: "f" (id "id_2") answers no function call of the turn before (f); a function response names the call it answers', null],
    ['parameters and parametersJsonSchema both', { contents: [user()], tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT' }, parametersJsonSchema: { type: 'object' } }] }] },
      '* GenerateContentRequest.tools[0].function_declarations[0].parameters_json_schema: parameters and parameters_json_schema are mutually exclusive; send one', null],
    ['a function name Google refuses', { contents: [user()], tools: [{ functionDeclarations: [{ name: '1-tool' }] }] },
      '* GenerateContentRequest.tools[0].function_declarations[0].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.', null],
    ['two candidates', { contents: [user()], generationConfig: { candidateCount: 2 } }, '* GenerateContentRequest.generation_config.candidate_count: only 1 candidate is served, got 2', null],
    ['a cached content', { contents: [user()], cachedContent: 'cachedContents/abc' }, '* GenerateContentRequest.cached_content: not served: the model gateway keeps no cached contents; send the whole conversation in contents', null],
    ['a content with no parts field', { contents: [{ role: 'user' }] }, '* GenerateContentRequest.contents[0].parts: required (the content\'s parts)', null],
    ['parts that are not an array', { contents: [{ role: 'user', parts: 'x' }] }, '* GenerateContentRequest.contents[0].parts: expected an array, got a string', null],
    ['a thought that is not a boolean', { contents: [{ role: 'user', parts: [{ text: 'x', thought: 'yes' }] }] }, '* GenerateContentRequest.contents[0].parts[0].thought: expected a boolean, got a string', null],
    ['a thoughtSignature that is not a string', { contents: [{ role: 'user', parts: [{ text: 'x', thoughtSignature: 5 }] }] }, '* GenerateContentRequest.contents[0].parts[0].thoughtSignature: expected a string, got a number', null],
    ['a text that is not a string', { contents: [{ role: 'user', parts: [{ text: 5 }] }] }, '* GenerateContentRequest.contents[0].parts[0].text: expected a string, got a number', null],
    ['a function call in a user content', { contents: [{ role: 'user', parts: [{ functionCall: { name: 'f' } }] }] },
      '* GenerateContentRequest.contents[0].parts[0].function_call: a function call is the model\'s: it goes in a content with role "model"', null],
    ['a function call that is not an object', { contents: [user(), { role: 'model', parts: [{ functionCall: 'f' }] }] }, '* GenerateContentRequest.contents[1].parts[0].function_call: expected an object, got a string', null],
    ['a function call with no name', { contents: [user(), { role: 'model', parts: [{ functionCall: { args: {} } }] }] }, '* GenerateContentRequest.contents[1].parts[0].function_call.name: required (the function\'s name)', null],
    ['a function call name that is not a string', { contents: [user(), { role: 'model', parts: [{ functionCall: { name: 5 } }] }] }, '* GenerateContentRequest.contents[1].parts[0].function_call.name: expected a string, got a number', null],
    ['function call args that are not an object', { contents: [user(), { role: 'model', parts: [{ functionCall: { name: 'f', args: 'x' } }] }] }, '* GenerateContentRequest.contents[1].parts[0].function_call.args: expected an object, got a string', null],
    ['a function call id that is not a string', { contents: [user(), { role: 'model', parts: [{ functionCall: { name: 'f', id: 5 } }] }] }, '* GenerateContentRequest.contents[1].parts[0].function_call.id: expected a string, got a number', null],
    ['a function response in a model content', { contents: [user(), { role: 'model', parts: [answer('f')] }] },
      '* GenerateContentRequest.contents[1].parts[0].function_response: a function response goes in a content with role "user", right after the function call turn', null],
    ['a function response that is not an object', { contents: [{ role: 'user', parts: [{ functionResponse: 'r' }] }] }, '* GenerateContentRequest.contents[0].parts[0].function_response: expected an object, got a string', null],
    ['a function response with no name', { contents: [{ role: 'user', parts: [{ functionResponse: { response: {} } }] }] },
      '* GenerateContentRequest.contents[0].parts[0].function_response.name: required (the name of the function it answers)', null],
    ['a function response name that is not a string', { contents: [{ role: 'user', parts: [{ functionResponse: { name: 5, response: {} } }] }] },
      '* GenerateContentRequest.contents[0].parts[0].function_response.name: expected a string, got a number', null],
    ['a function response with no response', { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f' } }] }] },
      '* GenerateContentRequest.contents[0].parts[0].function_response.response: required (the function\'s response, a JSON object)', null],
    ['a function response whose response is not an object', { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: 'r' } }] }] },
      '* GenerateContentRequest.contents[0].parts[0].function_response.response: expected an object, got a string', null],
    ['a function response id that is not a string', { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {}, id: 5 } }] }] },
      '* GenerateContentRequest.contents[0].parts[0].function_response.id: expected a string, got a number', null],
    ['a function response after a model turn without calls', { contents: [user(), { role: 'model', parts: [{ text: 'ok' }] }, { role: 'user', parts: [answer('f')] }] },
      'Please ensure that function response turn comes immediately after a function call turn.', { field: 'contents[2]', description: 'function responses answer the function calls of the model turn just before' }],
    ['a response naming no call of two', { contents: [user(), { role: 'model', parts: [{ functionCall: { name: 'f' } }, { functionCall: { name: 'g' } }] }, { role: 'user', parts: [answer('f'), answer('h')] }] },
      '* GenerateContentRequest.contents[2].parts[1].function_response.name: "h" answers no function call of the turn before (f, g); a function response names the call it answers', null],
  ])('refuses %s with 400 INVALID_ARGUMENT in Google\'s error body', async (_name, body, message, violation) => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    const res = await post(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), body);
    expect(res.status).toBe(400);
    const details = violation === null ? {} : { details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [violation] }] };
    expect(await res.json()).toStrictEqual({ error: { code: 400, message, status: 'INVALID_ARGUMENT', ...details } });
    expect(fx.seen).toStrictEqual([]);
  });

  it.each([
    ['an unknown method', 'POST', '/v1beta/models/m:countTokens', 404, 'NOT_FOUND', 'POST /v1beta/models/m:countTokens: not served here; the model gateway serves POST /v1beta/models/{model}:generateContent and POST /v1beta/models/{model}:streamGenerateContent?alt=sse'],
    ['GET on generateContent', 'GET', '/v1beta/models/m:generateContent', 404, 'NOT_FOUND', 'GET /v1beta/models/m:generateContent: only POST is served here'],
    ['a stream without alt=sse', 'POST', '/v1beta/models/m:streamGenerateContent', 400, 'INVALID_ARGUMENT', 'POST /v1beta/models/m:streamGenerateContent: streamed answers are served as server-sent events only: add ?alt=sse (Gemini CLI and @google/genai send it)'],
  ])('answers %s in Google\'s shape', async (_name, method, path, status, name, message) => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    const res = await fetch(`${fx.gateway.geminiBaseUrl}${path}`, { method, headers: key, ...(method === 'POST' ? { body: '{}' } : {}) });
    expect(res.status).toBe(status);
    expect(await res.json()).toStrictEqual({ error: { code: status, message, status: name } });
  });

  it('reads a content with role "" as the user\'s, null args as none, text-only model turns anywhere, and function responses by their wire shape', async () => {
    // A response is an error only when "error" is all it holds; with another key beside it, it is passed whole (probe).
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'ok' })]);
    const res = await post(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), {
      contents: [
        { role: 'model', parts: [{ text: 'Hello' }, { text: ' there.' }] },
        { role: '', parts: [{ text: 'Look up x.' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', id: 'c1', args: null } }, { functionCall: { name: 'stat', args: {} } }, { functionCall: { name: 'peek', id: 'c3', args: {} } }, { functionCall: { name: 'probe', id: 'c4', args: {} } }] },
        { role: 'user', parts: [
          { functionResponse: { name: 'peek', response: { error: { code: 2 } } } },
          { functionResponse: { name: 'stat', id: 'anything', response: { output: 'a', more: 1 } } },
          { functionResponse: { name: 'lookup', response: { output: { n: 1 } } } },
          { functionResponse: { name: 'probe', id: 'c4', response: { error: 'denied', code: 7 } } },
        ] },
        { role: 'model', parts: [{ text: 'Done.' }] },
      ],
    });
    expect(res.status).toBe(200);
    const messages = fx.seen[0]!.request.messages;
    const id = (messages[2] as unknown as { toolCalls: { id: string }[] }).toolCalls[1]!.id;
    expect(messages).toStrictEqual([
      { role: 'assistant', content: 'Hello there.' },
      { role: 'user', content: 'Look up x.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup', args: {} }, { id, name: 'stat', args: {} }, { id: 'c3', name: 'peek', args: {} }, { id: 'c4', name: 'probe', args: {} }] },
      { role: 'tool', toolCallId: 'c3', toolName: 'peek', content: '{"code":2}', isError: true },
      { role: 'tool', toolCallId: id, toolName: 'stat', content: '{"output":"a","more":1}' },
      { role: 'tool', toolCallId: 'c1', toolName: 'lookup', content: '{"n":1}' },
      { role: 'tool', toolCallId: 'c4', toolName: 'probe', content: '{"error":"denied","code":7}' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  /** The id the gateway makes for a call that came without a usable one: from its place in the conversation, its name and its id. */
  const madeId = (place: number, name: string, id = '') => `call_${createHash('sha256').update(`${place}\0${name}\0${id}`).digest('hex').slice(0, 24)}`;

  it('numbers id-less calls by their place across turns, keeps an id it cannot use only where the agent sent it, and numbers the answer\'s calls after them', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ toolCalls: [{ id: '', name: 'lookup', args: { q: 'y' } }, { id: 'not valid', name: 'lookup', args: { q: 'z' } }], stopReason: 'tool_calls' })]);
    const res = await post(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), {
      contents: [
        user('go'),
        call('lookup'),
        { role: 'user', parts: [answer('lookup')] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: {} } }, { functionCall: { name: 'lookup', args: {} } }, { functionCall: { name: 'lookup', id: 'odd id', args: {} } }] },
        { role: 'user', parts: [answer('lookup'), answer('lookup'), answer('lookup')] },
      ],
      tools: [{ functionDeclarations: [{ name: 'lookup', parametersJsonSchema: { type: 'object', properties: { q: { type: 'string' } } } }] }],
    });
    expect(res.status).toBe(200);
    const calls = fx.seen[0]!.request.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls ?? [] : []));
    expect(calls.map((c) => c.id)).toStrictEqual([madeId(0, 'lookup'), madeId(1, 'lookup'), madeId(2, 'lookup'), 'odd id']);
    const body = (await res.json()) as { candidates: unknown[] };
    // four calls before it: the answer's calls are the fifth and sixth; a tool without wait_for_previous keeps its args
    expect(body.candidates).toStrictEqual([{
      content: { role: 'model', parts: [
        { functionCall: { id: madeId(4, 'lookup'), name: 'lookup', args: { q: 'y' } } },
        { functionCall: { id: madeId(5, 'lookup', 'not valid'), name: 'lookup', args: { q: 'z' } } },
      ] },
      finishReason: 'STOP', index: 0,
    }]);
  });

  it.each([
    ['a refusal with no text, as its refusal', { text: '', refusal: 'I can\'t help with that.', stopReason: 'refusal' as const }, [{ text: 'I can\'t help with that.' }], 'SAFETY'],
    ['a text beside a refusal, as its text', { text: 'Partly.', refusal: 'No more.', stopReason: 'refusal' as const }, [{ text: 'Partly.' }], 'SAFETY'],
    ['an empty answer, as one empty text part', { text: '', stopReason: 'other' as const }, [{ text: '' }], 'STOP'],
    ['an answer cut short', { text: 'Half', stopReason: 'max_tokens' as const }, [{ text: 'Half' }], 'MAX_TOKENS'],
    ['calls alone, with no text part', { text: '', toolCalls: [{ id: 'call_1', name: 'f', args: {} }], stopReason: 'tool_calls' as const }, [{ functionCall: { id: 'call_1', name: 'f', args: {} } }], 'STOP'],
  ])('writes %s', async (_name, fields, parts, finishReason) => {
    await using fx = await gatewayAnswering([() => modelResponse({ ...fields, usage: { inputTokens: 5, outputTokens: 0 } })]);
    const res = await post(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), { contents: [user()] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { responseId: string };
    expect(body).toStrictEqual({
      candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 0, totalTokenCount: 5 },
      modelVersion: 'm', responseId: body.responseId,
    });
  });

  it('tells the model of an image a tool returned, after its function response, as the other formats do (Gemini CLI sends an MCP image so)', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'ok' })]);
    const image = { inlineData: { mimeType: 'image/png', data: 'AA==' } };
    const contents = [
      { role: 'user', parts: [{ text: 'Show it.' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'shot', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'shot', response: { output: 'a picture' } } }, image] },
    ];
    const res = await post(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), { contents });
    expect(res.status).toBe(200);
    expect(fx.seen[0]!.request.messages.at(-1)).toStrictEqual({
      role: 'tool', toolCallId: 'c1', toolName: 'shot', content: 'a picture\n[inlineData: not carried by the model gateway, which passes text only]',
    });
  });

  it('answers a body over the limit 400, as Google has no 413', async () => {
    await using fx = await gatewayAnswering([() => modelResponse()], { maxBodyBytes: 64 });
    const res = await post(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), { contents: [user('x'.repeat(64))] });
    expect(res.status).toBe(400);
    expect(await res.json()).toStrictEqual({ error: { code: 400, status: 'INVALID_ARGUMENT', message: 'POST /v1beta/models/m:generateContent: the body is over the gateway\'s limit of 64 bytes' } });
  });

  it.each([
    ['a rate limit', new ProviderError('openai:m: rate limited after 12 attempts', 'rate_limit', 429, 12), 429, 'RESOURCE_EXHAUSTED'],
    ['an overloaded provider', new ProviderError('anthropic:c: server error: HTTP 529: Overloaded', 'server', 529, 4), 503, 'UNAVAILABLE'],
    ['a timeout', new ProviderError('openai:m: timed out', 'timeout', undefined, 4), 504, 'DEADLINE_EXCEEDED'],
    ['any other provider failure', new ProviderError('openai:m: HTTP 500', 'server', 500, 4), 500, 'INTERNAL'],
  ])('answers %s with the status Gemini CLI reads as the same', async (_name, error, status, name) => {
    await using fx = await gatewayAnswering([() => { throw error; }]);
    const res = await post(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), { contents: [user()] });
    expect(res.status).toBe(status);
    expect(await res.json()).toStrictEqual({ error: { code: status, message: error.message, status: name } });
  });

  it('ends a stream that fails after its first chunk with a bare JSON error, as @google/genai reads one', async () => {
    await using fx = await gatewayAnswering([
      (_request, { onText }) => {
        onText!('Partial');
        throw new ProviderError('openai:m: connection reset', 'connection', undefined, 4);
      },
    ]);
    const res = await post(`${url(fx.gateway.geminiBaseUrl, 'm', 'streamGenerateContent')}?alt=sse`, { contents: [user()] });
    expect(res.status).toBe(200);
    const text = await res.text();
    const [data, error] = text.split('\n\n');
    expect(JSON.parse(data!.slice(6))).toMatchObject({ candidates: [{ content: { parts: [{ text: 'Partial' }] } }] });
    expect(JSON.parse(error!)).toStrictEqual({ error: { code: 500, message: 'openai:m: connection reset', status: 'INTERNAL' } });
  });
});

describe('model gateway: Google Gemini API, parts after a function response', () => {
  const turns = (extra: unknown) => [
    { role: 'user', parts: [{ text: 'Show it.' }] },
    { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'shot', args: {} } }] },
    { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'shot', response: { output: 'a file' } } }, extra] },
  ];

  it('tells the model of a file a tool returned, as of an image', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'ok' })]);
    const res = await post(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), { contents: turns({ fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/f.pdf' } }) });
    expect(res.status).toBe(200);
    expect(fx.seen[0]!.request.messages.at(-1)).toMatchObject({ role: 'tool', content: 'a file\n[fileData: not carried by the model gateway, which passes text only]' });
  });

  it('refuses code parts there as anywhere: only an image or a file is a tool result\'s', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'ok' })]);
    const res = await post(url(fx.gateway.geminiBaseUrl, 'm', 'generateContent'), { contents: turns({ executableCode: { language: 'PYTHON', code: 'print(1)' } }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('* GenerateContentRequest.contents[2].parts[1].executableCode: executableCode parts are not served: the model gateway carries text, functionCall and functionResponse parts only');
    expect(fx.seen).toStrictEqual([]);
  });
});
