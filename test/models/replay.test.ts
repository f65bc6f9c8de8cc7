// The replay model: answers each request with the recorded response of the same step and round,
// after checking the request against the recorded one's hash; anything else diverges, named.
import { describe, expect, it } from 'vitest';
import { firstDifference, isReplayDivergence, REPLAY_DIVERGED, ReplayModel, stepAndRound } from '../../src/models/replay.ts';
import type { RecordedExchange } from '../../src/models/replay.ts';
import { ProviderError } from '../../src/models/retry.ts';
import type { ChatMessage, ModelRequest } from '../../src/models/types.ts';
import type { ModelResponse as ResponseEvent, RebuiltRequest } from '../../src/trace/index.ts';
import { requestHash, Scrubber } from '../../src/trace/index.ts';

const user = (content: string): ChatMessage => ({ role: 'user', content }) as ChatMessage;
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content, toolCalls: [] }) as unknown as ChatMessage;
const tool = (content: string, toolName = 'wb__now'): ChatMessage => ({ role: 'tool', toolCallId: 'c1', toolName, content, isError: false }) as unknown as ChatMessage;

function recorded(request: ModelRequest, over: Partial<RebuiltRequest> = {}): RebuiltRequest {
  return {
    step: 0, round: 1, t: 0, messages: request.messages as RebuiltRequest['messages'], tools: request.tools as unknown as RebuiltRequest['tools'],
    ...(request.options === undefined ? {} : { options: request.options as Record<string, unknown> }), hash: requestHash(request), complete: true, ...over,
  };
}

function response(over: Partial<ResponseEvent> = {}): ResponseEvent {
  return {
    v: 2, type: 'model.response', t: 1, step: 0, round: 1, 'gen_ai.usage.input_tokens': 12, 'gen_ai.usage.output_tokens': 3,
    'gen_ai.response.finish_reasons': ['tool_calls'], ms: 5, attempts: 2, textBytes: 2, toolCalls: [],
    message: { role: 'assistant', content: 'hi', toolCalls: [{ id: 'c1', name: 'wb__now', args: {} }] }, ...over,
  } as ResponseEvent;
}

function model(exchanges: [string, RecordedExchange][], over: { missing?: string; scrubber?: Scrubber } = {}) {
  return new ReplayModel({ spec: 'openai:m', provider: 'openai', model: 'm', exchanges: new Map(exchanges), source: 'results/x: r on pass 2', ...over });
}

const REQUEST: ModelRequest = { messages: [user('add 2 and 3')], tools: [], options: { temperature: 0 } };

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('isReplayDivergence', () => {
  it('is a line that opens as a replay and says where it diverged, and no other', () => {
    expect(isReplayDivergence('replay of results/x: r on pass 0 diverged at step 0 round 2: message 3 (tool) differs')).toBe(true);
    // One half of the words is not enough: a replay's other lines, and another party's divergence.
    expect(isReplayDivergence('replay of results/x: r on pass 0 stopped')).toBe(false);
    expect(isReplayDivergence('the model diverged at step 0 round 2')).toBe(false);
  });
});

describe('stepAndRound', () => {
  it('numbers the first request of the first step 0/1', () => {
    expect(stepAndRound([user('a')])).toStrictEqual({ step: 0, round: 1 });
  });

  it('counts the rounds after the last prompt, and the steps by the prompts', () => {
    expect(stepAndRound([user('a'), assistant('x'), tool('1')])).toStrictEqual({ step: 0, round: 2 });
    expect(stepAndRound([user('a'), assistant('x'), user('b'), assistant('y'), tool('1'), assistant('z'), tool('2')])).toStrictEqual({ step: 1, round: 3 });
  });

  it('counts a round by the model\'s turns, not by the tool results that answered them', () => {
    expect(stepAndRound([user('a'), assistant('x'), tool('1'), tool('2')])).toStrictEqual({ step: 0, round: 2 });
  });

  it('reads a request with no prompt as step 0', () => {
    expect(stepAndRound([])).toStrictEqual({ step: 0, round: 1 });
  });
});

