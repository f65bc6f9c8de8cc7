import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkModel, DOCTOR_SEED, ECHO_TOOL } from '../../src/models/doctor.ts';
import { AnthropicAdapter, OllamaAdapter, OpenAIAdapter } from '../../src/models/index.ts';
import { FUNCTION_NAME_RULE, wireName } from '../../src/models/names.ts';
import { anthropicReply, errorReply, FakeProvider, ollamaReply, openaiReply } from './fakeServer.ts';
import { ANTHROPIC_RULES } from './strict/anthropic.ts';
import { OPENAI_RULES } from './strict/openai.ts';
import { DEFAULT_SERVER_MODEL, firstBroken } from './strict/rules.ts';

const NO_WAIT = { sleep: async () => {}, maxAttempts: 2 };

/** The name the doctor's tool goes out under to OpenAI and Anthropic. */
const SENT = wireName(ECHO_TOOL.name, FUNCTION_NAME_RULE);

describe("the doctor's tool", () => {
  it('is of the kinds the real services refuse as listed: a name over 64 characters, a top-level union', () => {
    expect(ECHO_TOOL.name.length).toBeGreaterThan(64);
    const raw = { type: 'function', function: { name: ECHO_TOOL.name, description: ECHO_TOOL.description, parameters: ECHO_TOOL.inputSchema } };
    const asListed = { model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [raw] };
    expect(firstBroken(OPENAI_RULES, asListed, DEFAULT_SERVER_MODEL)?.rule.id).toBe('function-name-length');
    const short = { ...raw, function: { ...raw.function, name: 'echo' } };
    expect(firstBroken(OPENAI_RULES, { ...asListed, tools: [short] }, DEFAULT_SERVER_MODEL)?.rule.id).toBe('parameters-top-level-keywords');
    const anthropic = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], tools: [{ name: 'echo', input_schema: ECHO_TOOL.inputSchema }] };
    expect(firstBroken(ANTHROPIC_RULES, anthropic, DEFAULT_SERVER_MODEL)?.rule.id).toBe('input-schema-top-level-union');
  });
});

describe('checkModel', () => {
  let server: FakeProvider;
  beforeEach(async () => {
    server = await FakeProvider.start();
  });
  afterEach(async () => server.close());

  it('passes a model that answers, calls the hard tool through a strict OpenAI server and accepts its result', async () => {
    server.reply(
      openaiReply('ready'),
      openaiReply(null, [{ id: 'call_9', name: SENT, args: { text: 'ping' } }]),
      openaiReply('ping'),
    );
    const model = new OpenAIAdapter('m', { baseUrl: `${server.url}/v1`, apiKey: 'k', retry: NO_WAIT });
    const result = await checkModel(model);
    expect(server.seen.map((s) => s.refused)).toStrictEqual([undefined, undefined, undefined]);
    expect(result.ok).toBe(true);
    expect(result.requests).toBe(3);
    expect(result.line).toMatch(
      /^OK openai:m: answers, calls a tool \(its 78-character name shortened, its union schema flattened\) and accepts its result \(3 requests, \d+\.\d s, 90 tokens in, 27 out\)$/,
    );
    expect(server.seen[1]!.body.tools).toStrictEqual([{
      type: 'function',
      function: {
        name: SENT,
        description: ECHO_TOOL.description,
        parameters: {
          type: 'object',
          properties: {
            text: { type: 'string', description: 'The text to return' },
            message: { type: 'string', description: 'The text to return, under its older name' },
          },
        },
      },
    }]);
    expect(server.seen[2]!.body.messages.slice(-2)).toStrictEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: SENT, arguments: '{"text":"ping"}' } }] },
      { role: 'tool', tool_call_id: 'call_9', content: 'ping' },
    ]);
    // every request carries the seed a run's request carries, where the server takes it
    expect(server.seen.map((s) => s.body.seed)).toStrictEqual([DOCTOR_SEED, DOCTOR_SEED, DOCTOR_SEED]);
  });

  it('passes the same round trip through a strict Anthropic server', async () => {
    server.reply(
      anthropicReply('ready'),
      anthropicReply('', [{ id: 'toolu_9', name: SENT, args: { message: 'ping' } }]),
      anthropicReply('ping'),
    );
    const result = await checkModel(new AnthropicAdapter('m', { baseUrl: server.url, apiKey: 'k', retry: NO_WAIT }));
    expect(server.seen.map((s) => s.refused)).toStrictEqual([undefined, undefined, undefined]);
    expect(result.line).toMatch(/^OK anthropic:m: answers, calls a tool \(its 78-character name shortened, its union schema flattened\) and accepts/);
    expect(server.seen[2]!.body.messages.at(-1)).toStrictEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'ping' }] });
  });

  it('passes the same round trip through Ollama, which takes the long name but would drop the union', async () => {
    server.reply(ollamaReply('ready'), ollamaReply('', [{ name: ECHO_TOOL.name, args: { text: 'ping' } }]), ollamaReply('ping'));
    const result = await checkModel(new OllamaAdapter('m', { baseUrl: server.url, retry: NO_WAIT }));
    expect(result.line).toMatch(/^OK ollama:m: answers, calls a tool \(its union schema flattened\) and accepts/);
    expect(server.seen[1]!.body.tools[0].function.name).toBe(ECHO_TOOL.name);
    // nothing Ollama would have dropped without a word
    expect(server.seen.flatMap((s) => s.notes)).toStrictEqual([]);
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
      openaiReply(null, [{ id: 'call_1', name: SENT, args: { text: 'ping' } }]),
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
