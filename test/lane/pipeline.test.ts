// The call pipeline alone: the real breaker, circuits and repeat guard in front of a wire that
// answers as each test scripts it, with no server and no transport. Every decision is asserted
// whole, so a field added or dropped (an errorType, a probe flag) fails here.
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallPipeline } from '../../src/lane/calls.ts';
import type { CallSite, Mechanisms } from '../../src/lane/calls.ts';
import { RepeatGuard, ServerCircuits, TurnBreaker } from '../../src/reliability/index.ts';

afterEach(() => vi.useRealTimers());

const ok = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });
const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** A wire that answers from `replies` in order and counts what was sent. */
function wire(...replies: (CallToolResult | (() => never))[]) {
  const sent = { count: 0 };
  const send = async (): Promise<CallToolResult> => {
    const reply = replies[Math.min(sent.count, replies.length - 1)]!;
    sent.count += 1;
    return typeof reply === 'function' ? reply() : reply;
  };
  return { sent, send };
}

const throws = (error: unknown) => (): never => {
  throw error;
};
const timeout = () => new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out');

const site = (over: Partial<CallSite> = {}): CallSite => ({ name: 's__build', server: 's', key: 'k1', turn: 1, round: 1, ...over });

function pipeline(over: Partial<Mechanisms> = {}): CallPipeline {
  const p = new CallPipeline({ isDeterministic: () => false, deadline: true, ...over });
  p.openTurn(1);
  return p;
}

describe('what the wire answered', () => {
  it('passes a result through as ok, with nothing else on the decision', async () => {
    const { send } = wire(ok('built'));
    expect(await pipeline().call(site(), send)).toEqual({ text: 'built', outcome: 'ok' });
    const explicit = wire({ content: [{ type: 'text', text: 'fine' }], isError: false });
    expect(await pipeline().call(site(), explicit.send)).toEqual({ text: 'fine', outcome: 'ok' });
  });

  it('records an isError result as a failed call of type tool_error', async () => {
    const { send } = wire(toolError('no such file'));
    expect(await pipeline().call(site(), send)).toEqual({ text: 'no such file', outcome: 'failed', errorType: 'tool_error' });
  });

  it('says how long a timed-out call waited and that it may still run, with the deadline on', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    // Not at zero: the wait is measured from when the call started, not from the clock's origin.
    vi.advanceTimersByTime(50_000);
    const late = () => {
      vi.advanceTimersByTime(2_340);
      throw timeout();
    };
    const decision = await pipeline().call(site(), wire(late).send);
    expect(decision).toEqual({
      text: 'The call to s__build got no answer within 2.3 s and was abandoned. The tool may still be running on the server, so what it does may still happen.',
      outcome: 'timeout',
      errorType: 'timeout',
    });
  });

  it('records a call whose step stopped as an abandoned timeout, whatever the wire threw, and counts it against the server', async () => {
    const stop = new AbortController();
    stop.abort(new Error('the step time limit passed'));
    const circuits = new ServerCircuits({ threshold: 1, clock: () => 0 });
    const breaker = new TurnBreaker();
    const p = pipeline({ circuits, breaker });
    const decision = await p.call(site({ signal: stop.signal }), wire(throws(new ProtocolError(-32603, 'aborted'))).send);
    expect(decision).toEqual({
      text: 'The step ended while s__build was running, so the harness stopped waiting and asked the server to cancel it; the tool may still have done its work.',
      outcome: 'timeout',
      errorType: 'abandoned',
    });
    // As a timeout: the server's circuit counts it, the breaker does not refuse the call again.
    expect(circuits.check('s').allowed).toBe(false);
    expect(breaker.checkKey('s__build', 'k1').allowed).toBe(true);
  });

  it('judges a call by what the wire answered while its step\'s signal has not fired', async () => {
    const running = new AbortController();
    const decision = await pipeline().call(site({ signal: running.signal }), wire(throws(timeout())).send);
    expect(decision).toMatchObject({ outcome: 'timeout', errorType: 'timeout' });
  });

  it('gives the SDK\'s own timeout text with the deadline off', async () => {
    const decision = await pipeline({ deadline: false }).call(site(), wire(throws(timeout())).send);
    expect(decision).toEqual({ text: 'MCP error -32001: Request timed out', outcome: 'timeout', errorType: 'timeout' });
  });

  it('types a thrown protocol error by its code, any other error by its name, and anything else as Error', async () => {
    const decide = (error: unknown) => pipeline().call(site(), wire(throws(error)).send);
    expect(await decide(new ProtocolError(-32603, 'disk on fire'))).toEqual({
      text: 'MCP error -32603: disk on fire', outcome: 'failed', errorType: '-32603',
    });
    expect(await decide(new TypeError('fetch failed'))).toEqual({ text: 'fetch failed', outcome: 'failed', errorType: 'TypeError' });
    expect(await decide('closed')).toEqual({ text: 'closed', outcome: 'failed', errorType: 'Error' });
    expect(await decide(undefined)).toEqual({ text: 'undefined', outcome: 'failed', errorType: 'Error' });
  });
});