describe('firstDifference', () => {
  it('names a message the request now has and the recording did not', () => {
    const now = { ...REQUEST, messages: [user('add 2 and 3'), tool('5')] };
    expect(firstDifference(recorded(REQUEST), now)).toBe('message 2 (tool wb__now) is new: the recorded request had 1 messages');
  });

  it('names a recorded message the request no longer has', () => {
    const was = { ...REQUEST, messages: [user('add 2 and 3'), assistant('ok')] };
    expect(firstDifference(recorded(was), REQUEST)).toBe('message 2 (assistant) is missing: the request now has 1 messages');
  });

  it('quotes both texts around the first character that differs', () => {
    expect(firstDifference(recorded(REQUEST), { ...REQUEST, messages: [user('add 2 and 4')] }))
      .toBe('message 1 (user) differs: recorded "add 2 and 3", now "add 2 and 4"');
  });

  it('cuts a long text to thirty characters either side of the difference', () => {
    const was = `${'a'.repeat(40)}X${'b'.repeat(40)}`;
    const is = `${'a'.repeat(40)}Y${'b'.repeat(40)}`;
    expect(firstDifference(recorded({ ...REQUEST, messages: [user(was)] }), { ...REQUEST, messages: [user(is)] }))
      .toBe(`message 1 (user) differs: recorded "...${'a'.repeat(30)}X${'b'.repeat(29)}...", now "...${'a'.repeat(30)}Y${'b'.repeat(29)}..."`);
  });

  it('quotes from the start, with no ellipsis, a difference within thirty characters of it', () => {
    const was = `${'a'.repeat(30)}X`;
    expect(firstDifference(recorded({ ...REQUEST, messages: [user(was)] }), { ...REQUEST, messages: [user(`${'a'.repeat(30)}Y`)] }))
      .toBe(`message 1 (user) differs: recorded "${was}", now "${'a'.repeat(30)}Y"`);
    const short = `${'a'.repeat(29)}X`;
    expect(firstDifference(recorded({ ...REQUEST, messages: [user(short)] }), { ...REQUEST, messages: [user(`${'a'.repeat(29)}Y`)] }))
      .toBe(`message 1 (user) differs: recorded "${short}", now "${'a'.repeat(29)}Y"`);
  });

  it('quotes a text that ends where the other goes on', () => {
    expect(firstDifference(recorded(REQUEST), { ...REQUEST, messages: [user('add 2 and 3 and 4')] }))
      .toBe('message 1 (user) differs: recorded "add 2 and 3", now "add 2 and 3 and 4"');
  });

  it('quotes the whole message when more than its text differs', () => {
    const was = { ...REQUEST, messages: [tool('5', 'wb__a')] };
    expect(firstDifference(recorded(was), { ...REQUEST, messages: [tool('5', 'wb__b')] }))
      .toMatch(/^message 1 \(tool wb__b\) differs: recorded ".*wb__a.*", now ".*wb__b.*"$/);
  });

  it('quotes the whole message when a content is not text', () => {
    const was = { ...REQUEST, messages: [{ role: 'user', content: ['a'] } as unknown as ChatMessage] };
    expect(firstDifference(recorded(was), { ...REQUEST, messages: [{ role: 'user', content: ['b'] } as unknown as ChatMessage] }))
      .toBe('message 1 (user) differs: recorded "{\\"content\\":[\\"a\\"],\\"role\\":\\"user\\"}", now "{\\"content\\":[\\"b\\"],\\"role\\":\\"user\\"}"');
  });

  it('quotes the whole message when only one side\'s content is text', () => {
    const list = { ...REQUEST, messages: [{ role: 'user', content: ['a'] } as unknown as ChatMessage] };
    const text = { ...REQUEST, messages: [user('a')] };
    expect(firstDifference(recorded(list), text)).toBe('message 1 (user) differs: recorded "{\\"content\\":[\\"a\\"],\\"role\\":\\"user\\"}", now "{\\"content\\":\\"a\\",\\"role\\":\\"user\\"}"');
    expect(firstDifference(recorded(text), list)).toBe('message 1 (user) differs: recorded "{\\"content\\":\\"a\\",\\"role\\":\\"user\\"}", now "{\\"content\\":[\\"a\\"],\\"role\\":\\"user\\"}"');
  });

  it('compares a tool result that is not text as it is', () => {
    const was = { ...REQUEST, messages: [{ role: 'tool', toolCallId: 'c1', toolName: 'wb__now', content: [1] } as unknown as ChatMessage] };
    const is = { ...REQUEST, messages: [{ role: 'tool', toolCallId: 'c1', toolName: 'wb__now', content: [2] } as unknown as ChatMessage] };
    expect(firstDifference(recorded(was), is)).toMatch(/^message 1 \(tool wb__now\) differs: recorded ".*\[1\].*", now ".*\[2\].*"$/);
  });

  it('adds no ellipsis to a text that ends exactly thirty characters after the difference', () => {
    const was = `X${'b'.repeat(29)}`;
    expect(firstDifference(recorded({ ...REQUEST, messages: [user(was)] }), { ...REQUEST, messages: [user(`Y${'b'.repeat(29)}`)] }))
      .toBe(`message 1 (user) differs: recorded "${was}", now "Y${'b'.repeat(29)}"`);
    const longer = `X${'b'.repeat(30)}`;
    expect(firstDifference(recorded({ ...REQUEST, messages: [user(longer)] }), { ...REQUEST, messages: [user(`Y${'b'.repeat(30)}`)] }))
      .toBe(`message 1 (user) differs: recorded "X${'b'.repeat(29)}...", now "Y${'b'.repeat(29)}..."`);
  });

  it('names a message with no role by a question mark', () => {
    const was = { ...REQUEST, messages: [{ content: 'a' } as unknown as ChatMessage] };
    expect(firstDifference(recorded(was), { ...REQUEST, messages: [{ content: 'b' } as unknown as ChatMessage] })).toBe('message 1 (?) differs: recorded "a", now "b"');
  });

  it('reads the numbers of a tool result as the same, and of a prompt as different', () => {
    const was = { ...REQUEST, messages: [user('add 2 and 3'), tool('at 10:01'), user('x')] };
    const is = { ...REQUEST, messages: [user('add 2 and 3'), tool('at 11:07'), user('y')] };
    expect(firstDifference(recorded(was), is)).toBe('message 3 (user) differs: recorded "x", now "y"');
  });

  it('scrubs both sides as the trace does before comparing', () => {
    const scrubber = new Scrubber({ workspace: '/tmp/run-2/ws' });
    const was = { ...REQUEST, messages: [user('wrote {workspace}/a'), user('p')] };
    const is = { ...REQUEST, messages: [user('wrote /tmp/run-2/ws/a'), user('q')] };
    expect(firstDifference(recorded(was), is, scrubber)).toBe('message 2 (user) differs: recorded "p", now "q"');
    const tools = { ...REQUEST, tools: [{ name: 'wb__a', description: 'in {workspace}', inputSchema: {} }] } as ModelRequest;
    const toolsNow = { ...REQUEST, tools: [{ name: 'wb__a', description: 'in /tmp/run-2/ws', inputSchema: {} }] } as ModelRequest;
    expect(firstDifference(recorded(tools), toolsNow, scrubber)).toMatch(/^the sampling options differ/);
    expect(firstDifference(recorded(tools), toolsNow)).toMatch(/^the tools offered differ: recorded ".*\{workspace\}.*", now ".*\/tmp\/run-2\/ws.*"$/);
  });

  it('names the tools offered when the messages are the same', () => {
    const now = { ...REQUEST, tools: [{ name: 'wb__b', description: '', inputSchema: {} }] } as ModelRequest;
    expect(firstDifference(recorded(REQUEST), now)).toBe('the tools offered differ: recorded "[]", now "[{\\"description\\":\\"\\",\\"inputSchema..."');
  });

  it('names the sampling options when nothing else differs, an absent one as {}', () => {
    expect(firstDifference(recorded(REQUEST), { ...REQUEST, options: { temperature: 1 } }))
      .toBe('the sampling options differ: recorded {"temperature":0}, now {"temperature":1}');
    const bare = { messages: REQUEST.messages, tools: [] };
    expect(firstDifference(recorded(bare), REQUEST)).toBe('the sampling options differ: recorded {}, now {"temperature":0}');
    expect(firstDifference(recorded(REQUEST), bare)).toBe('the sampling options differ: recorded {"temperature":0}, now {}');
  });

  it('says only that the hash differs when the recording holds no content', () => {
    expect(firstDifference(recorded(REQUEST, { complete: false }), { ...REQUEST, messages: [user('other')] }))
      .toBe('the request hash differs (the recording holds no content to show which message)');
  });
});

