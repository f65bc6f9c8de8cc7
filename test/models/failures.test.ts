// One failure suite, run against every real adapter with its real client library.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicAdapter, OllamaAdapter, OpenAIAdapter, ProviderError } from '../../src/models/index.ts';
import type { AdapterOptions, ModelAdapter, ModelRequest } from '../../src/models/index.ts';
import { anthropicReply, closedPort, errorReply, FakeProvider, ollamaReply, openaiReply, recordingSleep } from './fakeServer.ts';
import type { Reply } from './fakeServer.ts';

interface Case {
  readonly name: 'ollama' | 'openai' | 'anthropic';
  readonly make: (url: string, options: AdapterOptions) => ModelAdapter;
  readonly ok: (text: string) => Reply;
}

// What each service answers a conversation longer than the model's context: Ollama passes on
// llama-server's error body as its message; OpenAI's code context_length_exceeded; Anthropic's
// "prompt is too long".
const OVERFLOW: Record<Case['name'], Reply> = {
  ollama: errorReply('ollama', 400, JSON.stringify({
    error: { code: 400, message: 'request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it', type: 'exceed_context_size_error' },
  })),
  openai: {
    status: 400,
    json: {
      error: {
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130001 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded',
      },
    },
  },
  anthropic: { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } } },
};

const CASES: Case[] = [
  { name: 'ollama', make: (url, o) => new OllamaAdapter('m', { ...o, baseUrl: url }), ok: (t) => ollamaReply(t) },
  { name: 'openai', make: (url, o) => new OpenAIAdapter('m', { ...o, baseUrl: `${url}/v1`, apiKey: 'sk-test' }), ok: (t) => openaiReply(t) },
  { name: 'anthropic', make: (url, o) => new AnthropicAdapter('m', { ...o, baseUrl: url, apiKey: 'sk-ant-test' }), ok: (t) => anthropicReply(t) },
];

const HELLO: ModelRequest = { messages: [{ role: 'user', content: 'hello' }], tools: [] };

