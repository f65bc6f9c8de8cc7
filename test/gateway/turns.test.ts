// Where turns begin on a long-lived session, with the clock moved by hand.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TURN_POLICY, formatTurnPolicy, parseTurnPolicy, TurnClock } from '../../src/gateway/turns.ts';
import { fakeClock } from '../lane/scripted.ts';

describe('the turn policy text', () => {
  it('reads each boundary', () => {
    expect(parseTurnPolicy('list,meta,idle=60')).toEqual(DEFAULT_TURN_POLICY);
    expect(parseTurnPolicy('idle=1.5s')).toEqual({ list: false, meta: false, idleMs: 1500 });
    expect(parseTurnPolicy(' list , idle=0 ')).toEqual({ list: true, meta: false, idleMs: undefined });
    expect(formatTurnPolicy(DEFAULT_TURN_POLICY)).toBe('list,meta,idle=60');
  });

  it('refuses a word it does not know, and a policy with no boundary, in one line each', () => {
    expect(() => parseTurnPolicy('list,calls')).toThrow('--turn list,calls: "calls" is not list, meta or idle=<seconds>; e.g. --turn list,meta,idle=60');
    expect(() => parseTurnPolicy('idle=0')).toThrow('--turn idle=0: no boundary left, so the whole session would be one turn; give at least one of list, meta, idle=<seconds>');
  });
});

describe('turn boundaries', () => {
  it('opens the first turn at the first request, whatever it is', () => {
    const turns = new TurnClock({ list: false, meta: true, idleMs: undefined }, fakeClock().now);
    expect(turns.begins({ kind: 'call' })).toBe(true);
    expect(turns.begins({ kind: 'call' })).toBe(false);
  });

  it('begins a turn at each tools/list with `list`, and not without it', () => {
    const on = new TurnClock({ list: true, meta: false, idleMs: undefined }, fakeClock().now);
    const off = new TurnClock({ list: false, meta: false, idleMs: 1000 }, fakeClock().now);
    expect([on.begins({ kind: 'list' }), on.begins({ kind: 'call' }), on.begins({ kind: 'list' })]).toEqual([true, false, true]);
    expect([off.begins({ kind: 'list' }), off.begins({ kind: 'call' }), off.begins({ kind: 'list' })]).toEqual([true, false, false]);
  });

  it('begins a turn when the meta value changes, and keeps it while the value stays or is absent', () => {
    const turns = new TurnClock({ list: false, meta: true, idleMs: undefined }, fakeClock().now);
    const at = (value?: unknown) => turns.begins({ kind: 'call', meta: value === undefined ? {} : { 'ladder/turn': value } });
    expect([at('a'), at('a'), at(), at('b'), at({ n: 1 }), at({ n: 1 })]).toEqual([true, false, false, true, true, false]);
  });

  it('begins a turn after the idle gap, measured from the last call ending, never while one is in flight', () => {
    const clock = fakeClock();
    const turns = new TurnClock({ list: false, meta: false, idleMs: 1000 }, clock.now);
    expect(turns.begins({ kind: 'call' })).toBe(true);
    turns.callStarted();
    clock.advance(5000);
    // A long call is still running: a second call now belongs to the same turn.
    expect(turns.begins({ kind: 'call' })).toBe(false);
    turns.callEnded();
    clock.advance(999);
    expect(turns.begins({ kind: 'call' })).toBe(false);
    clock.advance(1000);
    expect(turns.begins({ kind: 'call' })).toBe(true);
  });

  it('does not let a tools/list begin a turn by idleness alone', () => {
    const clock = fakeClock();
    const turns = new TurnClock({ list: false, meta: false, idleMs: 1000 }, clock.now);
    turns.begins({ kind: 'call' });
    clock.advance(2000);
    expect(turns.begins({ kind: 'list' })).toBe(false);
  });
});