describe('ReplayModel', () => {
  it('answers as the recorded model, with the recorded turn, counts and attempts', async () => {
    const replay = model([['0/1', { request: recorded(REQUEST), response: response() }]]);
    expect([replay.spec, replay.provider, replay.model]).toStrictEqual(['openai:m', 'openai', 'm']);
    const answer = await replay.complete(REQUEST);
    expect(answer).toMatchObject({
      text: 'hi', toolCalls: [{ id: 'c1', name: 'wb__now', args: {} }], usage: { inputTokens: 12, outputTokens: 3 }, attempts: 2, retryWaitMs: 0,
      stopReason: 'tool_calls', providerStopReason: null, ignoredOptions: [], details: { provider: 'replay', source: 'results/x: r on pass 2' },
    });
    expect(answer.usage).toStrictEqual({ inputTokens: 12, outputTokens: 3 });
    expect(answer).not.toHaveProperty('thinking');
    expect(answer).not.toHaveProperty('refusal');
    expect(answer).not.toHaveProperty('adaptations');
    expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
    expect(answer.latencyMs).toBeLessThan(1_000);
  });

  it('gives back the cache counts, thinking, refusal and adaptations the recorded turn had', async () => {
    const event = response({
      'gen_ai.usage.cache_read.input_tokens': 4, 'gen_ai.usage.cache_creation.input_tokens': 2,
      message: { role: 'assistant', content: '', thinking: [{ type: 'thinking', thinking: 't', signature: 's' }], refusal: 'no' } as ResponseEvent['message'],
      adaptations: [{ kind: 'name', tool: 'a.b', sent: 'a_b' }] as ResponseEvent['adaptations'],
    });
    const answer = await model([['0/1', { request: recorded(REQUEST), response: event }]]).complete(REQUEST);
    expect(answer.usage).toStrictEqual({ inputTokens: 12, outputTokens: 3, cacheReadTokens: 4, cacheWriteTokens: 2 });
    expect(answer.toolCalls).toStrictEqual([]);
    expect(answer).toMatchObject({ thinking: [{ type: 'thinking', thinking: 't', signature: 's' }], refusal: 'no', adaptations: [{ kind: 'name', tool: 'a.b', sent: 'a_b' }] });
  });

  it.each([['end', 'end'], ['max_tokens', 'max_tokens'], ['refusal', 'refusal'], ['other', 'other'], ['length', 'other']])('reads a recorded finish %s as %s', async (finish, stop) => {
    const answer = await model([['0/1', { request: recorded(REQUEST), response: response({ 'gen_ai.response.finish_reasons': [finish] }) }]]).complete(REQUEST);
    expect(answer.stopReason).toBe(stop);
  });

  it('reads a response with no finish reason as other', async () => {
    const answer = await model([['0/1', { request: recorded(REQUEST), response: response({ 'gen_ai.response.finish_reasons': [] }) }]]).complete(REQUEST);
    expect(answer.stopReason).toBe('other');
  });

  it('finds the exchange by step and round', async () => {
    const later = { messages: [user('a'), assistant('x'), user('b'), assistant('y'), tool('1')], tools: [] };
    const replay = model([
      ['0/1', { request: recorded(REQUEST), response: response() }],
      ['1/2', { request: recorded(later), response: response({ message: { role: 'assistant', content: 'second', toolCalls: [] } } as Partial<ResponseEvent>) }],
    ]);
    expect((await replay.complete(later)).text).toBe('second');
  });

  it('diverges, once, on a request the recording does not have', async () => {
    const error = await failure(model([]).complete(REQUEST));
    expect(error.message).toBe('replay of results/x: r on pass 2 diverged at step 0 round 1: the recorded pass made no such request');
    expect([error.kind, error.status, error.attempts]).toStrictEqual([REPLAY_DIVERGED, undefined, 1]);
    expect(REPLAY_DIVERGED).toBe('replay_diverged');
  });

  it('says why the recording has nothing for the pass, when it knows', async () => {
    const error = await failure(model([], { missing: 'the recorded run has no pass r on #2' }).complete(REQUEST));
    expect(error.message).toBe('replay of results/x: r on pass 2 diverged at step 0 round 1: the recorded run has no pass r on #2');
  });

  it('diverges at the first difference when the request does not hash as recorded', async () => {
    const error = await failure(model([['0/1', { request: recorded(REQUEST), response: response() }]]).complete({ ...REQUEST, messages: [user('add 2 and 4')] }));
    expect(error.message).toBe('replay of results/x: r on pass 2 diverged at step 0 round 1: message 1 (user) differs: recorded "add 2 and 3", now "add 2 and 4"');
    expect([error.kind, error.attempts]).toStrictEqual([REPLAY_DIVERGED, 1]);
  });

  it('hashes the request with the pass\'s scrubber, as the recording was hashed', async () => {
    const scrubber = new Scrubber({ workspace: '/tmp/run-9/ws' });
    const was = { messages: [user('in {workspace}')], tools: [] };
    const replay = model([['0/1', { request: recorded(was), response: response() }]], { scrubber });
    expect((await replay.complete({ messages: [user('in /tmp/run-9/ws')], tools: [] })).text).toBe('hi');
  });

  it('names the first difference after scrubbing, not the folder the pass runs in', async () => {
    // The hash and the message that explains it must see the request alike: unscrubbed, the
    // workspace path in the first message would be named as the difference.
    const scrubber = new Scrubber({ workspace: '/tmp/run-9/ws' });
    const was = { messages: [user('in {workspace}'), user('add 2 and 3')], tools: [] };
    const replay = model([['1/1', { request: recorded(was), response: response() }]], { scrubber });
    const error = await failure(replay.complete({ messages: [user('in /tmp/run-9/ws'), user('add 2 and 4')], tools: [] }));
    expect(error.message).toBe('replay of results/x: r on pass 2 diverged at step 1 round 1: message 2 (user) differs: recorded "add 2 and 3", now "add 2 and 4"');
  });

  it('fails as the recorded provider failed, with its step\'s line and attempts', async () => {
    const failed = response({ 'error.type': 'rate_limit', attempts: 4, message: undefined });
    const error = await failure(model([['0/1', { request: recorded(REQUEST), response: failed, stepError: 'm: rate limited after 4 attempts' }]]).complete(REQUEST));
    expect([error.message, error.kind, error.status, error.attempts]).toStrictEqual(['m: rate limited after 4 attempts', 'rate_limit', undefined, 4]);
    const bare = await failure(model([['0/1', { request: recorded(REQUEST), response: failed }]]).complete(REQUEST));
    expect(bare.message).toBe('the recorded provider failed here (rate_limit)');
  });

  it('fails at once as recorded, with a step limit it could wait for, when the provider failed', async () => {
    const failed = response({ 'error.type': 'rate_limit', message: undefined });
    const error = await failure(model([['0/1', { request: recorded(REQUEST), response: failed }]]).complete(REQUEST, new AbortController().signal));
    expect(error.kind).toBe('rate_limit');
  });

  it.each(['time_limit', 'interrupted'])('waits, as the recorded %s did, until its own step stops it', async (why) => {
    const stalled = response({ 'error.type': why, message: undefined });
    const controller = new AbortController();
    const pending = model([['0/1', { request: recorded(REQUEST), response: stalled }]]).complete(REQUEST, controller.signal);
    let settled = false;
    void pending.then(() => (settled = true), () => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    controller.abort(new Error('stopped'));
    await expect(pending).rejects.toThrow('stopped');
  });

  it('fails at once as recorded when a request cut off by its step has no step limit to wait for', async () => {
    const stalled = response({ 'error.type': 'time_limit', message: undefined });
    const error = await failure(model([['0/1', { request: recorded(REQUEST), response: stalled }]]).complete(REQUEST));
    expect([error.kind, error.message]).toStrictEqual(['time_limit', 'the recorded provider failed here (time_limit)']);
  });

  it('answers nothing once its step has stopped', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already'));
    await expect(model([['0/1', { request: recorded(REQUEST), response: response() }]]).complete(REQUEST, controller.signal)).rejects.toThrow('already');
  });
});

