// One pass as OpenTelemetry spans (src/otlp/spans.ts), at its boundary: a pass's events
// written by hand, every span's name, kind, parent, times, attributes and status checked by
// value. No run, no collector: sending them is test/export/export.test.ts.
import { describe, expect, it } from 'vitest';
import { spanIdOf, traceIdOf } from '../../src/otlp/ids.ts';
import type { Span } from '../../src/otlp/encode.ts';
import type { ExportPass } from '../../src/otlp/spans.ts';
import { AGENT_NAME, hasWallClock, passSpans } from '../../src/otlp/spans.ts';
import type { PassStart, TraceEvent } from '../../src/trace/index.ts';

const TIME = '2026-12-01T10:00:00.000Z';
const EPOCH_NS = BigInt(Date.parse(TIME)) * 1_000_000n;
/** pass.start's own `t`: every span is placed relative to it. */
const T0 = 0.5;
/** When `t` (ms since the pass started) falls, in ns since the epoch. */
const at = (t: number): bigint => EPOCH_NS + BigInt(Math.round((t - T0) * 1_000_000));

const START = { v: 2, type: 'pass.start', t: T0, rung: 'r', arm: 'breaker=on,cap=on,roster=on,repeats=on', pass: 1, seed: 42, time: TIME, content: 'full' };
const TRACE_ID = traceIdOf({ runId: 'run-1', rung: 'r', arm: 'on', pass: 1 });
const id = (path: string): Uint8Array => spanIdOf(TRACE_ID, path);

const stepStart = (t: number, step: number) => ({ v: 2, type: 'step.start', t, step, ceiling: 5, timeLimitMs: 30_000 });
const message = (t: number, step: number, m: object) => ({ v: 2, type: 'message', t, step, message: m });
const roster = (t: number, turn: number, over: object = {}) => ({
  v: 2, type: 'tools.list', t, 'mcp.method.name': 'tools/list', turn, configured: 2, reached: 1, listed: 1, registered: 2,
  unavailable: 0, cached: 1, tools: 3, failed: [], ms: 2, ...over,
});
const request = (t: number, step: number, round: number, over: object = {}) => ({
  v: 2, type: 'model.request', t, step, round, 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': 'gpt-x', tools: 1, messages: 1, messageBytes: 7, ...over,
});
const response = (t: number, step: number, round: number, over: object = {}) => ({
  v: 2, type: 'model.response', t, step, round, 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 10,
  'gen_ai.response.finish_reasons': ['end'], ms: 2, attempts: 1, textBytes: 5, toolCalls: [], ...over,
});
const call = (t: number, callId: string, outcome: string, over: object = {}) => ({
  v: 2, type: 'tool.call', t, 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'wb__read', turn: 1, round: 1, server: 'wb',
  tool: 'read', key: `k-${callId}`, outcome, ms: 1.5, argBytes: 12, resultBytes: 5, 'gen_ai.tool.call.id': callId, ...over,
});
const stepEnd = (t: number, step: number, over: object = {}) => ({
  v: 2, type: 'step.end', t, step, passed: true, reason: 'answered', failedChecks: [], rounds: 2, calls: 1, ms: 11, ...over,
});
const passEnd = (t: number, over: object = {}) => ({ v: 2, type: 'pass.end', t, passed: true, steps: 2, ms: t, ...over });

function pass(events: object[], start: object = START): ExportPass {
  return { file: 'r/on/1.jsonl', start: start as PassStart, events: [start, ...events] as TraceEvent[] };
}

/** A span's attributes without those left out (undefined), as OTLP writes them. */
const defined = (span: Span): Record<string, unknown> =>
  Object.fromEntries(Object.entries(span.attributes).filter(([, value]) => value !== undefined));

const spansOf = (events: object[], over: { content?: boolean; start?: object } = {}): Span[] =>
  passSpans(pass(events, over.start ?? START), { runId: 'run-1', content: over.content ?? true });

