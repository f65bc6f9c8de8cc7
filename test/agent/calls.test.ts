// One round's tool calls, on a hand-built lane that answers as each test scripts it: which calls
// are made, what each records, and the tool message every call gets, made or not.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCalls } from '../../src/agent/calls.ts';
import type { StepCallRecord } from '../../src/agent/calls.ts';
import type { ToolLane } from '../../src/agent/loop.ts';
import { StepLimits } from '../../src/agent/limits.ts';
import type { CallAt, CallResult } from '../../src/lane/index.ts';
import type { ChatMessage, ToolCall } from '../../src/models/types.ts';
import { callKey } from '../../src/reliability/index.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const CEILING_TEXT = "The step's tool-call ceiling was reached, so this call was not made.";
const NOT_MADE_LIMIT = "The step's time limit passed before this call was made, so it was not made.";
const NOT_MADE_INTERRUPT = 'The run was interrupted before this call was made, so it was not made.';
const CUT_OFF_LIMIT = "The step's time limit passed while this call was running; the tool may still be running on the server.";
const CUT_OFF_INTERRUPT = 'The run was interrupted while this call was running; the tool may still be running on the server.';

interface Sent { name: string; args: Record<string, unknown> | undefined; round: number; id: string | undefined }

const ABANDONED: CallResult = { text: 'abandoned', isError: true, outcome: 'timeout', server: 'wb', tool: 't', key: 'k' };

/**
 * A lane whose call answers with `reply(name)`; every call it got is in `sent`. As the real lane
 * does, it answers a call at once when the step's signal aborts (after `abandonMs`, to see the
 * step wait for that answer), and `log` says when it did.
 */
function laneOf(reply: (name: string) => Promise<Partial<CallResult>> = async () => ({ text: 'done', isError: false, outcome: 'ok' }), abandonMs = 0) {
  const sent: Sent[] = [];
  const log: string[] = [];
  const lane = {
    openTurn: () => Promise.reject(new Error('not used')),
    call: async (name: string, args: Record<string, unknown> | undefined, at: CallAt) => {
      sent.push({ name, args, round: at.round, id: at.id });
      const abandoned = new Promise<CallResult>((resolve) => at.signal?.addEventListener('abort', () => {
        const answer = (): void => {
          log.push(`${name} abandoned`);
          resolve(ABANDONED);
        };
        if (abandonMs === 0) answer();
        else setTimeout(answer, abandonMs);
      }, { once: true }));
      return Promise.race([reply(name) as Promise<CallResult>, abandoned]);
    },
  } as unknown as ToolLane;
  return { lane, sent, log };
}

const call = (id: string, name: string, over: Partial<ToolCall> = {}): ToolCall => ({ id, name, args: {}, ...over });

/** The tool messages as [id, content, isError]. */
const answers = (messages: ChatMessage[]) =>
  messages.map((m) => (m.role === 'tool' ? [m.toolCallId, m.content, m.isError] : ['not a tool message']));

function round(lane: ToolLane, limits: StepLimits, ceiling = 10, calls: StepCallRecord[] = []) {
  const messages: ChatMessage[] = [];
  const ctx = { lane, limits, round: 3, ceiling, calls, add: (m: ChatMessage): void => void messages.push(m) };
  return { ctx, calls, messages };
}

describe('calls made', () => {
  it('sends each call with its arguments, round and id, and records and answers it under the id', async () => {
    using limits = new StepLimits(60_000);
    const { lane, sent } = laneOf(async (name) =>
      name === 'wb__read' ? { text: 'contents', isError: false, outcome: 'ok' } : { text: 'no such file', isError: true, outcome: 'failed' });
    const { ctx, calls, messages } = round(lane, limits);
    const overflow = await runCalls(ctx, [call('a', 'wb__read', { args: { path: 'x' } }), call('b', 'wb__write', { args: { path: 'y' } })]);
    expect(overflow).toBe(false);
    expect(sent).toEqual([
      { name: 'wb__read', args: { path: 'x' }, round: 3, id: 'a' },
      { name: 'wb__write', args: { path: 'y' }, round: 3, id: 'b' },
    ]);
    expect(calls).toEqual([
      { tool: 'wb__read', key: callKey('wb__read', { path: 'x' }), args: { path: 'x' }, outcome: 'ok' },
      { tool: 'wb__write', key: callKey('wb__write', { path: 'y' }), args: { path: 'y' }, outcome: 'failed' },
    ]);
    expect(messages).toEqual([
      { role: 'tool', toolCallId: 'a', toolName: 'wb__read', content: 'contents', isError: false },
      { role: 'tool', toolCallId: 'b', toolName: 'wb__write', content: 'no such file', isError: true },
    ]);
  });

  it('passes on an error the lane throws, recording nothing for that call', async () => {
    using limits = new StepLimits(60_000);
    const broken = new Error('Lane.call: the lane is closed');
    const { lane } = laneOf(() => Promise.reject(broken));
    const { ctx, calls, messages } = round(lane, limits);
    await expect(runCalls(ctx, [call('a', 'wb__read')])).rejects.toBe(broken);
    expect(calls).toEqual([]);
    expect(messages).toEqual([]);
  });
});

