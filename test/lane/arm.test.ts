import { describe, expect, it } from 'vitest';
import { ARM_OFF, ARM_ON, ArmError, MECHANISMS, formatArm, parseArm, stepValue } from '../../src/lane/arm.ts';

describe('parseArm', () => {
  it('reads on and off as every mechanism on or off', () => {
    expect(parseArm('on')).toEqual(ARM_ON);
    expect(parseArm('off')).toEqual(ARM_OFF);
    expect(MECHANISMS.every((m) => ARM_ON[m] && !ARM_OFF[m])).toBe(true);
  });

  it('starts a list from on, so it names only what differs', () => {
    expect(parseArm('breaker=off,repeats=on')).toEqual({ ...ARM_ON, breaker: false });
    expect(parseArm(' circuit = off , roster=off ')).toEqual({ ...ARM_ON, circuit: false, roster: false });
  });

  it('takes a leading base of off', () => {
    expect(parseArm('off,roster=on')).toEqual({ ...ARM_OFF, roster: true });
    expect(parseArm('on,deadline=off')).toEqual({ ...ARM_ON, deadline: false });
  });

  it('reads breaker=tool as the breaker on, keyed on the tool', () => {
    expect(parseArm('breaker=tool')).toEqual({ ...ARM_ON, breakerKey: 'tool' });
    expect(parseArm('off,breaker=tool')).toEqual({ ...ARM_OFF, breaker: true, breakerKey: 'tool' });
  });

  it('reads roster=strict as the roster on, listing again what says it is immediately stale; roster=on and off reset it', () => {
    expect(parseArm('roster=strict')).toEqual({ ...ARM_ON, rosterTtl: 'strict' });
    expect(parseArm('off,roster=strict')).toEqual({ ...ARM_OFF, roster: true, rosterTtl: 'strict' });
    expect(parseArm('roster=on').rosterTtl).toBe('own');
    expect(parseArm('roster=off')).toEqual({ ...ARM_ON, roster: false });
  });

  it.each([
    ['breaker=strict', /"breaker=strict" needs the value on or off/],
    ['roster=tool', /"roster=tool" needs the value on or off/],
    ['nonsense', /unknown mechanism "nonsense"/],
    ['breaker=maybe', /"breaker=maybe" needs the value on or off/],
    ['repeats=tool', /"repeats=tool" needs the value on or off/],
    ['circuit', /"circuit" needs the value on or off/],
    ['breaker=on=off', /needs the value on or off/],
    ['breaker=off,breaker=on', /breaker is set twice/],
    ['breaker=off,,roster=on', /expected "on", "off"/],
    ['', /expected "on", "off"/],
    ['roster=off,on', /unknown mechanism "on"/],
  ])('rejects %j in one line that lists the valid names', (text, problem) => {
    expect(() => parseArm(text)).toThrow(ArmError);
    expect(() => parseArm(text)).toThrow(problem);
    const message = (() => { try { parseArm(text); } catch (e) { return (e as Error).message; } return ''; })();
    expect(message).toContain('breaker, circuit, repeats, deadline, roster');
    expect(message.split('\n')).toHaveLength(1);
  });
});

