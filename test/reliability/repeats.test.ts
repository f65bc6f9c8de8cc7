import { describe, it, expect } from 'vitest';
import { callKey } from '../../src/reliability/callKey.ts';
import { RepeatGuard } from '../../src/reliability/repeats.ts';
import type { RepeatOptions, RepeatVerdict } from '../../src/reliability/repeats.ts';

const CATALOG = 'catalog__doc';
const LOG = 'workbench__read_log';
const PASS: RepeatVerdict = { shortCircuit: false };

function guard(options: Partial<RepeatOptions> = {}): RepeatGuard {
  return new RepeatGuard({ isDeterministic: (tool) => tool === CATALOG, ...options });
}

/** Observes the same call `times` times and returns every verdict, in order. */
function ask(g: RepeatGuard, tool: string, args: unknown, times: number): RepeatVerdict[] {
  return Array.from({ length: times }, () => g.observe(tool, args));
}

function short(turn: number, round: number, count: number): RepeatVerdict {
  return {
    shortCircuit: true,
    count,
    turn,
    round,
    text: `Identical to the answer at turn ${turn}, round ${round}; asked ${count} times.`,
  };
}

describe('RepeatGuard', () => {
  it('passes the 2nd identical deterministic call through and answers the 3rd short', () => {
    const g = guard();
    expect(g.observe(CATALOG, { name: 'sql' })).toStrictEqual(PASS);
    g.answered(CATALOG, { name: 'sql' }, 2, 3);
    expect(g.observe(CATALOG, { name: 'sql' })).toStrictEqual(PASS);
    expect(g.observe(CATALOG, { name: 'sql' })).toStrictEqual(short(2, 3, 3));
  });

  it('words the short answer as the turn, the round and the count, and nothing else', () => {
    const g = guard();
    g.answered(CATALOG, { name: 'sql' }, 2, 3);
    const third = ask(g, CATALOG, { name: 'sql' }, 3)[2];
    expect(third).toStrictEqual({
      shortCircuit: true,
      count: 3,
      turn: 2,
      round: 3,
      text: 'Identical to the answer at turn 2, round 3; asked 3 times.',
    });
  });

  it('says asked 4 times on the 4th identical call', () => {
    const g = guard();
    g.observe(CATALOG, { name: 'sql' });
    g.answered(CATALOG, { name: 'sql' }, 1, 1);
    expect(ask(g, CATALOG, { name: 'sql' }, 3)).toStrictEqual([
      PASS,
      short(1, 1, 3),
      short(1, 1, 4),
    ]);
  });

  it('never short-circuits a non-deterministic tool, not even the 50th identical call', () => {
    const g = guard();
    g.observe(LOG, { path: 'app.log' });
    g.answered(LOG, { path: 'app.log' }, 1, 1);
    const verdicts = ask(g, LOG, { path: 'app.log' }, 49);
    expect(verdicts.every((v) => v.shortCircuit === false)).toBe(true);
    expect(verdicts[48]).toStrictEqual(PASS);
  });

  it('asks the predicate about the qualified tool name being called', () => {
    const seen: string[] = [];
    const isDeterministic = (tool: string): boolean => {
      seen.push(tool);
      return true;
    };
    const g = new RepeatGuard({ isDeterministic });
    g.answered('files__read', {}, 1, 1);
    ask(g, 'files__read', {}, 3);
    expect(seen.at(-1)).toBe('files__read');
  });

  it('counts calls whose arguments differ only in key order as identical', () => {
    const g = guard();
    g.observe(CATALOG, { name: 'sql', opts: { depth: 1, lang: 'en' } });
    g.answered(CATALOG, { opts: { lang: 'en', depth: 1 }, name: 'sql' }, 1, 2);
    g.observe(CATALOG, { opts: { lang: 'en', depth: 1 }, name: 'sql' });
    expect(g.observe(CATALOG, { opts: { depth: 1, lang: 'en' }, name: 'sql' })).toStrictEqual(
      short(1, 2, 3),
    );
  });

  it('counts calls with different arguments separately', () => {
    const g = guard();
    g.answered(CATALOG, { name: 'sql' }, 1, 1);
    g.answered(CATALOG, { name: 'kafka' }, 1, 2);
    expect(ask(g, CATALOG, { name: 'sql' }, 2)).toStrictEqual([PASS, PASS]);
    expect(ask(g, CATALOG, { name: 'kafka' }, 2)).toStrictEqual([PASS, PASS]);
    expect(g.observe(CATALOG, { name: 'kafka' })).toStrictEqual(short(1, 2, 3));
    expect(g.observe(CATALOG, { name: 'sql' })).toStrictEqual(short(1, 1, 3));
  });

  it('counts the same arguments to different deterministic tools separately', () => {
    const g = new RepeatGuard({ isDeterministic: () => true });
    g.answered('catalog__doc', { name: 'sql' }, 1, 1);
    g.answered('catalog__sample', { name: 'sql' }, 1, 2);
    ask(g, 'catalog__doc', { name: 'sql' }, 2);
    expect(ask(g, 'catalog__sample', { name: 'sql' }, 3)).toStrictEqual([
      PASS,
      PASS,
      short(1, 2, 3),
    ]);
  });

  it('points at the first full answer even when later twins were answered too', () => {
    const g = guard();
    g.observe(CATALOG, { name: 'sql' });
    g.answered(CATALOG, { name: 'sql' }, 2, 3);
    g.observe(CATALOG, { name: 'sql' });
    g.answered(CATALOG, { name: 'sql' }, 4, 1);
    expect(g.observe(CATALOG, { name: 'sql' })).toStrictEqual(short(2, 3, 3));
  });

  it('passes a call through while no identical call has a recorded answer', () => {
    const g = guard();
    expect(ask(g, CATALOG, { name: 'sql' }, 10).every((v) => v.shortCircuit === false)).toBe(true);
  });

  it('short-circuits once a twin that came after failed ones is answered, counting them all', () => {
    const g = guard();
    ask(g, CATALOG, { name: 'sql' }, 4);
    g.answered(CATALOG, { name: 'sql' }, 3, 2);
    expect(g.observe(CATALOG, { name: 'sql' })).toStrictEqual(short(3, 2, 5));
  });

  it('starts counting afresh in a new pass', () => {
    const first = guard();
    first.answered(CATALOG, { name: 'sql' }, 1, 1);
    ask(first, CATALOG, { name: 'sql' }, 3);
    const next = guard();
    next.answered(CATALOG, { name: 'sql' }, 1, 1);
    expect(ask(next, CATALOG, { name: 'sql' }, 2)).toStrictEqual([PASS, PASS]);
  });
});

