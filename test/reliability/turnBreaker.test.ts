import { describe, it, expect } from 'vitest';
import { callKey } from '../../src/reliability/callKey.ts';
import { TurnBreaker, type TurnVerdict } from '../../src/reliability/turnBreaker.ts';
import type { TurnBreakerOptions } from '../../src/reliability/turnBreaker.ts';

// The error seed 000's dead browser returned, verbatim, six times in one turn.
const DEAD = [
  'mcp-beaver: upstream MCP session is closed (reconnect also failed:',
  'reconnect upstream MCP "http://127.0.0.1:8931/mcp":',
  'sending "notifications/initialized": Bad Request)',
].join('\n');
const NAVIGATE = 'playwright__browser_navigate';
const ARTIFACT = { url: 'https://example.test/artifact/42' };

/** Plays a turn the way the lane does: check, send only if allowed, record a failure. */
function callDeadTool(breaker: TurnBreaker, round: number, args: unknown = ARTIFACT): TurnVerdict {
  const verdict = breaker.check(NAVIGATE, args);
  if (verdict.allowed) breaker.recordFailure(NAVIGATE, args, round, DEAD);
  return verdict;
}

describe('TurnBreaker, keyed on the call', () => {
  it('sends one of six identical calls to a dead tool and refuses five with its error', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(4);
    const rounds = [1, 5, 7, 7, 9, 9];
    const verdicts = rounds.map((round) => callDeadTool(breaker, round));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(1);
    const refusals = verdicts.slice(1);
    expect(refusals).toHaveLength(5);
    for (const refusal of refusals) {
      expect(refusal).toEqual({
        allowed: false,
        failure: { turn: 4, round: 1, error: DEAD },
        text: `${DEAD}\nNot sent again: the identical call failed at round 1 of this turn with the error above.`,
      });
    }
  });

  it('allows a call that has not failed', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(1);
    expect(breaker.check(NAVIGATE, ARTIFACT)).toEqual({ allowed: true });
  });

  it('lets a corrected call with other arguments through', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(1);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 2, DEAD);
    expect(breaker.check(NAVIGATE, { url: 'https://example.test/artifact/43' })).toEqual({
      allowed: true,
    });
  });

  it('refuses the same arguments given in another key order', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(1);
    breaker.recordFailure('db__query', { sql: 'select 1', limit: 5 }, 3, 'syntax error');
    expect(breaker.check('db__query', { limit: 5, sql: 'select 1' }).allowed).toBe(false);
  });

  it('does not refuse another tool called with the same arguments', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(1);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 2, DEAD);
    expect(breaker.check('web__fetch', ARTIFACT)).toEqual({ allowed: true });
  });

  it('keeps the first failure when the same call is recorded again', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(2);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 3, 'first error');
    breaker.recordFailure(NAVIGATE, ARTIFACT, 6, 'second error');
    const verdict = breaker.check(NAVIGATE, ARTIFACT);
    expect(verdict).toEqual({
      allowed: false,
      failure: { turn: 2, round: 3, error: 'first error' },
      text: 'first error\nNot sent again: the identical call failed at round 3 of this turn with the error above.',
    });
  });

  it('starts a new turn clean', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(1);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 1, DEAD);
    breaker.openTurn(2);
    expect(breaker.check(NAVIGATE, ARTIFACT)).toEqual({ allowed: true });
  });

  it('records a failure under the turn it happened in', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(1);
    breaker.openTurn(7);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 2, DEAD);
    const verdict = breaker.check(NAVIGATE, ARTIFACT);
    expect(verdict.allowed === false && verdict.failure).toEqual({ turn: 7, round: 2, error: DEAD });
  });

  it('is keyed on the call when key is given as call', () => {
    const breaker = new TurnBreaker({ key: 'call' });
    breaker.openTurn(1);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 1, DEAD);
    expect(breaker.check(NAVIGATE, { url: 'other' })).toEqual({ allowed: true });
    expect(breaker.check(NAVIGATE, ARTIFACT).allowed).toBe(false);
  });
});

describe('TurnBreaker, keyed on the tool', () => {
  it('refuses a corrected call to a tool that failed this turn', () => {
    const breaker = new TurnBreaker({ key: 'tool' });
    breaker.openTurn(3);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 2, DEAD);
    expect(breaker.check(NAVIGATE, { url: 'https://example.test/artifact/43' })).toEqual({
      allowed: false,
      failure: { turn: 3, round: 2, error: DEAD },
      text: `${DEAD}\nNot sent again: a call to this tool failed at round 2 of this turn with the error above.`,
    });
  });

  it('keeps the first failure of the tool whatever the arguments of later ones', () => {
    const breaker = new TurnBreaker({ key: 'tool' });
    breaker.openTurn(1);
    breaker.recordFailure(NAVIGATE, { url: 'a' }, 1, 'error a');
    breaker.recordFailure(NAVIGATE, { url: 'b' }, 4, 'error b');
    const verdict = breaker.check(NAVIGATE, { url: 'c' });
    expect(verdict.allowed === false && verdict.failure).toEqual({ turn: 1, round: 1, error: 'error a' });
  });

  it('allows other tools and starts a new turn clean', () => {
    const breaker = new TurnBreaker({ key: 'tool' });
    breaker.openTurn(1);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 1, DEAD);
    expect(breaker.check('web__fetch', ARTIFACT)).toEqual({ allowed: true });
    breaker.openTurn(2);
    expect(breaker.check(NAVIGATE, ARTIFACT)).toEqual({ allowed: true });
  });
});