describe('parseArm messages', () => {
  const USAGE = 'expected "on", "off" or a list like "breaker=off,repeats=on" over breaker, circuit, repeats, deadline, roster, cap ' +
    '(values on|off, and breaker=tool, roster=strict); a list may start with "on" or "off" as its base (default on), ' +
    'and may set ceiling or timeLimit to a number or a factor of the rung\'s own (ceiling=24, timeLimit=x0.5), ' +
    'and protocol to auto, legacy, 2026-07-28';
  const message = (text: string): string => {
    try {
      parseArm(text);
    } catch (error) {
      expect((error as Error).name).toBe('ArmError');
      return (error as Error).message;
    }
    return 'no error';
  };

  it('says where, what is wrong, and the whole usage', () => {
    expect(message('breaker=off,,roster=on')).toBe(`arm "breaker=off,,roster=on": ${USAGE}`);
    expect(message('on,')).toBe(`arm "on,": ${USAGE}`);
    expect(message('retries=on')).toBe(`arm "retries=on": unknown mechanism "retries"; ${USAGE}`);
    expect(message('cap=on,cap=off')).toBe(`arm "cap=on,cap=off": cap is set twice; ${USAGE}`);
    expect(message('cap=maybe')).toBe(`arm "cap=maybe": "cap=maybe" needs the value on or off; ${USAGE}`);
    expect(message('ceiling=0')).toBe(`arm "ceiling=0": "ceiling=0" needs a positive number (whole) or a factor like x2; ${USAGE}`);
    expect(message('timeLimit=x0')).toBe(`arm "timeLimit=x0": "timeLimit=x0" needs a positive number or a factor like x2; ${USAGE}`);
    expect(message('protocol=2025-11-25')).toBe(`arm "protocol=2025-11-25": "protocol=2025-11-25" needs one of auto, legacy, 2026-07-28; ${USAGE}`);
    expect(message('protocol')).toBe(`arm "protocol": "protocol" needs one of auto, legacy, 2026-07-28; ${USAGE}`);
    expect(message('protocol=auto,protocol=legacy')).toBe(`arm "protocol=auto,protocol=legacy": protocol is set twice; ${USAGE}`);
  });

  it('reads a base and items with spaces around them', () => {
    expect(parseArm(' off , roster = on ')).toEqual({ ...ARM_OFF, roster: true });
    expect(parseArm(' on ')).toEqual(ARM_ON);
  });
});

describe('formatArm', () => {
  it('writes on, off, or the full list, and parseArm reads each back', () => {
    const arms = ['on', 'off', 'breaker=off', 'off,repeats=on', 'breaker=tool', 'circuit=off,deadline=off', 'roster=strict'].map(parseArm);
    expect(arms.map(formatArm)).toEqual([
      'on',
      'off',
      'breaker=off,circuit=on,repeats=on,deadline=on,roster=on,cap=on',
      'breaker=off,circuit=off,repeats=on,deadline=off,roster=off,cap=off',
      'breaker=tool,circuit=on,repeats=on,deadline=on,roster=on,cap=on',
      'breaker=on,circuit=off,repeats=on,deadline=off,roster=on,cap=on',
      'breaker=on,circuit=on,repeats=on,deadline=on,roster=strict,cap=on',
    ]);
    for (const arm of arms) expect(parseArm(formatArm(arm))).toEqual(arm);
  });

  it('writes a breaker that is off as off, whatever key it would use when on', () => {
    // breakerKey matters only with the breaker on (Arm's own comment); an arm built in code may carry either.
    expect(formatArm({ ...ARM_OFF, breakerKey: 'tool' })).toBe('off');
    expect(formatArm({ ...ARM_ON, breaker: false, breakerKey: 'tool' })).toBe('breaker=off,circuit=on,repeats=on,deadline=on,roster=on,cap=on');
    expect(formatArm({ ...ARM_ON, roster: false, rosterTtl: 'strict' })).toBe('breaker=on,circuit=on,repeats=on,deadline=on,roster=off,cap=on');
  });
});