describe('RepeatGuard with the call key computed by the caller', () => {
  it('counts observeKey and observe of one call together, and answers from either', () => {
    const g = guard();
    const key = callKey(CATALOG, { name: 'sql' });
    expect(g.observeKey(CATALOG, key)).toStrictEqual(PASS);
    g.answeredKey(key, 2, 4);
    expect(g.observe(CATALOG, { name: 'sql' })).toStrictEqual(PASS);
    expect(g.observeKey(CATALOG, key)).toStrictEqual(short(2, 4, 3));
    const other = guard();
    other.answered(CATALOG, { name: 'kafka' }, 1, 1);
    ask(other, CATALOG, { name: 'kafka' }, 2);
    expect(other.observeKey(CATALOG, callKey(CATALOG, { name: 'kafka' }))).toStrictEqual(short(1, 1, 3));
  });

  it('asks about the tool it is given, whatever the key', () => {
    const g = guard();
    const key = callKey(LOG, { path: 'app.log' });
    g.answeredKey(key, 1, 1);
    expect(ask(g, CATALOG, { path: 'app.log' }, 3).at(-1)).toStrictEqual(PASS);
    expect([1, 2, 3].map(() => g.observeKey(LOG, key)).at(-1)).toStrictEqual(PASS);
    expect(g.observeKey(CATALOG, key)).toStrictEqual(short(1, 1, 4));
  });
});

describe('RepeatGuard options', () => {
  const thresholdError = (value: number): string =>
    `RepeatGuard: threshold must be an integer >= 2, got ${value}`;

  it('rejects a threshold of 1, which would answer the first call short', () => {
    expect(() => guard({ threshold: 1 })).toThrow(RangeError);
    expect(() => guard({ threshold: 1 })).toThrow(thresholdError(1));
  });

  it('rejects a threshold of 0', () => {
    expect(() => guard({ threshold: 0 })).toThrow(RangeError);
    expect(() => guard({ threshold: 0 })).toThrow(thresholdError(0));
  });

  it('rejects a threshold of -1', () => {
    expect(() => guard({ threshold: -1 })).toThrow(RangeError);
    expect(() => guard({ threshold: -1 })).toThrow(thresholdError(-1));
  });

  it('rejects a threshold that is not an integer', () => {
    expect(() => guard({ threshold: 2.5 })).toThrow(RangeError);
    expect(() => guard({ threshold: 2.5 })).toThrow(thresholdError(2.5));
  });

  it('rejects a threshold that is not finite', () => {
    expect(() => guard({ threshold: Number.POSITIVE_INFINITY })).toThrow(thresholdError(Infinity));
    expect(() => guard({ threshold: Number.NaN })).toThrow(thresholdError(Number.NaN));
  });

  it('with a threshold of 2, answers the 2nd identical call short', () => {
    const g = guard({ threshold: 2 });
    g.answered(CATALOG, { name: 'sql' }, 1, 1);
    expect(ask(g, CATALOG, { name: 'sql' }, 2)).toStrictEqual([PASS, short(1, 1, 2)]);
  });

  it('with a threshold of 10, passes the 9th identical call and answers the 10th short', () => {
    const g = guard({ threshold: 10 });
    g.answered(CATALOG, { name: 'sql' }, 1, 1);
    const verdicts = ask(g, CATALOG, { name: 'sql' }, 10);
    expect(verdicts.slice(0, 9)).toStrictEqual(Array.from({ length: 9 }, () => PASS));
    expect(verdicts[9]).toStrictEqual(short(1, 1, 10));
  });

  it('requires isDeterministic to be a function', () => {
    const missing = {} as RepeatOptions;
    const notAFunction = { isDeterministic: true } as unknown as RepeatOptions;
    const expected = /RepeatGuard: isDeterministic must be a function .*, got undefined$/;
    expect(() => new RepeatGuard(missing)).toThrow(TypeError);
    expect(() => new RepeatGuard(missing)).toThrow(expected);
    expect(() => new RepeatGuard(notAFunction)).toThrow(/, got boolean$/);
  });
});