describe('the breaker', () => {
  it('refuses an identical call that failed earlier in the turn, with the recorded error, and sends it again next turn', async () => {
    const p = pipeline({ breaker: new TurnBreaker() });
    const { sent, send } = wire(toolError('no such file'), ok('found'));
    await p.call(site({ round: 2 }), send);
    const refused = await p.call(site({ round: 3 }), send);
    expect(refused).toEqual({
      text: 'no such file\nNot sent again: the identical call failed at round 2 of this turn with the error above.',
      outcome: 'refused',
      errorType: 'breaker',
    });
    expect(sent.count).toBe(1);
    // Another call of the same tool is not the same call.
    expect(await p.call(site({ key: 'k2', round: 3 }), send)).toEqual({ text: 'found', outcome: 'ok' });
    p.openTurn(2);
    expect(await p.call(site({ turn: 2 }), send)).toEqual({ text: 'found', outcome: 'ok' });
    expect(sent.count).toBe(3);
  });

  it("remembers a failure for the server's incarnation that gave it: the restarted server is sent the call, and its own failure is kept", async () => {
    const p = pipeline({ breaker: new TurnBreaker() });
    const { sent, send } = wire(throws(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed')), toolError('still broken'));
    await p.call(site({ round: 1, incarnation: 0 }), send);
    expect(await p.call(site({ round: 2, incarnation: 0 }), send)).toMatchObject({ outcome: 'refused' });
    expect(await p.call(site({ round: 3, incarnation: 1 }), send)).toEqual({ text: 'still broken', outcome: 'failed', errorType: 'tool_error' });
    expect(await p.call(site({ round: 4, incarnation: 1 }), send)).toEqual({
      text: 'still broken\nNot sent again: the identical call failed at round 3 of this turn with the error above.', outcome: 'refused', errorType: 'breaker',
    });
    expect(sent.count).toBe(2);
  });

  it('keeps a thrown error as a failure too', async () => {
    const p = pipeline({ breaker: new TurnBreaker() });
    const { sent, send } = wire(throws(new TypeError('fetch failed')));
    await p.call(site(), send);
    expect(await p.call(site({ round: 2 }), send)).toMatchObject({ outcome: 'refused', errorType: 'breaker' });
    expect(sent.count).toBe(1);
  });

  it('does not keep a timeout: a long wait asked again is sent again', async () => {
    const p = pipeline({ breaker: new TurnBreaker() });
    const { sent, send } = wire(throws(timeout()), ok('built'));
    await p.call(site(), send);
    expect(await p.call(site({ round: 2 }), send)).toEqual({ text: 'built', outcome: 'ok' });
    expect(sent.count).toBe(2);
  });

  it('is not asked for a call that succeeded, off, or with nothing failed', async () => {
    const off = pipeline();
    const failing = wire(toolError('no such file'));
    await off.call(site(), failing.send);
    expect(await off.call(site({ round: 2 }), failing.send)).toMatchObject({ outcome: 'failed' });
    expect(failing.sent.count).toBe(2);
    const on = pipeline({ breaker: new TurnBreaker() });
    const fine = wire(ok('built'));
    await on.call(site(), fine.send);
    expect(await on.call(site({ round: 2 }), fine.send)).toEqual({ text: 'built', outcome: 'ok' });
    expect(fine.sent.count).toBe(2);
  });
});

describe('the repeat guard', () => {
  const deterministic = (name: string) => name === 's__lookup';

  it('answers the third identical call to a deterministic tool short, pointing at the first answer', async () => {
    const p = pipeline({ isDeterministic: deterministic, repeats: new RepeatGuard({ isDeterministic: deterministic }) });
    const { sent, send } = wire(ok('dialect: sqlite'));
    const lookup = (round: number) => p.call(site({ name: 's__lookup', turn: 1, round }), send);
    expect(await lookup(4)).toEqual({ text: 'dialect: sqlite', outcome: 'ok' });
    await lookup(5);
    expect(await lookup(6)).toEqual({ text: 'Identical to the answer at turn 1, round 4; asked 3 times.', outcome: 'short_circuited' });
    expect(sent.count).toBe(2);
  });

  it('points only at a full answer: failed twins are sent again', async () => {
    const p = pipeline({ isDeterministic: deterministic, repeats: new RepeatGuard({ isDeterministic: deterministic }) });
    const { sent, send } = wire(toolError('busy'), toolError('busy'), ok('dialect: sqlite'), ok('dialect: sqlite'));
    const results = [];
    for (const round of [1, 2, 3, 4]) results.push((await p.call(site({ name: 's__lookup', round }), send)).outcome);
    expect(results).toEqual(['failed', 'failed', 'ok', 'short_circuited']);
    expect(sent.count).toBe(3);
  });

  it('never answers short a tool the lane does not hold deterministic', async () => {
    // The guard would short-circuit anything; what the lane holds deterministic decides.
    const p = pipeline({ isDeterministic: deterministic, repeats: new RepeatGuard({ isDeterministic: () => true }) });
    const { sent, send } = wire(ok('line 1'));
    for (const round of [1, 2, 3, 4]) expect(await p.call(site({ name: 's__tail', round }), send)).toEqual({ text: 'line 1', outcome: 'ok' });
    expect(sent.count).toBe(4);
  });
});

describe('the server circuit', () => {
  it('opens after three failures, timeouts included, and refuses without a round trip', async () => {
    let now = Date.UTC(2026, 0, 1);
    const p = pipeline({ circuits: new ServerCircuits({ clock: () => now }) });
    const { sent, send } = wire(toolError('down'), throws(timeout()), throws(new TypeError('fetch failed')), ok('up'));
    for (const round of [1, 2, 3]) await p.call(site({ round }), send);
    now += 1_000;
    expect(await p.call(site({ round: 4 }), send)).toEqual({
      text: 'server s unavailable since 2026-01-01T00:00:00.000Z after 3 failures, retry after 59 s',
      outcome: 'unavailable',
      errorType: 'circuit_open',
    });
    expect(sent.count).toBe(3);
    // After the cool-down one probe goes through, and says so; its success closes the circuit.
    now += 59_000;
    expect(await p.call(site({ round: 5 }), send)).toEqual({ text: 'up', outcome: 'ok', probe: true });
    expect(await p.call(site({ round: 6 }), send)).toEqual({ text: 'up', outcome: 'ok' });
    expect(sent.count).toBe(5);
  });

  it('forgets failures at a success', async () => {
    const p = pipeline({ circuits: new ServerCircuits({ clock: () => 0 }) });
    const { sent, send } = wire(toolError('down'), toolError('down'), ok('up'), toolError('down'), toolError('down'), ok('up'));
    const outcomes = [];
    for (const round of [1, 2, 3, 4, 5, 6]) outcomes.push((await p.call(site({ round }), send)).outcome);
    expect(outcomes).toEqual(['failed', 'failed', 'ok', 'failed', 'failed', 'ok']);
    expect(sent.count).toBe(6);
  });

  it('counts a refused or short-circuited call neither for nor against the server', async () => {
    const deterministic = () => true;
    const circuits = new ServerCircuits({ clock: () => 0 });
    const p = pipeline({ breaker: new TurnBreaker(), circuits, isDeterministic: deterministic, repeats: new RepeatGuard({ isDeterministic: deterministic }) });
    const { send } = wire(toolError('down'), toolError('down'));
    await p.call(site({ key: 'a' }), send);
    await p.call(site({ key: 'b' }), send);
    // Refused twice: no more failures reach the circuit, which stays closed.
    expect((await p.call(site({ key: 'a', round: 2 }), send)).outcome).toBe('refused');
    expect((await p.call(site({ key: 'b', round: 2 }), send)).outcome).toBe('refused');
    expect(circuits.state('s')).toBe('closed');
  });
});
