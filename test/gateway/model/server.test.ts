import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startModelGateway } from '../../../src/gateway/model/index.ts';
import { gatewayAnswering, modelResponse, signal, TOKEN } from './fixture.ts';

// A missing or wrong pass token in each provider's words: OpenAI's masks the key it was given.
const NO_KEY = "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.";
const openaiRefusal: Record<string, { message: string; code: string | null }> = {
  'no token': { message: NO_KEY, code: null },
  'a wrong bearer token': { message: 'Incorrect API key provided: ****. You can find your API key at https://platform.openai.com/account/api-keys.', code: 'invalid_api_key' },
  'a wrong x-api-key': { message: 'Incorrect API key provided: pas*********f3ax. You can find your API key at https://platform.openai.com/account/api-keys.', code: 'invalid_api_key' },
};

const json = { 'content-type': 'application/json' };

describe('model gateway: the server', () => {
  it('serves on 127.0.0.1 under the two base URLs the SDKs take', async () => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    expect(fx.gateway.openaiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(fx.gateway.anthropicBaseUrl).toBe(fx.gateway.openaiBaseUrl.replace(/\/v1$/, ''));
  });

  it.each([
    ['no token', {}],
    ['a wrong bearer token', { authorization: 'Bearer nope' }],
    ['a wrong x-api-key', { 'x-api-key': `${TOKEN}x` }],
  ])('refuses %s with 401 in the provider\'s words, before reading the body', async (name, headers) => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    const chat = await fetch(`${fx.gateway.openaiBaseUrl}/chat/completions`, { method: 'POST', headers: { ...json, ...headers }, body: 'not even json' });
    expect(chat.status).toBe(401);
    expect(await chat.json()).toStrictEqual({ error: { ...openaiRefusal[name], type: 'invalid_request_error', param: null } });
    const messages = await fetch(`${fx.gateway.anthropicBaseUrl}/v1/messages`, { method: 'POST', headers: { ...json, ...headers }, body: '{}' });
    expect(messages.status).toBe(401);
    expect(await messages.json()).toStrictEqual({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    expect(fx.seen).toStrictEqual([]);
  });

  it('takes the token as x-api-key as well as a bearer token', async () => {
    await using fx = await gatewayAnswering([() => modelResponse({ text: 'ok' })]);
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const res = await fetch(`${fx.gateway.openaiBaseUrl}/chat/completions`, { method: 'POST', headers: { ...json, 'x-api-key': TOKEN }, body });
    expect(res.status).toBe(200);
  });

  it('answers a path it does not serve with 404 in OpenAI\'s words, and in Ladder\'s to an Anthropic client', async () => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    const res = await fetch(`${fx.gateway.openaiBaseUrl}/completions`, { method: 'POST', headers: { ...json, authorization: `Bearer ${TOKEN}` }, body: '{}' });
    expect(res.status).toBe(404);
    expect(await res.json()).toStrictEqual({
      error: {
        message: 'Invalid URL (POST /v1/completions)',
        type: 'invalid_request_error', param: null, code: null,
      },
    });
    const anthropic = await fetch(`${fx.gateway.anthropicBaseUrl}/v1/complete`, { method: 'POST', headers: { ...json, 'x-api-key': TOKEN, 'anthropic-version': '2023-06-01' }, body: '{}' });
    expect(anthropic.status).toBe(404);
    expect(await anthropic.json()).toStrictEqual({
      type: 'error',
      error: { type: 'not_found_error', message: 'POST /v1/complete: not served here; the model gateway serves POST /v1/chat/completions, POST /v1/responses, POST /v1/messages and POST /v1beta/models/{model}:generateContent (Gemini)' },
    });
  });

  it('answers GET on an endpoint with 405 and Allow: POST', async () => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    const res = await fetch(`${fx.gateway.openaiBaseUrl}/responses`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('lists the one model it was given, in the shape of the client that asks', async () => {
    await using fx = await gatewayAnswering([() => modelResponse()], { model: 'gpt-agent' });
    const models = await new OpenAI({ apiKey: TOKEN, baseURL: fx.gateway.openaiBaseUrl, maxRetries: 0 }).models.list();
    expect(models.data).toStrictEqual([{ id: 'gpt-agent', object: 'model', created: 0, owned_by: 'ladder' }]);
    const anthropic = await fetch(`${fx.gateway.anthropicBaseUrl}/v1/models`, { headers: { 'x-api-key': TOKEN, 'anthropic-version': '2023-06-01' } });
    expect(await anthropic.json()).toMatchObject({ data: [{ type: 'model', id: 'gpt-agent' }], has_more: false });
  });

  it('refuses a body that is not JSON with 400: OpenAI\'s words to an OpenAI client, Ladder\'s naming the endpoint to an Anthropic one', async () => {
    await using fx = await gatewayAnswering([() => modelResponse()]);
    const res = await fetch(`${fx.gateway.openaiBaseUrl}/responses`, { method: 'POST', headers: { ...json, authorization: `Bearer ${TOKEN}` }, body: '{"model": ' });
    expect(res.status).toBe(400);
    expect(await res.json()).toStrictEqual({
      error: {
        message: "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
        type: 'invalid_request_error', param: null, code: null,
      },
    });
    const anthropic = await fetch(`${fx.gateway.anthropicBaseUrl}/v1/messages`, { method: 'POST', headers: { ...json, 'x-api-key': TOKEN, 'anthropic-version': '2023-06-01' }, body: '{"model": ' });
    const { error } = (await anthropic.json()) as { error: { message: string } };
    expect(error.message).toMatch(/^POST \/v1\/messages: the body is not JSON \(.+\)$/);
  });

  it('refuses a body over maxBodyBytes with 413, whether its length is declared or it arrives in chunks', async () => {
    await using fx = await gatewayAnswering([() => modelResponse()], { maxBodyBytes: 64 });
    const message = 'POST /v1/chat/completions: the body is over the gateway\'s limit of 64 bytes';
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(64) }] });
    const declared = await fetch(`${fx.gateway.openaiBaseUrl}/chat/completions`, { method: 'POST', headers: { ...json, authorization: `Bearer ${TOKEN}` }, body });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { message: string } }).error.message).toBe(message);
    const chunked = await fetch(`${fx.gateway.openaiBaseUrl}/chat/completions`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${TOKEN}` },
      body: new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(body.slice(0, 40))); c.enqueue(new TextEncoder().encode(body.slice(40))); c.close(); } }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { error: { message: string } }).error.message).toBe(message);
    // exactly at the limit is still read
    const small = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    await using atLimit = await gatewayAnswering([() => modelResponse({ text: 'ok' })], { maxBodyBytes: Buffer.byteLength(small) });
    const fits = await fetch(`${atLimit.gateway.openaiBaseUrl}/chat/completions`, { method: 'POST', headers: { ...json, authorization: `Bearer ${TOKEN}` }, body: small });
    expect(fits.status).toBe(200);
  });

  it('aborts the answer\'s signal when the agent disconnects', async () => {
    const started = signal();
    const aborted = signal<unknown>();
    await using fx = await gatewayAnswering([
      (_request, { signal: answerSignal }) =>
        new Promise((_resolve, reject) => {
          answerSignal.addEventListener('abort', () => {
            aborted.resolve(answerSignal.reason);
            reject(answerSignal.reason);
          });
          started.resolve();
        }),
    ]);
    const client = new AbortController();
    const call = new OpenAI({ apiKey: TOKEN, baseURL: fx.gateway.openaiBaseUrl, maxRetries: 0 }).chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }, { signal: client.signal })
      .catch((e: unknown) => e);
    await started.promise;
    client.abort();
    expect(await call).toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(String(await aborted.promise)).toBe('Error: the agent disconnected before the openai-chat answer was written');
  });

  it('aborts every running answer when it closes', async () => {
    const started = signal();
    const aborted = signal<unknown>();
    const gateway = await startModelGateway({
      token: TOKEN,
      answer: (_request, { signal: answerSignal }) =>
        new Promise((_resolve, reject) => {
          answerSignal.addEventListener('abort', () => {
            aborted.resolve(answerSignal.reason);
            reject(answerSignal.reason);
          });
          started.resolve();
        }),
    });
    const req = httpRequest(`${gateway.openaiBaseUrl}/chat/completions`, { method: 'POST', headers: { ...json, authorization: `Bearer ${TOKEN}` } });
    const ended = new Promise((resolve) => req.on('error', resolve).on('response', resolve));
    req.end(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
    await started.promise;
    await gateway.close();
    expect(String(await aborted.promise)).toBe('Error: the model gateway closed');
    await ended;
  });

  it('refuses an empty token at start', async () => {
    await expect(startModelGateway({ token: ' ', answer: async () => modelResponse() })).rejects.toThrow('model gateway token must be a non-empty string');
  });
});