describe('the ceiling', () => {
  it('makes calls up to the ceiling, counting the step\'s earlier calls, and answers the rest as not made', async () => {
    using limits = new StepLimits(60_000);
    const { lane, sent } = laneOf();
    const earlier: StepCallRecord = { tool: 'wb__read', key: 'k0', outcome: 'ok' };
    const { ctx, calls, messages } = round(lane, limits, 2, [earlier]);
    const overflow = await runCalls(ctx, [call('a', 'wb__one'), call('b', 'wb__two'), call('c', 'wb__three')]);
    expect(overflow).toBe(true);
    expect(sent.map((s) => s.name)).toEqual(['wb__one']);
    expect(calls.map((c) => c.tool)).toEqual(['wb__read', 'wb__one']);
    expect(answers(messages)).toEqual([['a', 'done', false], ['b', CEILING_TEXT, true], ['c', CEILING_TEXT, true]]);
  });

  it('is not overflowed by a round that uses exactly what is left', async () => {
    using limits = new StepLimits(60_000);
    const { lane, sent } = laneOf();
    const { ctx } = round(lane, limits, 2);
    expect(await runCalls(ctx, [call('a', 'wb__one'), call('b', 'wb__two')])).toBe(false);
    expect(sent).toHaveLength(2);
  });

  it('counts a call it could not send toward the ceiling', async () => {
    using limits = new StepLimits(60_000);
    const { lane, sent } = laneOf();
    const { ctx, calls, messages } = round(lane, limits, 1);
    const overflow = await runCalls(ctx, [call('a', 'wb__one', { rawArgs: '{' }), call('b', 'wb__two')]);
    expect(overflow).toBe(true);
    expect(sent).toEqual([]);
    expect(calls.map((c) => c.outcome)).toEqual(['invalid_arguments']);
    expect(answers(messages)[1]).toEqual(['b', CEILING_TEXT, true]);
  });
});

describe('calls that cannot be sent', () => {
  it('quotes arguments that are not a JSON object, cut at 200 characters, and sends nothing', async () => {
    using limits = new StepLimits(60_000);
    const { lane, sent } = laneOf();
    const { ctx, calls, messages } = round(lane, limits);
    const long = `{"text": "${'y'.repeat(300)}`;
    await runCalls(ctx, [call('a', 'wb__write', { rawArgs: '{"path": "a' }), call('b', 'wb__write', { rawArgs: long }), call('c', 'wb__read')]);
    expect(sent.map((s) => s.name)).toEqual(['wb__read']);
    // An unsent call has no arguments to record: what the model wrote was not an object.
    const invalid = { tool: 'wb__write', key: callKey('wb__write', {}), outcome: 'invalid_arguments' };
    expect(calls).toEqual([invalid, invalid, { tool: 'wb__read', key: callKey('wb__read', {}), args: {}, outcome: 'ok' }]);
    expect(calls.map((c) => 'args' in c)).toEqual([false, false, true]);
    expect(answers(messages)).toEqual([
      ['a', 'The arguments were not a JSON object, so wb__write was not called: "{\\"path\\": \\"a"', true],
      ['b', `The arguments were not a JSON object, so wb__write was not called: ${JSON.stringify(long.slice(0, 200))}`, true],
      ['c', 'done', false],
    ]);
    expect(long.slice(0, 200)).toHaveLength(200);
  });

  it('answers a call the adapter marked invalid with the adapter\'s reason, also when it kept raw arguments', async () => {
    using limits = new StepLimits(60_000);
    const { lane, sent } = laneOf();
    const { ctx, calls, messages } = round(lane, limits);
    await runCalls(ctx, [
      call('a', 'wb__write', { invalid: 'Cut off by the token limit; not made.' }),
      call('b', 'wb__write', { invalid: 'The provider could not parse it.', rawArgs: '{"pa' }),
    ]);
    expect(sent).toEqual([]);
    expect(calls.map((c) => c.outcome)).toEqual(['invalid_arguments', 'invalid_arguments']);
    expect(answers(messages)).toEqual([
      ['a', 'Cut off by the token limit; not made.', true],
      ['b', 'The provider could not parse it.', true],
    ]);
  });
});