describe('parseArm, word for word', () => {
  const messageOf = (text: string): string => {
    try {
      parseArm(text);
    } catch (error) {
      expect(error).toBeInstanceOf(ArmError);
      expect((error as Error).name).toBe('ArmError');
      return (error as Error).message;
    }
    throw new Error(`expected ${JSON.stringify(text)} to be refused`);
  };

  it('names the arm as typed at the start of every problem, then the problem, then the usage', () => {
    expect(messageOf('nonsense')).toMatch(/^arm "nonsense": unknown mechanism "nonsense"; expected "on", "off" or a list/);
    expect(messageOf('breaker=off,,roster=on')).toMatch(/^arm "breaker=off,,roster=on": expected "on", "off" or a list/);
    expect(messageOf('breaker=off, ,roster=on')).toMatch(/^arm "breaker=off, ,roster=on": expected "on", "off" or a list/);
    expect(messageOf('')).toMatch(/^arm "": expected "on", "off"/);
    expect(messageOf('circuit')).toMatch(/^arm "circuit": "circuit" needs the value on or off; /);
    expect(messageOf('ceiling=2,ceiling=3')).toMatch(/^arm "ceiling=2,ceiling=3": ceiling is set twice; /);
    const usage = messageOf('x');
    expect(usage).toContain('(values on|off, and breaker=tool, roster=strict); a list may start with "on" or "off" as its base (default on), ');
    expect(usage).toContain('and may set ceiling or timeLimit to a number or a factor of the rung\'s own (ceiling=24, timeLimit=x0.5)');
  });

  it('trims every item, a leading base included', () => {
    expect(parseArm(' off , roster = on ')).toEqual({ ...ARM_OFF, roster: true });
    expect(parseArm(' on ,ceiling = x2 ')).toEqual({ ...ARM_ON, steps: { ceiling: { factor: 2 } } });
  });

  it('reads every digit of a number and of a factor, and nothing around them', () => {
    expect(parseArm('ceiling=x12').steps).toEqual({ ceiling: { factor: 12 } });
    expect(parseArm('ceiling=120').steps).toEqual({ ceiling: { absolute: 120 } });
    expect(parseArm('timeLimit=1.25').steps).toEqual({ timeLimit: { absolute: 1.25 } });
    expect(parseArm('timeLimit=x1.25').steps).toEqual({ timeLimit: { factor: 1.25 } });
    for (const bad of ['ceiling=ax2', 'timeLimit=a5', 'timeLimit=5a', 'timeLimit=x2a', 'timeLimit=1.5.2']) {
      expect(messageOf(bad)).toContain('needs a positive number');
    }
  });
});