/** Rejection of `promise`, which must reject. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (err: unknown) => err,
  );
}

describe.each(CASES)('$name adapter against a failing provider', ({ name, make, ok }) => {
  let server: FakeProvider;
  let clock: ReturnType<typeof recordingSleep>;
  const adapter = (extra: Partial<AdapterOptions> = {}) =>
    make(server.url, { retry: { sleep: clock.sleep, random: () => 0.5, maxAttempts: 3 }, ...extra });

  beforeEach(async () => {
    server = await FakeProvider.start();
    clock = recordingSleep();
  });
  afterEach(async () => server.close());

  it('waits the Retry-After of a 429, in seconds, then succeeds', async () => {
    server.reply(errorReply(name, 429, 'slow down', { 'retry-after': '2' }), ok('fine'));
    const res = await adapter().complete(HELLO);
    expect(res.text).toBe('fine');
    expect(clock.waits).toStrictEqual([2000]);
    expect(res.attempts).toBe(2);
    expect(res.retryWaitMs).toBe(2000);
    expect(server.seen).toHaveLength(2);
  });

  it('tells its pace of each request: a 429 throttles with its Retry-After, a 503 with one too, a 500 nothing, an answer succeeds', async () => {
    const seen: string[] = [];
    const pace = {
      sent: () => ({ seq: seen.push('sent') }),
      succeeded: (t: { seq: number }) => void seen.push(`ok ${t.seq}`),
      throttled: (t: { seq: number }, ms?: number) => void seen.push(`throttled ${t.seq} ${ms}`),
    };
    server.reply(
      errorReply(name, 429, 'slow down', { 'retry-after': '2' }), errorReply(name, 500, 'boom'),
      errorReply(name, 503, 'busy', { 'retry-after': '1' }), ok('fine'),
    );
    await adapter({ retry: { sleep: clock.sleep, random: () => 0.5, maxAttempts: 4 }, pace }).complete(HELLO);
    expect(seen).toStrictEqual(['sent', 'throttled 1 2000', 'sent', 'sent', 'throttled 4 1000', 'sent', 'ok 6']);
  });

  it('prefers retry-after-ms to Retry-After when both are sent', async () => {
    server.reply(errorReply(name, 429, 'slow down', { 'retry-after': '2', 'retry-after-ms': '1500' }), ok('fine'));
    await adapter().complete(HELLO);
    expect(clock.waits).toStrictEqual([1500]);
  });

  it('retries a 500 after a jittered back-off and succeeds', async () => {
    server.reply(errorReply(name, 500, 'boom'), ok('fine'));
    const res = await adapter().complete(HELLO);
    expect(res.text).toBe('fine');
    expect(clock.waits).toStrictEqual([500]); // random 0.5 of the 1 s first ceiling
    expect(res.attempts).toBe(2);
  });

  it('retries after the server drops the connection before answering', async () => {
    server.reply('drop', ok('fine'));
    const res = await adapter().complete(HELLO);
    expect(res.text).toBe('fine');
    expect(res.attempts).toBe(2);
  });

  it('retries after the connection drops in the middle of the response body', async () => {
    server.reply('drop-mid-body', ok('fine'));
    const res = await adapter().complete(HELLO);
    expect(res.text).toBe('fine');
    expect(res.attempts).toBe(2);
  });

  it('calls a connection that keeps dropping mid-response a connection failure', async () => {
    server.reply('drop-mid-body', 'drop-mid-body');
    const err = await rejection(adapter({ retry: { sleep: clock.sleep, maxAttempts: 2 } }).complete(HELLO));
    expect(err).toMatchObject({ kind: 'connection', status: undefined, attempts: 2 });
    expect((err as Error).message).toContain('connection failed after 2 attempts: connection dropped mid-response');
  });

  it('calls a connection that keeps closing before any answer a dropped connection', async () => {
    server.reply('drop', 'drop');
    const err = await rejection(adapter({ retry: { sleep: clock.sleep, maxAttempts: 2 } }).complete(HELLO));
    expect(err).toMatchObject({ kind: 'connection', status: undefined, attempts: 2 });
    expect((err as Error).message).toMatch(/connection failed after 2 attempts: connection dropped(;|$)/);
  });

  it('gives up with a ProviderError after maxAttempts 503s, having sent exactly that many', async () => {
    server.reply(...[1, 2, 3, 4].map(() => errorReply(name, 503, 'overloaded')));
    const err = await rejection(adapter().complete(HELLO));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'server', status: 503, attempts: 3, retryable: true });
    expect((err as Error).message).toBe(`${name}:m: server error after 3 attempts: HTTP 503: overloaded`);
    expect(server.seen).toHaveLength(3); // the client library's own retries are off
    expect(clock.waits).toStrictEqual([500, 1000]);
  });

  it('fails at once on a 401 with one line naming the status and the server message', async () => {
    server.reply(errorReply(name, 401, 'invalid key'), ok('never'));
    const err = await rejection(adapter().complete(HELLO));
    expect(err).toMatchObject({ kind: 'auth', status: 401, attempts: 1, retryable: false });
    expect((err as Error).message).toMatch(new RegExp(`^${name}:m: authentication failed: HTTP 401: invalid key`));
    expect((err as Error).message).not.toContain('\n');
    expect(server.seen).toHaveLength(1);
    expect(clock.waits).toStrictEqual([]);
  });

  it('fails at once on a context overflow, with its own line and no retry', async () => {
    server.reply(OVERFLOW[name], ok('never'));
    const err = await rejection(adapter().complete(HELLO));
    expect(err).toMatchObject({ kind: 'context_length', status: 400, attempts: 1, retryable: false });
    expect((err as Error).message).toMatch(new RegExp(`^${name}:m: the conversation is longer than the model's context: HTTP 400: [^{]+; `));
    expect((err as Error).message).not.toContain('\n');
    expect(server.seen).toHaveLength(1);
  });

  it('names the key to check on a 403 as well, without retrying', async () => {
    server.reply(errorReply(name, 403, 'forbidden'), ok('never'));
    const err = await rejection(adapter().complete(HELLO));
    expect(err).toMatchObject({ kind: 'auth', attempts: 1 });
    if (name !== 'ollama') expect((err as Error).message).toMatch(/; check (OPENAI|ANTHROPIC)_API_KEY$/);
    expect(server.seen).toHaveLength(1);
  });

  it('fails at once on a 400 and a 404', async () => {
    server.reply(errorReply(name, 400, 'bad field'), errorReply(name, 404, 'no such model'));
    await expect(adapter().complete(HELLO)).rejects.toMatchObject({ kind: 'client', status: 400, attempts: 1 });
    await expect(adapter().complete(HELLO)).rejects.toMatchObject({ kind: 'client', status: 404, attempts: 1 });
    expect(server.seen).toHaveLength(2);
  });

  it('gives up on a Retry-After longer than the cap instead of sitting it out', async () => {
    server.reply(errorReply(name, 429, 'quota', { 'retry-after': '3600' }), ok('never'));
    const err = await rejection(adapter().complete(HELLO));
    expect(err).toMatchObject({ kind: 'rate_limit', status: 429, attempts: 1 });
    expect((err as Error).message).toContain('asked to wait 3600 s, over the 60 s cap');
    expect(clock.waits).toStrictEqual([]);
  });

  it('times out an attempt that never answers, then retries it', async () => {
    server.reply('hang', ok('fine'));
    const res = await adapter({ timeoutMs: 300 }).complete(HELLO);
    expect(res.text).toBe('fine');
    expect(res.attempts).toBe(2);
  });

  it('reports a persistent timeout as kind timeout', async () => {
    server.reply('hang', 'hang');
    const a = make(server.url, { timeoutMs: 200, retry: { sleep: clock.sleep, maxAttempts: 2 } });
    await expect(a.complete(HELLO)).rejects.toMatchObject({ kind: 'timeout', status: undefined, attempts: 2 });
  });

  it('rejects with the abort reason when the caller aborts, and does not retry', async () => {
    server.reply('hang', ok('never'));
    const controller = new AbortController();
    const reason = new Error('step time limit');
    // Aborts once the request has reached the server: an event, not 100 ms a loaded machine may not give.
    const arrived = setInterval(() => {
      if (server.seen.length > 0) {
        clearInterval(arrived);
        controller.abort(reason);
      }
    }, 5);
    const err = await rejection(adapter().complete(HELLO, controller.signal));
    expect(err).toBe(reason);
    expect(server.seen).toHaveLength(1);
    expect(clock.waits).toStrictEqual([]);
  });

  it('names connection refused and says what to check', async () => {
    const a = make(await closedPort(), { retry: { sleep: clock.sleep, random: () => 0, maxAttempts: 2 } });
    const err = await rejection(a.complete(HELLO));
    expect(err).toMatchObject({ kind: 'connection', status: undefined, attempts: 2 });
    expect((err as Error).message).toMatch(/connection failed after 2 attempts: connection refused; .*(running|reachable)/);
  });
});