const byName = (spans: readonly Span[], name: string): Span => {
  const found = spans.filter((s) => s.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** Step 0: a listing, a round that calls a tool, the call and its result, a round that answers. */
const STEP_0 = [
  stepStart(1, 0),
  message(1, 0, { role: 'user', content: 'find it' }),
  roster(3.1234567, 1, { offered: [{ name: 'wb__read', description: 'reads', inputSchema: {} }] }),
  request(4, 0, 1, { hash: '00112233445566aa', options: { temperature: 1, seed: 7, maxTokens: 100, numCtx: 2048 } }),
  response(6.125, 0, 1, {
    'gen_ai.response.finish_reasons': ['tool_calls'], textBytes: 0, toolCalls: [{ 'gen_ai.tool.name': 'wb__read', key: 'k-c1' }],
    message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'wb__read', args: { path: 'a' } }] },
  }),
  call(9, 'c1', 'ok', { deterministic: true }),
  message(9, 0, { role: 'tool', toolCallId: 'c1', toolName: 'wb__read', content: 'hello' }),
  request(10, 0, 2, { messages: 3 }),
  response(11, 0, 2, { 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 5, message: { role: 'assistant', content: 'found' } }),
  stepEnd(12, 0),
];

describe('passSpans: the pass, a step, its listing, its rounds and its calls', () => {
  const spans = () => spansOf([...STEP_0, passEnd(13)]);

  it('makes one span per pass, step, listing, round and call, each after its parent', () => {
    const list = spans();
    expect(list.map((s) => s.name)).toStrictEqual([
      'invoke_workflow r', `invoke_agent ${AGENT_NAME}`, 'tools/list', 'chat gpt-x', 'execute_tool wb__read', 'chat gpt-x',
    ]);
    expect(list.map((s) => s.kind)).toStrictEqual(['internal', 'internal', 'client', 'client', 'internal', 'client']);
    expect(list.every((s) => Buffer.from(s.traceId).equals(Buffer.from(TRACE_ID)))).toBe(true);
    expect(list.map((s) => Buffer.from(s.spanId).toString('hex'))).toStrictEqual(
      ['pass', 'step/0', 'turn/1/tools/list', 'step/0/round/1', 'call/0', 'step/0/round/2'].map((p) => Buffer.from(id(p)).toString('hex')));
    const parents = list.map((s) => (s.parentSpanId === undefined ? undefined : Buffer.from(s.parentSpanId).toString('hex')));
    const hex = (path: string): string => Buffer.from(id(path)).toString('hex');
    expect(parents).toStrictEqual([undefined, hex('pass'), hex('step/0'), hex('step/0'), hex('step/0'), hex('step/0')]);
    expect('parentSpanId' in list[0]!).toBe(false);
  });

  it('places each span at pass.start\'s wall clock plus its t, an event written at its end starting ms before', () => {
    const list = spans();
    expect(list.map((s) => [s.startNs, s.endNs])).toStrictEqual([
      [at(T0), at(13)], [at(1), at(12)], [at(1.1234567), at(3.1234567)], [at(4), at(6.125)], [at(7.5), at(9)], [at(10), at(11)],
    ]);
    expect(at(1.1234567) - EPOCH_NS).toBe(623_457n); // rounded to the nanosecond
  });

  it('attributes the pass as a workflow, with its run, rung, arm, pass, seed and file', () => {
    const root = spans()[0]!;
    expect(defined(root)).toStrictEqual({
      'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'r', 'gen_ai.conversation.id': 'run-1/r/on/1',
      'session.id': 'run-1', 'ladder.run.id': 'run-1', 'ladder.rung': 'r', 'ladder.arm': 'on', 'ladder.pass': 1, 'ladder.seed': 42,
      'ladder.trace.file': 'r/on/1.jsonl', 'ladder.passed': true, 'ladder.steps': 2,
    });
    expect(root.error).toBeUndefined();
  });

  it('attributes a step as the agent\'s turn, with the tokens of its rounds and its verdict', () => {
    const step = spans()[1]!;
    expect(defined(step)).toStrictEqual({
      'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'ladder', 'gen_ai.conversation.id': 'run-1/r/on/1',
      'ladder.step': 0, 'ladder.step.ceiling': 5, 'ladder.step.time_limit_ms': 30_000,
      'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-x',
      'gen_ai.usage.input_tokens': 220, 'gen_ai.usage.output_tokens': 15,
      'ladder.step.passed': true, 'ladder.step.reason': 'answered', 'ladder.step.rounds': 2, 'ladder.step.calls': 1,
    });
    expect(step.error).toBeUndefined();
  });

  it('attributes a listing with the roster\'s counters, and no failed list when none failed', () => {
    expect(defined(spans()[2]!)).toStrictEqual({
      'mcp.method.name': 'tools/list', 'ladder.turn': 1, 'ladder.roster.configured': 2, 'ladder.roster.reached': 1,
      'ladder.roster.listed': 1, 'ladder.roster.registered': 2, 'ladder.roster.unavailable': 0, 'ladder.roster.cached': 1, 'ladder.roster.tools': 3,
    });
  });

  it('attributes a round with its request, its options and its response, and the conversation when asked', () => {
    const round = spans()[3]!;
    expect(defined(round)).toStrictEqual({
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-x', 'gen_ai.conversation.id': 'run-1/r/on/1',
      'gen_ai.request.temperature': { double: 1 }, 'gen_ai.request.seed': 7, 'gen_ai.request.max_tokens': 100,
      'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 10, 'gen_ai.response.finish_reasons': ['tool_calls'],
      'ladder.step': 0, 'ladder.round': 1, 'ladder.request.num_ctx': 2048, 'ladder.request.tools': 1, 'ladder.request.messages': 1,
      'ladder.request.message_bytes': 7, 'ladder.request.hash': '00112233445566aa', 'ladder.response.attempts': 1,
      'ladder.response.text_bytes': 0, 'ladder.response.tool_calls': 1,
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'find it' }] }]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'wb__read', arguments: { path: 'a' } }], finish_reason: 'tool_calls' }]),
    });
    expect(round.error).toBeUndefined();
    const second = spans()[5]!;
    expect(defined(second)['gen_ai.input.messages']).toBe(JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'find it' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'wb__read', arguments: { path: 'a' } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'hello' }] },
    ]));
    expect(defined(second)['gen_ai.request.temperature']).toBeUndefined();
  });

  it('attributes a call sent to a server with MCP\'s method, its arguments and its result', () => {
    const tool = spans()[4]!;
    expect(defined(tool)).toStrictEqual({
      'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'wb__read', 'gen_ai.tool.call.id': 'c1', 'mcp.method.name': 'tools/call',
      'ladder.tool.server': 'wb', 'ladder.tool.tool': 'read', 'ladder.call.turn': 1, 'ladder.call.round': 1, 'ladder.call.key': 'k-c1',
      'ladder.call.outcome': 'ok', 'ladder.call.arg_bytes': 12, 'ladder.call.result_bytes': 5, 'ladder.call.deterministic': true,
      'gen_ai.tool.call.arguments': '{"path":"a"}', 'gen_ai.tool.call.result': 'hello',
    });
    expect(tool.error).toBeUndefined();
  });

  it('leaves the conversation out when not asked for it, or when the pass did not record it', () => {
    const content = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result'];
    for (const list of [spansOf([...STEP_0, passEnd(13)], { content: false }), spansOf([...STEP_0, passEnd(13)], { start: { ...START, content: 'redacted' } })]) {
      expect(list).toHaveLength(6);
      expect(list.flatMap((s) => Object.keys(defined(s))).filter((key) => content.includes(key))).toStrictEqual([]);
    }
  });

  it('leaves the request messages out of a round whose request the trace cannot rebuild', () => {
    const redactedPrompt = message(1, 0, { role: 'user' });
    const list = spansOf([STEP_0[0]!, redactedPrompt, ...STEP_0.slice(2), passEnd(13)]);
    expect(defined(list[3]!)['gen_ai.input.messages']).toBeUndefined();
    expect(defined(list[3]!)['gen_ai.output.messages']).toBeDefined();
  });
});

