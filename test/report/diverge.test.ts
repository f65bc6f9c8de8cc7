// Where two arms' conversations of the same pass part: the first round whose model turn, call
// outcome or result differs, said in one line.
import { describe, expect, it } from 'vitest';
import type { CallRecord, LaneRecord, PassTranscript, RoundRecord, StepRecord } from '../../src/report/transcript/build.ts';
import { firstDivergence } from '../../src/report/transcript/diverge.ts';

function lane(outcome: LaneRecord['outcome'], errorType?: string): LaneRecord {
  return { outcome, errorType, ms: 1, probe: false, server: 'wb', argBytes: 2, resultBytes: 2 };
}

function call(name: string, over: Partial<CallRecord> = {}): CallRecord {
  return {
    id: 'c1', name, key: `key-${name}`, args: { text: '{}' }, invalid: undefined, own: false, lane: lane('ok'), rewritten: false, result: { text: 'result 1' }, isError: false,
    failedAtRound: undefined, answeredAt: undefined, asked: 1, ...over,
  };
}

function round(n: number, over: Partial<RoundRecord> = {}): RoundRecord {
  return {
    round: n, tools: 3, text: { text: 'thinking aloud' }, tokensIn: 1, tokensOut: 1, ms: 1, attempts: 1, error: undefined,
    thinking: [], refusal: undefined, adaptations: [], calls: [], ...over,
  };
}

function step(n: number, rounds: RoundRecord[]): StepRecord {
  return { step: n, ceiling: 5, timeLimitMs: 1000, prompt: { text: 'p' }, tools: undefined, rounds, end: undefined };
}

function side(name: string, steps: StepRecord[]) {
  const transcript: PassTranscript = { rung: 'r', arm: name, pass: 0, seed: 1, content: 'full', system: undefined, steps, end: undefined };
  return { name, transcript };
}

/** The divergence of two one-step passes of one round each, that round given per side. */
function one(x: Partial<RoundRecord>, y: Partial<RoundRecord>) {
  return firstDivergence(side('A', [step(0, [round(1, x)])]), side('B', [step(0, [round(1, y)])]));
}

