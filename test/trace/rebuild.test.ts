// A trace rebuilds, exactly, every request the model was sent. Each provider's real client
// talks to the strict local server for that provider; the agent loop runs two steps through a
// real lane (a failed call, a call the breaker refuses, a good one); then each request is
// rebuilt from the trace alone, turned into its wire body by the adapter's own builder, and
// compared byte for byte with what the server received.
import { afterEach, describe, expect, it } from 'vitest';
import { runStep } from '../../src/agent/index.ts';
import type { StepSpec } from '../../src/agent/index.ts';
import {
  AnthropicAdapter, buildAnthropicRequest, buildOllamaRequest, buildOpenAIRequest, OllamaAdapter, OpenAIAdapter,
} from '../../src/models/index.ts';
import type { ChatMessage, ModelAdapter, ModelRequest } from '../../src/models/index.ts';
import { rebuildRequests } from '../../src/trace/index.ts';
import type { RebuiltRequest } from '../../src/trace/index.ts';
import { fail, ok, world } from '../agent/world.ts';
import { anthropicReply, FakeProvider, ollamaReply, openaiReply } from '../models/fakeServer.ts';
import type { Reply } from '../models/fakeServer.ts';
import { thinkingBlock } from '../models/strict/anthropic.ts';

type Call = { id: string; name: string; args: Record<string, unknown> };
type Script = (text: string, calls?: Call[]) => Reply;

interface Provider {
  name: string;
  path: string;
  reply: Script;
  adapter: (url: string) => ModelAdapter & { settings?: unknown };
  body: (adapter: ModelAdapter & { settings?: unknown }, request: ModelRequest) => unknown;
}

const PROVIDERS: Provider[] = [
  {
    name: 'OpenAI-compatible', path: '/v1/chat/completions',
    reply: (text, calls = []) => openaiReply(text === '' ? null : text, calls),
    adapter: (url) => new OpenAIAdapter('m', { baseUrl: `${url}/v1`, apiKey: 'k', env: {}, retry: { maxAttempts: 1 } }),
    body: (a, r) => buildOpenAIRequest('m', r, (a as OpenAIAdapter).settings).body,
  },
  {
    name: 'Ollama', path: '/api/chat',
    reply: (text, calls = []) => ollamaReply(text, calls),
    adapter: (url) => new OllamaAdapter('m', { baseUrl: url, env: {}, retry: { maxAttempts: 1 } }),
    body: (a, r) => buildOllamaRequest('m', r, (a as OllamaAdapter).settings).body,
  },
  {
    name: 'Anthropic', path: '/v1/messages',
    reply: (text, calls = []) => anthropicReply(text, calls),
    adapter: (url) => new AnthropicAdapter('claude-test', { baseUrl: url, apiKey: 'sk-ant-test', env: {}, retry: { maxAttempts: 1 } }),
    body: (a, r) => buildAnthropicRequest('claude-test', r, (a as AnthropicAdapter).settings).body,
  },
  {
    // Signed thinking blocks must go back exactly as they came, or the server refuses the turn.
    name: 'Anthropic with thinking', path: '/v1/messages',
    reply: (text, calls = []) => anthropicReply(text, calls, {}, [thinkingBlock(`Considering ${calls.map((c) => c.name).join(', ') || 'the answer'}.`)]),
    adapter: (url) => new AnthropicAdapter('claude-test', { baseUrl: url, apiKey: 'sk-ant-test', env: {}, thinking: 'on', retry: { maxAttempts: 1 } }),
    body: (a, r) => buildAnthropicRequest('claude-test', r, (a as AnthropicAdapter).settings).body,
  },
];

const step = (index: number, prompt: string): StepSpec => ({ index, prompt, ceiling: 6, timeLimitMs: 30_000 });

/** The request as the adapter received it: the neutral form the trace rebuilds. */
const asRequest = (r: RebuiltRequest): ModelRequest => ({
  messages: r.messages as ChatMessage[],
  tools: r.tools,
  ...(r.options === undefined ? {} : { options: r.options }),
});

let server: FakeProvider | undefined;
afterEach(async () => server?.close());

describe.each(PROVIDERS)('$name: requests rebuilt from the trace', (provider) => {
  it('are byte for byte what the server received, round by round, across steps', async () => {
    server = await FakeProvider.start();
    const { lane, trace } = await world([
      { name: 'broken', handler: () => fail('the browser process is gone') },
      { name: 'read', handler: (args) => ok(`contents of ${String(args['path'])}: 42 lines, "quoted", ünïcode`) },
    ]);
    server.reply(
      provider.reply('', [{ id: 'toolu_1', name: 'wb__broken', args: { url: 'http://x' } }]),
      provider.reply('', [{ id: 'toolu_2', name: 'wb__broken', args: { url: 'http://x' } }]),
      provider.reply('Reading the notes instead.', [{ id: 'toolu_3', name: 'wb__read', args: { path: 'notes.md' } }]),
      provider.reply('The notes have 42 lines.'),
      provider.reply('', [{ id: 'toolu_4', name: 'wb__read', args: { path: 'b.md', n: [1, 2.5, null] } }]),
      provider.reply('Done.'),
    );
    const model = provider.adapter(server.url);
    const ctx = { model, lane, emit: trace.emit, system: 'You are careful.', sampling: { maxTokens: 512 } };
    const conversation: ChatMessage[] = [];
    expect((await runStep(ctx, conversation, step(0, 'How many lines do the notes have?'))).reason).toBe('answered');
    expect((await runStep(ctx, conversation, step(1, 'And b.md?'))).reason).toBe('answered');
    await lane.close();

    const received = server.seen.filter((s) => s.path === provider.path);
    expect(received.map((s) => s.refused)).toEqual(received.map(() => undefined));
    const rebuilt = rebuildRequests(trace.events);
    expect(rebuilt.map((r) => [r.step, r.round])).toEqual([[0, 1], [0, 2], [0, 3], [0, 4], [1, 1], [1, 2]]);
    expect(rebuilt.every((r) => r.complete)).toBe(true);
    // The refused call's text went to the model, and is in the rebuilt conversation.
    expect(JSON.stringify(rebuilt[2]!.messages)).toContain('Not sent again: the identical call failed at round 1');
    expect(rebuilt.map((r) => JSON.stringify(provider.body(model, asRequest(r))))).toEqual(received.map((s) => s.raw));
  });
});
