// The continuity reading: a step's first request carried the earlier steps when it holds every
// earlier prompt in a user message and every tool result they sent back, as many times as sent.
// And a request recorded `restart` rebuilds as the messages recorded since the last answer.
import { describe, expect, it } from 'vitest';
import { carriedOver, earlierStep, rebuildRequests } from '../../src/trace/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';

const user = (content: string) => ({ role: 'user', content });
const tool = (content: string) => ({ role: 'tool', content });
const assistant = (content: string) => ({ role: 'assistant', content });

const STEP1 = { prompt: 'Find the commit.', toolResults: ['abc123', 'ok'] };
const STEP2 = { prompt: 'Tag that commit.', toolResults: [] };

describe('reading whether a step carried the earlier ones', () => {
  it('carried: every earlier prompt (wrapped or not) and every tool result, in any order', () => {
    expect(carriedOver([STEP1], [user('<env>x</env>'), user('Please: Find the commit. Thanks'), assistant(''), tool('ok'), tool('abc123'), user('Tag that commit.')])).toEqual({ carried: true });
    expect(carriedOver([STEP1, STEP2], [user('Find the commit.'), tool('abc123'), tool('ok'), user('Tag that commit.'), user('Next.')])).toEqual({ carried: true });
    // Nothing earlier: nothing to lose.
    expect(carriedOver([], [user('Tag that commit.')])).toEqual({ carried: true });
  });

  it("not carried when only the step's own prompt is there", () => {
    expect(carriedOver([STEP1], [user('<env>x</env>'), user('Tag that commit.')])).toEqual({ carried: false, missing: "step 1's prompt" });
  });

  it('not carried when a prompt is kept but a tool result is lost', () => {
    expect(carriedOver([STEP1], [user('Find the commit.'), tool('abc123'), user('Tag that commit.')])).toEqual({ carried: false, missing: 'a tool result of step 1' });
    // A result sent twice must be there twice: one copy does not stand for both.
    expect(carriedOver([{ prompt: 'p', toolResults: ['same', 'same'] }], [user('p'), tool('same')])).toEqual({ carried: false, missing: 'a tool result of step 1' });
    expect(carriedOver([{ prompt: 'p', toolResults: ['same', 'same'] }], [user('p'), tool('same'), tool('same')])).toEqual({ carried: true });
  });

  it('names the first step that was lost, counting from 1', () => {
    expect(carriedOver([STEP1, STEP2], [user('Find the commit.'), tool('abc123'), tool('ok'), user('Next.')])).toEqual({ carried: false, missing: "step 2's prompt" });
    expect(carriedOver([STEP1, { prompt: 'q', toolResults: ['r'] }], [user('Find the commit.'), tool('abc123'), tool('ok'), user('q')])).toEqual({ carried: false, missing: 'a tool result of step 2' });
  });

  it('reads only user messages for prompts and only tool messages for results', () => {
    expect(carriedOver([STEP1], [assistant('Find the commit.'), tool('abc123'), tool('ok')]).carried).toBe(false);
    expect(carriedOver([STEP1], [user('Find the commit.'), user('abc123'), tool('ok')]).carried).toBe(false);
    // Content that is not text (an agent's blocks) holds no prompt.
    expect(carriedOver([{ prompt: 'p', toolResults: [] }], [{ role: 'user', content: ['p'] }]).carried).toBe(false);
  });
});

describe('what a step put into the conversation', () => {
  it('is its prompt and the tool results after the last user message that holds it', () => {
    const last = [user('Find the commit.'), tool('old'), user('wrapped: Find the commit.'), assistant(''), tool('abc123'), assistant(''), tool('ok'), user('(no content)')];
    expect(earlierStep('Find the commit.', last)).toEqual({ prompt: 'Find the commit.', toolResults: ['abc123', 'ok'] });
  });

  it("is read from the prompt's own user message, wherever it stands, whatever follows it", () => {
    // First in the request; a later user message without the prompt (an agent's "(no content)")
    // and a tool result quoting the prompt do not move where the step began.
    const last = [user('Find the commit.'), tool('a'), user('(no content)'), tool('Found for "Find the commit.": abc'), tool('b')];
    expect(earlierStep('Find the commit.', last)).toEqual({ prompt: 'Find the commit.', toolResults: ['a', 'Found for "Find the commit.": abc', 'b'] });
  });

  it('is no tool results when its request no longer holds its prompt, and nothing when it never asked the model', () => {
    expect(earlierStep('Find the commit.', [user('other'), tool('x')])).toEqual({ prompt: 'Find the commit.', toolResults: [] });
    expect(earlierStep('Find the commit.', [])).toEqual({ prompt: 'Find the commit.', toolResults: [] });
    expect(earlierStep('Find the commit.', undefined)).toBeUndefined();
  });
});

describe('a request recorded as a restart', () => {
  const base = { v: 2, t: 0 } as const;
  const request = (step: number, round: number, restart?: true): TraceEvent => ({
    ...base, type: 'model.request', step, round, 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'synthetic', 'gen_ai.request.model': 'm',
    tools: 0, messages: 0, messageBytes: 0, ...(restart === undefined ? {} : { restart }),
  });
  const message = (step: number, content: string): TraceEvent => ({ ...base, type: 'message', step, message: { role: 'user', content } });
  const answer = (step: number, round: number, content: string): TraceEvent => ({
    ...base, type: 'model.response', step, round, ms: 1, attempts: 1, 'gen_ai.usage.input_tokens': 1, 'gen_ai.usage.output_tokens': 1,
    finishReason: 'end', textBytes: 1, toolCalls: [], message: { role: 'assistant', content },
  } as unknown as TraceEvent);

  it('rebuilds as the messages recorded since the last answer, and the requests after it go on from there', () => {
    const events: TraceEvent[] = [
      { ...base, type: 'pass.start', rung: 'r', arm: 'on', pass: 0, seed: 1, content: 'full' } as unknown as TraceEvent,
      message(0, 'one'), request(0, 1), answer(0, 1, 'A1'),
      message(1, 'sys'), message(1, 'two'), request(1, 1, true), answer(1, 1, 'A2'),
      message(1, 'more'), request(1, 2),
    ];
    const contents = rebuildRequests(events).map((r) => r.messages.map((m) => m.content));
    expect(contents).toEqual([['one'], ['sys', 'two'], ['sys', 'two', 'A2', 'more']]);
  });

  it('without the mark, a request is everything before it (traces written before it)', () => {
    const events: TraceEvent[] = [message(0, 'one'), request(0, 1), answer(0, 1, 'A1'), message(1, 'two'), request(1, 1)];
    expect(rebuildRequests(events).map((r) => r.messages.map((m) => m.content))).toEqual([['one'], ['one', 'A1', 'two']]);
  });
});