describe('a step that stops during the round', () => {
  it('answers the calls after an interrupt as not made, and throws interrupted', async () => {
    const interrupt = new AbortController();
    using limits = new StepLimits(60_000, interrupt.signal);
    const { lane, sent } = laneOf();
    const { ctx, calls } = round(lane, limits);
    const messages: ChatMessage[] = [];
    ctx.add = (m) => {
      messages.push(m);
      interrupt.abort();
    };
    const error = await runCalls(ctx, [call('a', 'wb__one'), call('b', 'wb__two'), call('c', 'wb__three')]).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'StepStopped', why: 'interrupted' });
    expect(sent.map((s) => s.name)).toEqual(['wb__one']);
    expect(calls.map((c) => c.outcome)).toEqual(['ok']);
    expect(answers(messages)).toEqual([['a', 'done', false], ['b', NOT_MADE_INTERRUPT, true], ['c', NOT_MADE_INTERRUPT, true]]);
  });

  it('records a call cut off by the time limit as abandoned, and answers it and the rest', async () => {
    using limits = new StepLimits(1_000);
    const { lane, sent } = laneOf((name) => (name === 'wb__one' ? Promise.resolve({ text: 'done', isError: false, outcome: 'ok' }) : new Promise(() => undefined)));
    const { ctx, calls, messages } = round(lane, limits);
    const stopped = runCalls(ctx, [call('a', 'wb__one'), call('b', 'wb__two', { args: { n: 1 } }), call('c', 'wb__three')]).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await stopped).toMatchObject({ name: 'StepStopped', why: 'time_limit' });
    expect(sent.map((s) => s.name)).toEqual(['wb__one', 'wb__two']);
    expect(calls).toEqual([
      { tool: 'wb__one', key: callKey('wb__one', {}), args: {}, outcome: 'ok' },
      { tool: 'wb__two', key: callKey('wb__two', { n: 1 }), args: { n: 1 }, outcome: 'abandoned' },
    ]);
    expect(answers(messages)).toEqual([['a', 'done', false], ['b', CUT_OFF_LIMIT, true], ['c', NOT_MADE_LIMIT, true]]);
  });

  it('waits for the lane to record a call the time limit cut off before it stops the step', async () => {
    // The lane answers 5 ms after the signal: the step must not end before that record exists.
    using limits = new StepLimits(1_000);
    const { lane, log } = laneOf(() => new Promise(() => undefined), 5);
    const { ctx } = round(lane, limits);
    const stopped = runCalls(ctx, [call('a', 'wb__one')]).catch((e: unknown) => {
      log.push('step stopped');
      return e;
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(log).toEqual([]);
    await vi.advanceTimersByTimeAsync(5);
    expect(await stopped).toMatchObject({ name: 'StepStopped', why: 'time_limit' });
    expect(log).toEqual(['wb__one abandoned', 'step stopped']);
  });

  it('sends every call with the step\'s signal', async () => {
    using limits = new StepLimits(60_000);
    const seen: (AbortSignal | undefined)[] = [];
    const lane = {
      call: async (_name: string, _args: unknown, at: CallAt) => {
        seen.push(at.signal);
        return { text: 'done', isError: false, outcome: 'ok' };
      },
    } as unknown as ToolLane;
    await runCalls(round(lane, limits).ctx, [call('a', 'wb__one'), call('b', 'wb__two')]);
    expect(seen).toEqual([limits.signal, limits.signal]);
  });

  it('says a call cut off by an interrupt may still run', async () => {
    const interrupt = new AbortController();
    using limits = new StepLimits(60_000, interrupt.signal);
    const { lane } = laneOf(() => new Promise(() => undefined));
    const { ctx, calls, messages } = round(lane, limits);
    const stopped = runCalls(ctx, [call('a', 'wb__one'), call('b', 'wb__two')]).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    interrupt.abort();
    expect(await stopped).toMatchObject({ why: 'interrupted' });
    expect(calls.map((c) => c.outcome)).toEqual(['abandoned']);
    expect(answers(messages)).toEqual([['a', CUT_OFF_INTERRUPT, true], ['b', NOT_MADE_INTERRUPT, true]]);
  });
});
