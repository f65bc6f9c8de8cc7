// What the loop records per round, and the conversation it keeps across rounds and steps.
import { afterEach, describe, expect, it } from 'vitest';
import { runStep } from '../../src/agent/index.ts';
import type { StepSpec } from '../../src/agent/index.ts';
import type { Lane } from '../../src/lane/index.ts';
import type { ChatMessage, ModelRequest } from '../../src/models/types.ts';
import { callKey } from '../../src/reliability/index.ts';
import { FakeModel, ok, world } from './world.ts';

const lanes: Lane[] = [];
afterEach(async () => {
  await Promise.all(lanes.splice(0).map((lane) => lane.close()));
});

async function setup() {
  const w = await world([
    { name: 'read', handler: (args) => ok(`contents of ${String(args.path)}`) },
    { name: 'write', handler: () => ok('written') },
  ]);
  lanes.push(w.lane);
  return w;
}

const step = (over: Partial<StepSpec> = {}): StepSpec => ({ index: 0, prompt: 'fix the file', ceiling: 10, timeLimitMs: 10_000, ...over });

describe('model events', () => {
  it('records each request and response with the tools offered, sizes, tokens and the calls asked for', async () => {
    const { lane, trace } = await setup();
    const model = new FakeModel((_, n) => (n === 1 ? { calls: [{ name: 'wb__read', args: { path: 'a.txt' } }] } : { text: 'fixed' }));
    const result = await runStep({ model, lane, emit: trace.emit }, [], step({ index: 2 }));

    const requests = trace.ofType('model.request');
    const responses = trace.ofType('model.response');
    expect(requests.map((e) => [e.step, e.round, e.tools, e.messages])).toEqual([[2, 1, 3, 1], [2, 2, 3, 3]]);
    expect(requests[0]).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'scripted' });
    expect(requests[1]!.messageBytes).toBe(Buffer.byteLength(JSON.stringify(model.requests[1]!.messages)));
    expect(responses[0]).toMatchObject({
      step: 2, round: 1, 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 10,
      'gen_ai.response.finish_reasons': ['tool_calls'], ms: 5, attempts: 1, textBytes: 0,
    });
    expect(responses[1]).toMatchObject({ round: 2, 'gen_ai.response.finish_reasons': ['end'], textBytes: 5, toolCalls: [] });
    // The key a response asks for is the key the lane records for the call it made.
    const asked = responses[0]!.toolCalls;
    const made = trace.ofType('tool.call');
    expect(asked).toEqual([{ 'gen_ai.tool.name': 'wb__read', key: made[0]!.key }]);
    expect(result.toolsOfferedPerRound).toEqual([3, 3]);
    expect(result.calls).toEqual([{ tool: 'wb__read', key: callKey('wb__read', { path: 'a.txt' }), args: { path: 'a.txt' }, outcome: 'ok' }]);
    expect(trace.events.map((e) => e.type)).toEqual([
      'message', 'tools.list', 'model.request', 'model.response', 'tool.call', 'message', 'model.request', 'model.response',
    ]);
  });

  it('stamps answeredAt with the clock at the first response that passes the answer check', async () => {
    const { lane, trace } = await setup();
    let now = 1_000;
    const model = new FakeModel((_, n) => {
      now += 10;
      return n < 3 ? { text: n === 2 ? 'the answer is 42' : 'thinking', calls: [{ name: 'wb__read', args: { path: `${n}` } }] } : { text: 'the answer is 42' };
    });
    const result = await runStep({ model, lane, emit: trace.emit, clock: () => now }, [], step({ answerCheck: (text) => text.includes('42') }));
    expect(result.answeredAt).toBe(1_020);
    expect(result.reason).toBe('answered');
  });
});

describe('the conversation', () => {
  it('keeps the provider ids of every tool call across rounds, each result under its own id', async () => {
    const { lane, trace } = await setup();
    const seen: ModelRequest[] = [];
    const model = new FakeModel((request, n) => {
      seen.push(request);
      if (n === 1) return { calls: [{ id: 'toolu_01A', name: 'wb__read', args: { path: 'a' } }, { id: 'toolu_01B', name: 'wb__read', args: { path: 'b' } }] };
      if (n === 2) return { calls: [{ id: 'toolu_02A', name: 'wb__write', args: { path: 'a' } }] };
      return { text: 'done' };
    });
    const conversation: ChatMessage[] = [];
    await runStep({ model, lane, emit: trace.emit }, conversation, step());

    const results = (request: ModelRequest) => request.messages.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m.content]] : []));
    expect(results(seen[1]!)).toEqual([['toolu_01A', 'contents of a'], ['toolu_01B', 'contents of b']]);
    expect(results(seen[2]!)).toEqual([['toolu_01A', 'contents of a'], ['toolu_01B', 'contents of b'], ['toolu_02A', 'written']]);
    expect(conversation.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant']);
  });

  it('shares one conversation across steps, one lane turn each, with the system prompt once', async () => {
    const { lane, trace } = await setup();
    const model = new FakeModel((request) => ({ text: `step with ${request.messages.length} messages` }));
    const conversation: ChatMessage[] = [];
    const ctx = { model, lane, emit: trace.emit, system: 'You fix files.' };
    await runStep(ctx, conversation, step({ index: 0, prompt: 'first' }));
    const second = await runStep(ctx, conversation, step({ index: 1, prompt: 'second' }));

    expect(conversation.map((m) => `${m.role}:${m.content}`)).toEqual([
      'system:You fix files.', 'user:first', 'assistant:step with 2 messages', 'user:second', 'assistant:step with 4 messages',
    ]);
    expect(second.answer).toBe('step with 4 messages');
    expect(trace.ofType('tools.list').map((e) => e.turn)).toEqual([1, 2]);
  });

  it('does not send a call whose arguments were not a JSON object, and says so', async () => {
    const { lane, server, trace } = await setup();
    const model = new FakeModel((_, n) => (n === 1 ? { calls: [{ name: 'wb__write' }] } : { text: 'gave up' }));
    const complete = model.complete.bind(model);
    model.complete = async (request) => {
      const response = await complete(request);
      return { ...response, toolCalls: response.toolCalls.map((c) => ({ ...c, rawArgs: '{"path": "a' })) };
    };
    const conversation: ChatMessage[] = [];
    const result = await runStep({ model, lane, emit: trace.emit }, conversation, step());

    expect(server.received).toEqual([]);
    expect(result.calls).toEqual([expect.objectContaining({ tool: 'wb__write', outcome: 'invalid_arguments' })]);
    expect(conversation[2]).toMatchObject({ role: 'tool', isError: true });
    expect((conversation[2] as { content: string }).content).toContain('not a JSON object');
  });

  it('does not send a call the adapter marked invalid, and answers with the adapter\'s reason', async () => {
    const { lane, server, trace } = await setup();
    const model = new FakeModel((_, n) => (n === 1 ? { calls: [{ name: 'wb__write' }] } : { text: 'gave up' }));
    const complete = model.complete.bind(model);
    model.complete = async (request) => {
      const response = await complete(request);
      return { ...response, toolCalls: response.toolCalls.map((c) => ({ ...c, invalid: 'Cut off by the token limit; not made.' })) };
    };
    const conversation: ChatMessage[] = [];
    const result = await runStep({ model, lane, emit: trace.emit }, conversation, step());

    expect(server.received).toEqual([]);
    expect(result.calls).toEqual([expect.objectContaining({ tool: 'wb__write', outcome: 'invalid_arguments' })]);
    expect(conversation[2]).toMatchObject({ role: 'tool', isError: true, content: 'Cut off by the token limit; not made.' });
  });
});
