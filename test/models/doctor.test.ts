import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkModel, ECHO_TOOL } from '../../src/models/doctor.ts';
import { OllamaAdapter, OpenAIAdapter } from '../../src/models/index.ts';
import { errorReply, FakeProvider, ollamaReply, openaiReply } from './fakeServer.ts';

const NO_WAIT = { sleep: async () => {}, maxAttempts: 2 };

describe('checkModel', () => {
  let server: FakeProvider;
  beforeEach(async () => {
    server = await FakeProvider.start();
  });
  afterEach(async () => server.close());

  it('passes a model that answers, calls the offered tool and accepts its result', async () => {
    server.reply(
      openaiReply('ready'),
      openaiReply(null, [{ id: 'call_9', name: ECHO_TOOL.name, args: { text: 'ping' } }]),
      openaiReply('ping'),
    );
    const model = new OpenAIAdapter('m', { baseUrl: `${server.url}/v1`, apiKey: 'k', retry: NO_WAIT });
    const result = await checkModel(model);
    expect(result.ok).toBe(true);
    expect(result.requests).toBe(3);
    expect(result.line).toMatch(/^OK openai:m: answers, calls a tool and accepts its result \(3 requests, \d+\.\d s, 90 tokens in, 27 out\)$/);
    expect(server.seen[1]!.body.tools).toStrictEqual([
      { type: 'function', function: { name: 'ladder_echo', description: ECHO_TOOL.description, parameters: ECHO_TOOL.inputSchema } },
    ]);
    expect(server.seen[2]!.body.messages.slice(-1)).toStrictEqual([{ role: 'tool', tool_call_id: 'call_9', content: 'ping' }]);
  });

  it('fails a model that answers but makes no tool call, quoting what it said', async () => {
    server.reply(ollamaReply('ready'), ollamaReply('I would rather   not call tools.'));
    const result = await checkModel(new OllamaAdapter('m', { baseUrl: server.url, retry: NO_WAIT }));
    expect(result).toStrictEqual({
      ok: false,
      line: 'FAIL ollama:m: answers, but made no tool call when offered one (replied "I would rather not call tools.")',
      requests: 2,
    });
  });

  it('fails a model that calls a tool it was not offered', async () => {
    server.reply(ollamaReply('ready'), ollamaReply('', [{ name: 'rm_rf', args: {} }]));
    const result = await checkModel(new OllamaAdapter('m', { baseUrl: server.url, retry: NO_WAIT }));
    expect(result.line).toBe('FAIL ollama:m: answers, but called "rm_rf", a tool it was not offered');
  });

  it('fails a model that answers with nothing', async () => {
    server.reply(ollamaReply('  '));
    const result = await checkModel(new OllamaAdapter('m', { baseUrl: server.url, retry: NO_WAIT }));
    expect(result).toMatchObject({ ok: false, line: 'FAIL ollama:m: reachable, but answered with nothing', requests: 1 });
  });

  it('names the request whose tool result the provider refused', async () => {
    server.reply(
      openaiReply('ready'),
      openaiReply(null, [{ id: 'call_1', name: ECHO_TOOL.name, args: { text: 'ping' } }]),
      errorReply('openai', 400, "messages with role 'tool' must be a response to a preceding message with 'tool_calls'"),
    );
    const result = await checkModel(new OpenAIAdapter('m', { baseUrl: `${server.url}/v1`, apiKey: 'k', retry: NO_WAIT }));
    expect(result.ok).toBe(false);
    expect(result.line).toBe(
      "FAIL openai:m: request rejected: HTTP 400: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (request 3 of 3, the one carrying the tool result)",
    );
  });

  it('fails on the first request when the provider is down', async () => {
    server.reply(errorReply('ollama', 503, 'loading'), errorReply('ollama', 503, 'loading'));
    const result = await checkModel(new OllamaAdapter('m', { baseUrl: server.url, retry: NO_WAIT }));
    expect(result).toStrictEqual({ ok: false, line: 'FAIL ollama:m: server error after 2 attempts: HTTP 503: loading (request 1 of 3)', requests: 1 });
  });

  it('lets a bug through instead of calling it a verdict', async () => {
    const broken = { spec: 'x:y', provider: 'ollama' as const, model: 'y', complete: async () => Promise.reject(new TypeError('bug')) };
    await expect(checkModel(broken)).rejects.toThrow(TypeError);
  });
});