describe('replaying an external agent (request.at)', () => {
  // The agent's own preamble differs every pass; only the prompt, the tool results and the gateway's tools are checked.
  const recordedRequest: ModelRequest = { messages: [user('<env>cwd=/tmp/a</env>'), user('add 2 and 3'), assistant(''), tool('5')], tools: [{ name: 'wb__now', description: '', inputSchema: {} }] };
  const at = { step: 1, round: 2, gatewayTools: ['wb__now'], prompt: 'add 2 and 3' };

  it('answers by step and round from `at`, ignoring what the agent varies', async () => {
    const m = model([['1/2', { request: recorded(recordedRequest), response: response() }]]);
    const now: ModelRequest = { messages: [user('<env>cwd=/tmp/b, a date</env>'), user('add 2 and 3'), assistant(''), tool('5')], tools: [], at };
    expect((await m.complete(now)).text).toBe('hi');
  });

  it('compares the tool results the agent sends scrubbed with the pass\'s scrubber, as recorded', async () => {
    const scrubber = new Scrubber({ workspace: '/tmp/run-9/ws' });
    const was: ModelRequest = { ...recordedRequest, messages: [user('add 2 and 3'), assistant(''), tool('wrote {workspace}/out.txt')] };
    const m = model([['1/2', { request: recorded(was), response: response() }]], { scrubber });
    const now: ModelRequest = { messages: [user('add 2 and 3'), assistant(''), tool('wrote /tmp/run-9/ws/out.txt')], tools: [], at };
    expect((await m.complete(now)).text).toBe('hi');
  });

  it('diverges, naming what differs, when a tool result the agent sends differs', async () => {
    const m = model([['1/2', { request: recorded(recordedRequest), response: response() }]]);
    const error = await failure(m.complete({ messages: [user('add 2 and 3'), assistant(''), tool('six')], tools: [], at }));
    expect(error.kind).toBe(REPLAY_DIVERGED);
    expect(error.message).toBe('replay of results/x: r on pass 2 diverged at step 1 round 2: tool result 1 differs: recorded "0", now "six"');
  });
});
