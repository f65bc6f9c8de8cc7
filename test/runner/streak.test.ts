// The errored streak: when a run gives up on a provider, a server or a harness that keeps
// failing, and who the stop line blames.
import { describe, expect, it } from 'vitest';
import type { PassOutcome } from '../../src/runner/pass.ts';
import type { PassId } from '../../src/runner/plan.ts';
import { blame, createStreak, ERRORED_STREAK_LIMIT, erroredCause, keepsTraces } from '../../src/runner/streak.ts';
import type { Errored } from '../../src/runner/streak.ts';

const id = (pass: number): PassId => ({ rung: 'r', arm: 'on', armSlug: 'on', pass, seed: pass });
const down: Errored = { cause: 'connection refused', line: 'm: connection failed: connection refused', by: 'model' };
const other: Errored = { cause: 'HTTP 500: boom', line: 'm: server error', by: 'model' };
const refused: Errored = { cause: 'refused', line: 'server "s" did not answer: MCP error -32022: Unsupported protocol version', by: 'server' };
const timedOut: Errored = { cause: 'timeout', line: 'server "s" did not answer: MCP error -32001: Request timed out', by: 'server' };
const bug: Errored = { cause: 'TypeError: x', line: 'TypeError: x', by: 'ladder' };
const diverged: Errored = { cause: 'differs', line: 'replay of results/a diverged at step 1 round 1: message 7 (user) differs', by: 'replay' };

describe('the errored streak', () => {
  it('is three passes by default', () => {
    expect(ERRORED_STREAK_LIMIT).toBe(3);
  });

  it('ends after the limit of errored passes in a row failed by one party, and names them', () => {
    const streak = createStreak();
    expect(streak.record(id(0), down)).toBeUndefined();
    expect(streak.record(id(1), down)).toBeUndefined();
    expect(streak.record(id(2), down)).toStrictEqual({ ids: [id(0), id(1), id(2)], line: down.line, by: ['model', 'model', 'model'] });
  });

  it('ends on a server whose passes fail by turns with two causes (a refusal and a timeout)', () => {
    const streak = createStreak();
    expect(streak.record(id(0), refused)).toBeUndefined();
    expect(streak.record(id(1), timedOut)).toBeUndefined();
    expect(streak.record(id(2), refused)).toStrictEqual({ ids: [id(0), id(1), id(2)], line: refused.line, by: ['server', 'server', 'server'] });
  });

  it('ends on one party whatever the causes, saying the last pass\'s line', () => {
    const streak = createStreak(2);
    streak.record(id(0), down);
    expect(streak.record(id(1), other)).toStrictEqual({ ids: [id(0), id(1)], line: other.line, by: ['model', 'model'] });
  });

  it('starts again after a pass that did not error', () => {
    const streak = createStreak(2);
    expect(streak.record(id(0), down)).toBeUndefined();
    expect(streak.record(id(1), undefined)).toBeUndefined();
    expect(streak.record(id(2), down)).toBeUndefined();
    expect(streak.record(id(3), down)).toStrictEqual({ ids: [id(2), id(3)], line: down.line, by: ['model', 'model'] });
  });

  it('starts again after a pass another party failed, counting that pass', () => {
    const streak = createStreak(2);
    expect(streak.record(id(0), down)).toBeUndefined();
    expect(streak.record(id(1), refused)).toBeUndefined();
    expect(streak.record(id(2), timedOut)).toStrictEqual({ ids: [id(1), id(2)], line: timedOut.line, by: ['server', 'server'] });
  });

  it('counts the harness\'s own errors as a party of their own', () => {
    const streak = createStreak(2);
    expect(streak.record(id(0), refused)).toBeUndefined();
    expect(streak.record(id(1), bug)).toBeUndefined();
    expect(streak.record(id(2), bug)).toStrictEqual({ ids: [id(1), id(2)], line: bug.line, by: ['ladder', 'ladder'] });
  });

  it('keeps counting past the limit, each pass after it named with the rest', () => {
    const streak = createStreak(2);
    streak.record(id(0), down);
    streak.record(id(1), down);
    expect(streak.record(id(2), down)).toStrictEqual({ ids: [id(0), id(1), id(2)], line: down.line, by: ['model', 'model', 'model'] });
  });

  it('hands out a list the streak does not change afterwards', () => {
    const streak = createStreak(1);
    const first = streak.record(id(0), down)!;
    streak.record(id(1), down);
    expect(first.ids).toStrictEqual([id(0)]);
  });

  it('ends at once at a server that refused the protocol, with the passes that server failed just before', () => {
    const protocol: Errored = { ...refused, refused: true };
    expect(createStreak().record(id(0), protocol)).toStrictEqual({ ids: [id(0)], line: protocol.line, by: ['server'], refused: true });
    const streak = createStreak();
    streak.record(id(0), down);
    streak.record(id(1), timedOut);
    expect(streak.record(id(2), protocol)).toStrictEqual({ ids: [id(1), id(2)], line: protocol.line, by: ['server', 'server'], refused: true });
  });

  it('ends at the first errored pass with a limit of one', () => {
    expect(createStreak(1).record(id(0), down)).toStrictEqual({ ids: [id(0)], line: down.line, by: ['model'] });
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a limit of %s', (limit) => {
    expect(() => createStreak(limit)).toThrow(new RangeError(`streak limit must be an integer >= 1, got ${limit}`));
  });
});