describe('TurnBreaker with the call key computed by the caller', () => {
  it('refuses through checkKey what recordFailure recorded, and the other way round', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(2);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 1, DEAD);
    expect(breaker.checkKey(NAVIGATE, callKey(NAVIGATE, ARTIFACT))).toEqual(breaker.check(NAVIGATE, ARTIFACT));
    expect(breaker.checkKey(NAVIGATE, callKey(NAVIGATE, ARTIFACT)).allowed).toBe(false);
    breaker.recordFailureKey('db__query', callKey('db__query', { sql: 'select' }), 3, 'syntax error');
    expect(breaker.check('db__query', { sql: 'select' })).toEqual({
      allowed: false,
      failure: { turn: 2, round: 3, error: 'syntax error' },
      text: 'syntax error\nNot sent again: the identical call failed at round 3 of this turn with the error above.',
    });
    expect(breaker.checkKey('db__query', callKey('db__query', { sql: 'select 2' }))).toEqual({ allowed: true });
  });

  it('keyed on the tool, ignores the key it is given', () => {
    const breaker = new TurnBreaker({ key: 'tool' });
    breaker.openTurn(1);
    breaker.recordFailureKey(NAVIGATE, callKey(NAVIGATE, { url: 'a' }), 1, 'error a');
    expect(breaker.check(NAVIGATE, { url: 'b' }).allowed).toBe(false);
    expect(breaker.checkKey(NAVIGATE, callKey(NAVIGATE, { url: 'c' })).allowed).toBe(false);
    expect(breaker.checkKey('web__fetch', callKey(NAVIGATE, { url: 'a' }))).toEqual({ allowed: true });
  });

  it('keyed on the tool, never serialises the arguments, so arguments with no JSON form are refused too', () => {
    const breaker = new TurnBreaker({ key: 'tool' });
    breaker.openTurn(1);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    breaker.recordFailure(NAVIGATE, cycle, 1, DEAD);
    expect(breaker.check(NAVIGATE, { n: 1n }).allowed).toBe(false);
  });
});

describe('TurnBreaker across a restart of the server (its incarnation)', () => {
  it('sends the identical call again to a server replaced since it failed, and refuses it while the same one runs', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(3);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 4, 'MCP error -32000: Connection closed', 0);
    expect(breaker.check(NAVIGATE, ARTIFACT, 1)).toEqual({ allowed: true });
    expect(breaker.checkKey(NAVIGATE, callKey(NAVIGATE, ARTIFACT), 1)).toEqual({ allowed: true });
    expect(breaker.check(NAVIGATE, ARTIFACT, 0)).toEqual({
      allowed: false,
      failure: { turn: 3, round: 4, error: 'MCP error -32000: Connection closed' },
      text: 'MCP error -32000: Connection closed\nNot sent again: the identical call failed at round 4 of this turn with the error above.',
    });
  });

  it('is incarnation 0 when none is given, on either side', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(1);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 1, DEAD);
    expect(breaker.check(NAVIGATE, ARTIFACT, 0).allowed).toBe(false);
    expect(breaker.check(NAVIGATE, ARTIFACT, 1).allowed).toBe(true);
    breaker.recordFailureKey('db__query', callKey('db__query', {}), 2, 'syntax error', 0);
    expect(breaker.checkKey('db__query', callKey('db__query', {})).allowed).toBe(false);
  });

  it('remembers the failure of the new incarnation, with its own round and error', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(2);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 1, 'Connection closed', 0);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 6, 'still broken', 1);
    expect(breaker.check(NAVIGATE, ARTIFACT, 1)).toEqual({
      allowed: false,
      failure: { turn: 2, round: 6, error: 'still broken' },
      text: 'still broken\nNot sent again: the identical call failed at round 6 of this turn with the error above.',
    });
    expect(breaker.check(NAVIGATE, ARTIFACT, 0)).toEqual({ allowed: true });
  });

  it('keeps the first failure of an incarnation when it fails again', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(2);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 2, 'first', 1);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 5, 'second', 1);
    const verdict = breaker.check(NAVIGATE, ARTIFACT, 1);
    expect(verdict.allowed === false && verdict.failure).toEqual({ turn: 2, round: 2, error: 'first' });
  });

  it('changes nothing for a late failure of the incarnation already replaced', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(5);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 3, 'failed on the new one', 2);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 1, 'Connection closed', 1);
    const verdict = breaker.check(NAVIGATE, ARTIFACT, 2);
    expect(verdict.allowed === false && verdict.failure).toEqual({ turn: 5, round: 3, error: 'failed on the new one' });
    expect(breaker.check(NAVIGATE, ARTIFACT, 1)).toEqual({ allowed: true });
  });

  it('keyed on the tool, lets any call to it through once its server is replaced', () => {
    const breaker = new TurnBreaker({ key: 'tool' });
    breaker.openTurn(1);
    breaker.recordFailure(NAVIGATE, { url: 'a' }, 1, DEAD, 4);
    expect(breaker.check(NAVIGATE, { url: 'b' }, 4).allowed).toBe(false);
    expect(breaker.check(NAVIGATE, { url: 'a' }, 5)).toEqual({ allowed: true });
  });

  it('forgets every incarnation\'s failures when a turn opens', () => {
    const breaker = new TurnBreaker();
    breaker.openTurn(1);
    breaker.recordFailure(NAVIGATE, ARTIFACT, 1, DEAD, 3);
    breaker.openTurn(2);
    expect(breaker.check(NAVIGATE, ARTIFACT, 3)).toEqual({ allowed: true });
  });
});

describe('TurnBreaker options', () => {
  it.each([['Tool'], [''], ['args'], [null], [3]])('rejects key %j with a RangeError naming it', (key) => {
    const options = { key } as unknown as TurnBreakerOptions;
    expect(() => new TurnBreaker(options)).toThrow(
      new RangeError(`TurnBreaker: key must be 'call' or 'tool', got ${String(key)}`),
    );
  });
});