describe('the first divergence', () => {
  it('is none when the conversations are the same throughout', () => {
    const rounds = () => [round(1, { calls: [call('wb__read')] }), round(2)];
    expect(firstDivergence(side('A', [step(0, rounds()), step(1, rounds())]), side('B', [step(0, rounds()), step(1, rounds())]))).toBeNull();
    expect(firstDivergence(side('A', []), side('B', []))).toBeNull();
  });

  it('names the model answering on one side and calling on the other', () => {
    expect(one({ calls: [call('wb__read')] }, {})).toStrictEqual({ step: 0, round: 1, what: 'the model called wb__read on A, answered on B' });
  });

  it('names every tool called, in order', () => {
    expect(one({ calls: [call('wb__a'), call('wb__b')] }, { error: 'rate_limit' }))
      .toStrictEqual({ step: 0, round: 1, what: 'the model called wb__a, wb__b on A, got no response on B' });
  });

  it('names a round that got no response', () => {
    expect(one({ error: 'time_limit' }, {})?.what).toBe('the model got no response on A, answered on B');
  });

  it('tells two failures apart by their kind', () => {
    expect(one({ error: 'time_limit' }, { error: 'rate_limit' })?.what).toBe('the model got no response: time_limit on A, rate_limit on B');
    expect(one({ error: 'time_limit' }, { error: 'time_limit' })).toBeNull();
  });

  it('says the text differs when the turns are otherwise alike', () => {
    expect(one({ text: { text: 'one' } }, { text: { text: 'two' } })?.what).toBe("the model's text differs");
  });

  it('compares text with its numbers as they are, in the model\'s turn', () => {
    expect(one({ text: { text: 'at 10:01' } }, { text: { text: 'at 10:02' } })?.what).toBe("the model's text differs");
  });

  it('says the arguments differ when the same tools are called with the same text', () => {
    expect(one({ calls: [call('wb__read', { key: 'k1' })] }, { calls: [call('wb__read', { key: 'k2' })] })?.what)
      .toBe("the model's calls differ in their arguments");
  });

  it('reads calls with the same key as the same, whatever their arguments\' text', () => {
    expect(one({ calls: [call('wb__read', { key: 'k', args: { text: '{"a":1}' } })] }, { calls: [call('wb__read', { key: 'k', args: { text: '{"a":2}' } })] })).toBeNull();
  });

  it('compares the arguments when a side has no key', () => {
    const x = { calls: [call('wb__read', { key: undefined, args: { text: '{"a":1}' } })] };
    expect(one(x, { calls: [call('wb__read', { key: undefined, args: { text: '{"a":2}' } })] })?.what).toBe("the model's calls differ in their arguments");
    expect(one(x, { calls: [call('wb__read', { key: 'k', args: { text: '{"a":2}' } })] })?.what).toBe("the model's calls differ in their arguments");
    expect(one(x, { calls: [call('wb__read', { key: undefined, args: { text: '{"a":1}' } })] })).toBeNull();
    expect(one({ calls: [call('wb__read', { key: 'k', args: { text: '{"a":1}' } })] }, x)).toBeNull();
  });

  it('says the calls differ when a tool has another name', () => {
    expect(one({ calls: [call('wb__a', { key: 'k' })] }, { calls: [call('wb__b', { key: 'k' })] })?.what).toBe('the model called wb__a on A, called wb__b on B');
  });

  it('says the calls differ when one side makes more', () => {
    expect(one({ calls: [call('wb__a')] }, { calls: [call('wb__a'), call('wb__a')] })?.what).toBe('the model called wb__a on A, called wb__a, wb__a on B');
  });

  it('reads a redacted text by its size and hash', () => {
    expect(one({ text: { bytes: 4, hash: 'h1' } }, { text: { bytes: 4, hash: 'h1' } })).toBeNull();
    expect(one({ text: { bytes: 4, hash: 'h1' } }, { text: { bytes: 4, hash: 'h2' } })?.what).toBe("the model's text differs");
    expect(one({ text: { bytes: 4, hash: 'h1' } }, { text: { bytes: 5, hash: 'h1' } })?.what).toBe("the model's text differs");
    expect(one({ text: { bytes: 4 } }, { text: { text: 'abcd' } })?.what).toBe("the model's text differs");
    expect(one({ text: undefined }, { text: undefined })).toBeNull();
    expect(one({ text: undefined }, { text: { text: '' } })?.what).toBe("the model's text differs");
  });

  it.each([
    ['refused', undefined, 'refused by the breaker'],
    ['short_circuited', undefined, 'short-circuited'],
    ['unavailable', 'not_started', 'unavailable (not started)'],
    ['unavailable', 'circuit_open', 'unavailable (circuit open)'],
    ['failed', 'tool_error', 'failed'],
  ] as const)('names a call %s (%s) on one side and sent on the other', (outcome, errorType, words) => {
    expect(one({ calls: [call('wb__read', { lane: lane(outcome, errorType) })] }, { calls: [call('wb__read')] }))
      .toStrictEqual({ step: 0, round: 1, what: `wb__read: ${words} on A, ok on B` });
  });

  it('names a call that was never made on one side', () => {
    expect(one({ calls: [call('wb__read')] }, { calls: [call('wb__read', { lane: undefined })] })?.what).toBe('wb__read: ok on A, not made on B');
  });

  it('says the results differ, reading numbers in them as the same', () => {
    expect(one({ calls: [call('wb__read', { result: { text: 'a' } })] }, { calls: [call('wb__read', { result: { text: 'b' } })] })?.what).toBe('wb__read: the results differ');
    expect(one({ calls: [call('wb__now', { result: { text: 'at 10:01' } })] }, { calls: [call('wb__now', { result: { text: 'at 11:02' } })] })).toBeNull();
  });

  it('says the results differ when one side got none', () => {
    expect(one({ calls: [call('wb__read')] }, { calls: [call('wb__read', { result: undefined })] })?.what).toBe('wb__read: the results differ');
    expect(one({ calls: [call('wb__read', { result: undefined })] }, { calls: [call('wb__read')] })?.what).toBe('wb__read: the results differ');
  });

  it('compares the arguments when only the other side has a key', () => {
    const keyless = { calls: [call('wb__read', { key: undefined, args: { text: '{"a":1}' } })] };
    expect(one(keyless, { calls: [call('wb__read', { key: 'k', args: { text: '{"a":1}' } })] })).toBeNull();
  });

  it('names the first call that differs, not a later one', () => {
    const x = { calls: [call('wb__a'), call('wb__b', { result: { text: 'x' } })] };
    const y = { calls: [call('wb__a', { result: { text: 'y' } }), call('wb__b', { lane: lane('refused') })] };
    expect(one(x, y)?.what).toBe('wb__a: the results differ');
  });

  it('says which side ended a step first, and after how many rounds', () => {
    const a = side('A', [step(0, [round(1), round(2), round(3)])]);
    const b = side('B', [step(0, [round(1)])]);
    expect(firstDivergence(a, b)).toStrictEqual({ step: 0, round: 2, what: 'B ended step 0 after 1 round; A went on' });
    expect(firstDivergence(b, a)).toStrictEqual({ step: 0, round: 2, what: 'B ended step 0 after 1 round; A went on' });
    const two = side('C', [step(0, [round(1), round(2)])]);
    expect(firstDivergence(two, a)).toStrictEqual({ step: 0, round: 3, what: 'C ended step 0 after 2 rounds; A went on' });
  });

  it('reads a step one side never reached as no rounds there', () => {
    const a = side('A', [step(0, [round(1)]), step(1, [round(1)])]);
    const b = side('B', [step(0, [round(1)])]);
    expect(firstDivergence(a, b)).toStrictEqual({ step: 1, round: 1, what: 'B ended step 1 after 0 rounds; A went on' });
    expect(firstDivergence(b, a)).toStrictEqual({ step: 1, round: 1, what: 'B ended step 1 after 0 rounds; A went on' });
  });

  it('goes through the steps in order, whatever order each side lists them in', () => {
    const a = side('A', [step(2, [round(1, { text: { text: 'x' } })]), step(1, [round(1, { text: { text: 'x' } })])]);
    const b = side('B', [step(1, [round(1, { text: { text: 'y' } })]), step(2, [round(1, { text: { text: 'y' } })])]);
    expect(firstDivergence(a, b)?.step).toBe(1);
    const c = side('C', [step(10, [round(1, { text: { text: 'x' } })]), step(9, [round(1)])]);
    const d = side('D', [step(9, [round(1)]), step(10, [round(1, { text: { text: 'y' } })])]);
    expect(firstDivergence(c, d)?.step).toBe(10);
  });

  it('gives the round as recorded, at the first round that differs', () => {
    const a = side('A', [step(0, [round(4), round(7, { text: { text: 'x' } })])]);
    const b = side('B', [step(0, [round(4), round(7, { text: { text: 'y' } })])]);
    expect(firstDivergence(a, b)).toStrictEqual({ step: 0, round: 7, what: "the model's text differs" });
  });
});