describe('every pass errored', () => {
  it('is every pass recorded when each errored, whoever failed it, with the last line', () => {
    const streak = createStreak();
    streak.record(id(0), refused);
    streak.record(id(1), down);
    streak.record(id(2), bug);
    streak.record(id(3), refused);
    expect(streak.everyErrored()).toStrictEqual({ ids: [id(0), id(1), id(2), id(3)], line: refused.line, by: ['server', 'model', 'ladder', 'server'] });
  });

  it('is every pass of a run shorter than the streak', () => {
    const streak = createStreak();
    streak.record(id(0), refused);
    streak.record(id(1), timedOut);
    expect(streak.everyErrored()).toStrictEqual({ ids: [id(0), id(1)], line: timedOut.line, by: ['server', 'server'] });
  });

  it('is nothing once one pass did not error, even if all after it did', () => {
    const streak = createStreak();
    streak.record(id(0), down);
    streak.record(id(1), undefined);
    streak.record(id(2), down);
    expect(streak.everyErrored()).toBeUndefined();
  });

  it('is nothing when no pass was recorded', () => {
    expect(createStreak().everyErrored()).toBeUndefined();
  });

  it('hands out lists the streak does not change afterwards', () => {
    const streak = createStreak();
    streak.record(id(0), down);
    const first = streak.everyErrored()!;
    streak.record(id(1), refused);
    expect(first).toStrictEqual({ ids: [id(0)], line: down.line, by: ['model'] });
  });
});

describe('who the stop blames', () => {
  it.each([
    ['server', 'a server failed', 'once the server answers'],
    ['model', 'the model failed', 'once the model answers'],
    ['ladder', 'Ladder failed', 'once Ladder is fixed (a bug in Ladder: report it with the line above)'],
  ] as const)('names one party, %s, and when to go on', (party, who, until) => {
    expect(blame([party, party])).toStrictEqual({ who, until });
  });

  it('names each party with its count, most first, when they took turns', () => {
    expect(blame(['model', 'server', 'server'])).toStrictEqual({ who: 'failed by a server 2, the model 1', until: 'once each of them answers' });
    expect(blame(['server', 'model', 'model', 'ladder'])).toStrictEqual({ who: 'failed by the model 2, a server 1, Ladder 1', until: 'once each of them answers' });
  });

  it('says to continue once the server or its setting changes when it refused the protocol, not once it answers', () => {
    const refusedUntil = 'once the server, or the protocol setting it is given, is changed as the line says';
    expect(blame(['server'], true)).toStrictEqual({ who: 'a server failed', until: refusedUntil });
    expect(blame(['server', 'model'], true)).toStrictEqual({ who: 'failed by a server 1, the model 1', until: refusedUntil });
    expect(blame(['server'], false).until).toBe('once the server answers');
  });
});

describe('why a pass errored', () => {
  const step = (reason: string, error?: { cause: string; line: string }) => ({ reason, ...(error === undefined ? {} : { error }) });
  const outcome = (steps: object[], error?: string): PassOutcome => ({ passed: false, steps, ...(error === undefined ? {} : { error }) }) as unknown as PassOutcome;
  const modelError = { cause: down.cause, line: down.line };
  const otherError = { cause: other.cause, line: other.line };

  it('is the pass\'s own error, its servers\', as cause and line, before any step\'s', () => {
    expect(erroredCause(outcome([step('errored', modelError)], 'boom'))).toStrictEqual({ cause: 'boom', line: 'boom', by: 'server' });
  });

  it('says when the pass\'s servers refused the protocol', () => {
    const refusedPass = { ...outcome([], 'server "s" refused'), refused: true as const };
    expect(erroredCause(refusedPass)).toStrictEqual({ cause: 'server "s" refused', line: 'server "s" refused', by: 'server', refused: true });
  });

  it('is the first errored step\'s error, the model\'s', () => {
    expect(erroredCause(outcome([step('passed'), step('errored', modelError), step('errored', otherError)]))).toStrictEqual(down);
  });

  it('passes over a step with an error that did not error, and an errored step with no error', () => {
    expect(erroredCause(outcome([step('time_limit', otherError), step('errored'), step('errored', modelError)]))).toStrictEqual(down);
  });

  it('is nothing when nothing errored', () => {
    expect(erroredCause(outcome([step('passed'), step('errored')]))).toBeUndefined();
    expect(erroredCause(outcome([]))).toBeUndefined();
  });

  it('makes every pass of a replay that diverges, keeps them, and still says every pass errored', () => {
    const streak = createStreak(2);
    for (const pass of [0, 1, 2, 3]) expect(streak.record(id(pass), diverged)).toBeUndefined();
    expect(streak.everyErrored()).toStrictEqual({ ids: [id(0), id(1), id(2), id(3)], line: diverged.line, by: ['replay', 'replay', 'replay', 'replay'] });
    expect(['server', 'model', 'ladder', 'replay'].filter((by) => keepsTraces(by as Errored['by']))).toEqual(['replay']);
    // A divergence between two outages breaks their streak: they were not in a row.
    streak.record(id(4), down);
    streak.record(id(5), diverged);
    expect(streak.record(id(6), down)).toBeUndefined();
  });

  it('blames the replay for a step whose error says the replay diverged, the model for any other', () => {
    const step = (line: string): PassOutcome => ({ passed: false, interrupted: false, steps: [{ step: 0, passed: false, reason: 'errored', checks: [], error: { line, cause: 'x' } }] } as unknown as PassOutcome);
    expect(erroredCause(step(diverged.line))?.by).toBe('replay');
    expect(erroredCause(step('m: server error after 4 attempts: HTTP 500'))?.by).toBe('model');
    expect(blame(['replay'])).toStrictEqual({ who: 'the replay failed', until: 'with the agent and rungs the recording was made with, or record a new run (a replay diverges the same way every time)' });
  });
});