describe('arms that set step parameters', () => {
  it('reads an absolute ceiling or time limit, or a factor of the rung\'s own', () => {
    expect(parseArm('off,ceiling=24')).toEqual({ ...ARM_OFF, steps: { ceiling: { absolute: 24 } } });
    expect(parseArm('off,ceiling=x2')).toEqual({ ...ARM_OFF, steps: { ceiling: { factor: 2 } } });
    expect(parseArm('timeLimit=x0.5')).toEqual({ ...ARM_ON, steps: { timeLimit: { factor: 0.5 } } });
    expect(parseArm('timeLimit=90.5,ceiling=x1.50')).toEqual({ ...ARM_ON, steps: { timeLimit: { absolute: 90.5 }, ceiling: { factor: 1.5 } } });
    expect(parseArm('breaker=off,ceiling=3')).toEqual({ ...ARM_ON, breaker: false, steps: { ceiling: { absolute: 3 } } });
  });

  it('sets nothing when no parameter is named', () => {
    expect(parseArm('on').steps).toEqual({});
    expect(parseArm('off,breaker=on').steps).toEqual({});
  });

  it.each([
    ['ceiling=0', /"ceiling=0" needs a positive number \(whole\) or a factor like x2/],
    ['ceiling=1.5', /"ceiling=1.5" needs a positive number \(whole\)/],
    ['ceiling=x0', /"ceiling=x0" needs/],
    ['ceiling=x', /"ceiling=x" needs/],
    ['ceiling=2x', /"ceiling=2x" needs/],
    ['ceiling=x-1', /"ceiling=x-1" needs/],
    ['ceiling=-3', /"ceiling=-3" needs/],
    ['ceiling=x1.', /"ceiling=x1." needs/],
    ['ceiling=.5', /"ceiling=.5" needs/],
    ['ceiling= 4 2', /"ceiling= 4 2" needs/],
    ['ceiling', /"ceiling" needs/],
    ['ceiling=x2=3', /"ceiling=x2=3" needs/],
    ['timeLimit=0', /"timeLimit=0" needs a positive number or a factor like x2/],
    ['timeLimit=x0.0', /"timeLimit=x0.0" needs/],
    ['timeLimit=soon', /"timeLimit=soon" needs/],
    ['ceiling=2,ceiling=x2', /ceiling is set twice/],
  ])('rejects %j in one line', (text, problem) => {
    expect(() => parseArm(text)).toThrow(ArmError);
    expect(() => parseArm(text)).toThrow(problem);
    const message = (() => { try { parseArm(text); } catch (e) { return (e as Error).message; } return ''; })();
    expect(message).toContain('ceiling or timeLimit to a number or a factor');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('writes the parameters after the mechanisms, and parseArm reads them back', () => {
    const texts = ['off,ceiling=x2', 'on,ceiling=24', 'timeLimit=x0.5,ceiling=12', 'breaker=off,timeLimit=120', 'off,ceiling=x1.50'];
    const arms = texts.map(parseArm);
    expect(arms.map(formatArm)).toEqual([
      'off,ceiling=x2',
      'on,ceiling=24',
      'on,ceiling=12,timeLimit=x0.5',
      'breaker=off,circuit=on,repeats=on,deadline=on,roster=on,cap=on,timeLimit=120',
      'off,ceiling=x1.5',
    ]);
    for (const arm of arms) expect(parseArm(formatArm(arm))).toEqual(arm);
    expect(formatArm(parseArm('on'))).toBe('on');
  });

  it('gives each step the arm\'s value, a factor of its own, or its own', () => {
    expect(stepValue(parseArm('ceiling=24'), 'ceiling', 12)).toBe(24);
    expect(stepValue(parseArm('ceiling=x2'), 'ceiling', 12)).toBe(24);
    // A ceiling is a count of calls: rounded, and never below one.
    expect(stepValue(parseArm('ceiling=x1.5'), 'ceiling', 5)).toBe(8);
    expect(stepValue(parseArm('ceiling=x1.5'), 'ceiling', 3)).toBe(5);
    expect(stepValue(parseArm('ceiling=x0.1'), 'ceiling', 4)).toBe(1);
    expect(stepValue(parseArm('ceiling=x0.1'), 'ceiling', 20)).toBe(2);
    // A time limit is not rounded.
    expect(stepValue(parseArm('timeLimit=x0.5'), 'timeLimit', 45)).toBe(22.5);
    expect(stepValue(parseArm('timeLimit=x0.01'), 'timeLimit', 50)).toBe(0.5);
    expect(stepValue(parseArm('timeLimit=90'), 'timeLimit', 300)).toBe(90);
    // What the arm does not set stays the rung's.
    expect(stepValue(parseArm('timeLimit=90'), 'ceiling', 7)).toBe(7);
    expect(stepValue(parseArm('off'), 'timeLimit', 300)).toBe(300);
  });
});

describe('arms that fix the MCP revision', () => {
  it('set the protocol over every server\'s own, and leave it unset (each server\'s own) otherwise', () => {
    expect(parseArm('on,protocol=legacy')).toEqual({ ...ARM_ON, protocol: 'legacy' });
    expect(parseArm('off,protocol=2026-07-28')).toEqual({ ...ARM_OFF, protocol: '2026-07-28' });
    expect(parseArm('protocol=auto,breaker=off')).toEqual({ ...ARM_ON, breaker: false, protocol: 'auto' });
    expect(parseArm(' protocol = legacy ').protocol).toBe('legacy');
    expect('protocol' in parseArm('on')).toBe(false);
    expect('protocol' in parseArm('off,ceiling=x2')).toBe(false);
  });

  it('write the protocol last, after the step parameters, and parseArm reads it back', () => {
    const texts = ['on,protocol=legacy', 'protocol=2026-07-28,ceiling=x2', 'off,protocol=auto', 'breaker=off,protocol=legacy,timeLimit=60'];
    const arms = texts.map(parseArm);
    expect(arms.map(formatArm)).toEqual([
      'on,protocol=legacy',
      'on,ceiling=x2,protocol=2026-07-28',
      'off,protocol=auto',
      'breaker=off,circuit=on,repeats=on,deadline=on,roster=on,cap=on,timeLimit=60,protocol=legacy',
    ]);
    for (const arm of arms) expect(parseArm(formatArm(arm))).toEqual(arm);
    expect(Object.isFrozen(arms[0])).toBe(true);
  });
});
