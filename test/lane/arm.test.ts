import { describe, expect, it } from 'vitest';
import { ARM_OFF, ARM_ON, ArmError, MECHANISMS, formatArm, parseArm } from '../../src/lane/arm.ts';

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

  it.each([
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
    '(values on|off, and breaker=tool); a list may start with "on" or "off" as its base (default on)';
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
  });

  it('reads a base and items with spaces around them', () => {
    expect(parseArm(' off , roster = on ')).toEqual({ ...ARM_OFF, roster: true });
    expect(parseArm(' on ')).toEqual(ARM_ON);
  });
});

describe('formatArm', () => {
  it('writes on, off, or the full list, and parseArm reads each back', () => {
    const arms = ['on', 'off', 'breaker=off', 'off,repeats=on', 'breaker=tool', 'circuit=off,deadline=off'].map(parseArm);
    expect(arms.map(formatArm)).toEqual([
      'on',
      'off',
      'breaker=off,circuit=on,repeats=on,deadline=on,roster=on,cap=on',
      'breaker=off,circuit=off,repeats=on,deadline=off,roster=off,cap=off',
      'breaker=tool,circuit=on,repeats=on,deadline=on,roster=on,cap=on',
      'breaker=on,circuit=off,repeats=on,deadline=off,roster=on,cap=on',
    ]);
    for (const arm of arms) expect(parseArm(formatArm(arm))).toEqual(arm);
  });
});