/** Step 1: calls the harness answered, a failed and a timed-out call, then the provider fails the step. */
const STEP_1 = [
  stepStart(13, 1),
  roster(14, 2, { failed: ['down'], ms: 1 }),
  request(15, 1, 1, { 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-y' }),
  response(16, 1, 1, {
    'gen_ai.usage.input_tokens': 50, 'gen_ai.usage.output_tokens': null, 'gen_ai.response.finish_reasons': ['tool_calls'],
    message: { role: 'assistant', content: '', toolCalls: [
      { id: 'c2', name: 'wb__read', args: {} }, { id: 'c3', name: 'wb__read', args: {}, rawArgs: '{bad' },
      { id: 'c4', name: 'wb__read', args: { path: 'b' } }, { id: 'c5', name: 'wb__read', args: {} },
    ] },
  }),
  call(17, 'c2', 'refused', { turn: 2, ms: 0, 'error.type': 'refused' }),
  call(18, 'c3', 'failed', { turn: 2, 'error.type': 'tool_error', probe: true }),
  call(18.5, 'c4', 'short_circuited', { turn: 2, ms: 0 }),
  call(19, 'c5', 'timeout', { turn: 2, 'error.type': 'timeout' }),
  message(19, 1, { role: 'tool', toolCallId: 'c2', toolName: 'wb__read', content: 'not sent again:\n  it failed at round 1' }),
  message(19, 1, { role: 'tool', toolCallId: 'c3', toolName: 'wb__read', content: 'boom', isError: true }),
  message(19, 1, { role: 'tool', toolCallId: 'c4', toolName: 'wb__read', content: 'same as turn 1 round 1' }),
  message(19, 1, { role: 'tool', toolCallId: 'c5', toolName: 'wb__read', content: 'timed out; it may still be running' }),
  message(19, 1, { role: 'tool', toolCallId: 'c3', toolName: 'wb__read', content: 'a second answer to one call' }),
  message(19, 1, { role: 'tool', toolCallId: 'c9', toolName: 'wb__read', content: 'no call has this id' }),
  request(20, 1, 2, { 'gen_ai.provider.name': 'other', 'gen_ai.request.model': 'other-model' }),
  response(21, 1, 2, {
    'gen_ai.usage.input_tokens': null, 'gen_ai.usage.output_tokens': null, 'gen_ai.response.finish_reasons': [], 'error.type': 'rate_limit',
    attempts: 4, textBytes: 0,
  }),
  stepEnd(22, 1, { passed: false, reason: 'errored', failedChecks: [{ check: 'answer', why: 'no answer' }, { check: 'file', why: 'absent' }],
    calls: 4, error: 'claude-y: rate limited\n   after 4 attempts' }),
];

describe('passSpans: what failed, and what the harness answered itself', () => {
  const spans = () => spansOf([...STEP_0, ...STEP_1, passEnd(23, { passed: false, error: 'the server "wb" did not start:\n  exit 1' })]);
  const callSpan = (list: Span[], n: number): Span => list.find((s) => Buffer.from(s.spanId).equals(Buffer.from(id(`call/${n}`))))!;

  it('names the servers whose listing failed', () => {
    const listing = spans().find((s) => Buffer.from(s.spanId).equals(Buffer.from(id('turn/2/tools/list'))))!;
    expect(defined(listing)['ladder.roster.failed']).toStrictEqual(['down']);
    expect(listing.parentSpanId).toStrictEqual(id('step/1'));
  });

  it('counts calls across the pass, and puts each under its turn\'s step', () => {
    const list = spans();
    for (const n of [1, 2, 3, 4]) expect(callSpan(list, n).parentSpanId).toStrictEqual(id('step/1'));
    expect(list.filter((s) => s.name === 'execute_tool wb__read')).toHaveLength(5);
  });

  it('gives a call the harness refused no MCP method, and its refusal as the error', () => {
    const refused = callSpan(spans(), 1);
    expect(defined(refused)['mcp.method.name']).toBeUndefined();
    expect(defined(refused)['error.type']).toBe('refused');
    expect(defined(refused)['gen_ai.tool.call.result']).toBeUndefined();
    expect(refused.error).toBe('refused: not sent again: it failed at round 1');
  });

  it('gives a failed call the MCP method, the probe flag, its raw arguments and its error text', () => {
    const failed = callSpan(spans(), 2);
    expect(defined(failed)).toMatchObject({ 'mcp.method.name': 'tools/call', 'error.type': 'tool_error', 'ladder.call.probe': true, 'gen_ai.tool.call.arguments': '"{bad"' });
    expect(defined(failed)['gen_ai.tool.call.result']).toBeUndefined();
    expect(failed.error).toBe('failed: boom');
  });

  it('takes a short-circuited answer as the call\'s result, though no server was asked', () => {
    const short = callSpan(spans(), 3);
    expect(defined(short)['mcp.method.name']).toBeUndefined();
    expect(defined(short)['gen_ai.tool.call.result']).toBe('same as turn 1 round 1');
    expect(short.error).toBeUndefined();
  });

  it('gives a call that timed out the MCP method: it was sent', () => {
    const timedOut = callSpan(spans(), 4);
    expect(defined(timedOut)['mcp.method.name']).toBe('tools/call');
    expect(timedOut.error).toBe('timeout: timed out; it may still be running');
  });

  it('marks a round the provider failed, with no tokens, and the step it errored', () => {
    const list = spans();
    const failedRound = byName(list, 'chat other-model');
    expect(defined(failedRound)).toMatchObject({ 'error.type': 'rate_limit', 'ladder.response.attempts': 4 });
    expect(defined(failedRound)['gen_ai.usage.input_tokens']).toBeUndefined();
    expect(defined(failedRound)['gen_ai.response.finish_reasons']).toBeUndefined();
    expect(failedRound.error).toBe('rate_limit');
    const step = list.find((s) => Buffer.from(s.spanId).equals(Buffer.from(id('step/1'))))!;
    expect(defined(step)).toMatchObject({
      'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude-y',
      'gen_ai.usage.input_tokens': 50, 'gen_ai.usage.output_tokens': 0, 'error.type': 'rate_limit',
      'ladder.step.passed': false, 'ladder.step.reason': 'errored', 'ladder.step.failed_checks': ['answer: no answer', 'file: absent'],
    });
    expect(step.error).toBe('claude-y: rate limited after 4 attempts');
  });

  it('marks the pass a harness error ended, on one line', () => {
    const root = spans()[0]!;
    expect(defined(root)).toMatchObject({ 'ladder.passed': false, 'error.type': 'harness_error' });
    expect(root.error).toBe('the server "wb" did not start: exit 1');
  });
});

describe('passSpans: what a trace may lack', () => {
  it('gives a step that errored with no failed round the conventions\' _OTHER, and says errored', () => {
    const list = spansOf([stepStart(1, 0), stepEnd(2, 0, { passed: false, reason: 'errored', rounds: 0, calls: 0 }), passEnd(3)]);
    expect(defined(list[1]!)).toMatchObject({ 'error.type': '_OTHER' });
    expect(list[1]!.error).toBe('errored');
  });

  it('leaves a step\'s tokens out when no round reported any, and its model when it made no request', () => {
    const list = spansOf([stepStart(1, 0), request(2, 0, 1), response(3, 0, 1, { 'gen_ai.usage.input_tokens': null, 'gen_ai.usage.output_tokens': null }),
      stepEnd(4, 0, { rounds: 1, calls: 0 }), stepStart(5, 1), stepEnd(6, 1, { rounds: 0, calls: 0 }), passEnd(7)]);
    expect(defined(list[1]!)['gen_ai.usage.input_tokens']).toBeUndefined();
    expect(defined(list[1]!)['gen_ai.usage.output_tokens']).toBeUndefined();
    expect(defined(list[1]!)['gen_ai.request.model']).toBe('gpt-x');
    expect(list[1]!.error).toBeUndefined();
    const idle = list.find((s) => Buffer.from(s.spanId).equals(Buffer.from(id('step/1'))))!;
    expect(defined(idle)['gen_ai.request.model']).toBeUndefined();
    expect(defined(idle)['gen_ai.provider.name']).toBeUndefined();
  });

  it('counts the output tokens of a step whose rounds reported output only', () => {
    const list = spansOf([stepStart(1, 0), request(2, 0, 1), response(3, 0, 1, { 'gen_ai.usage.input_tokens': null, 'gen_ai.usage.output_tokens': 9 }),
      stepEnd(4, 0), passEnd(5)]);
    expect(defined(list[1]!)).toMatchObject({ 'gen_ai.usage.input_tokens': 0, 'gen_ai.usage.output_tokens': 9 });
  });

  it('names a round with no recorded request plain chat, started ms before its response, under the pass when no step opened', () => {
    const list = spansOf([response(8, 0, 1, { ms: 3 }), passEnd(9)]);
    const round = list[1]!;
    expect([round.name, round.startNs, round.endNs]).toStrictEqual(['chat', at(5), at(8)]);
    expect(round.parentSpanId).toStrictEqual(id('pass'));
    expect(defined(round)).toMatchObject({ 'gen_ai.operation.name': 'chat', 'ladder.step': 0, 'ladder.round': 1 });
    expect(defined(round)['gen_ai.request.model']).toBeUndefined();
    expect(defined(round)['gen_ai.input.messages']).toBeUndefined();
  });

  it('pairs a response only with its own request, once', () => {
    const list = spansOf([stepStart(1, 0), request(2, 0, 1, { 'gen_ai.request.model': 'first' }), response(3, 0, 1),
      response(4, 0, 1, { ms: 1 }), request(5, 0, 2, { 'gen_ai.request.model': 'second' }), response(6, 0, 3, { ms: 1 }), passEnd(7)]);
    expect(list.slice(2).map((s) => s.name)).toStrictEqual(['chat first', 'chat', 'chat']);
  });

  it('ignores a step.end of a step that never started, and events it does not map', () => {
    const list = spansOf([stepEnd(1, 4), { v: 2, type: 'run.end', t: 2, status: 'complete', passes: 1 }, passEnd(3)]);
    expect(list).toHaveLength(1);
  });

  it('puts a listing for a turn with no step under the pass', () => {
    const list = spansOf([roster(3, 1), passEnd(4)]);
    expect(list[1]!.parentSpanId).toStrictEqual(id('pass'));
  });

  it('takes a call\'s arguments only from the response that asked for it', () => {
    const list = spansOf([stepStart(1, 0), call(2, 'c7', 'ok'), call(3, 'c8', 'ok', { 'gen_ai.tool.call.id': undefined }), passEnd(4)]);
    expect(defined(list[2]!)['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(defined(list[3]!)['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(defined(list[3]!)['gen_ai.tool.call.id']).toBeUndefined();
  });

  it('marks an errored step with the type of its last failed round, not of a round after it', () => {
    const list = spansOf([stepStart(1, 0), request(2, 0, 1), response(3, 0, 1, { 'error.type': 'server_error', message: undefined }),
      request(4, 0, 2), response(5, 0, 2), stepEnd(6, 0, { passed: false, reason: 'errored' }), passEnd(7)]);
    expect(defined(list[1]!)['error.type']).toBe('server_error');
  });

  it('keeps a call\'s own error when the tool result the model saw was not recorded', () => {
    const list = spansOf([stepStart(1, 0), call(2, 'c1', 'refused', { 'error.type': 'refused' }),
      message(2, 0, { role: 'tool', toolCallId: 'c1', toolName: 'wb__read' }), passEnd(3)]);
    expect(list[2]!.error).toBe('refused');
  });

  it('cuts an error text to 240 characters, marked', () => {
    const long = `${'x'.repeat(240)}yz`;
    const list = spansOf([passEnd(2, { passed: false, error: long })]);
    expect(list[0]!.error).toBe(`${'x'.repeat(240)}...`);
    const exact = spansOf([passEnd(2, { passed: false, error: ` ${'x'.repeat(240)} ` })]);
    expect(exact[0]!.error).toBe('x'.repeat(240));
  });

  it('keeps the arm as written when it cannot be read, and ids apart per run, rung, arm and pass', () => {
    const list = spansOf([passEnd(2)], { start: { ...START, arm: 'on,,' } });
    expect(defined(list[0]!)['ladder.arm']).toBe('on,,');
    expect(Buffer.from(list[0]!.traceId)).toStrictEqual(Buffer.from(traceIdOf({ runId: 'run-1', rung: 'r', arm: 'on,,', pass: 1 })));
  });
});

describe('hasWallClock', () => {
  it('is true for a date and false for anything else', () => {
    expect(hasWallClock(pass([]))).toBe(true);
    expect(hasWallClock(pass([], { ...START, time: 'not a date' }))).toBe(false);
  });
});
