// Tool selection against the reference (src/report/selection.ts): each figure at the edges
// where a wrong formula would read the same as a right one in the middle.
import { describe, expect, it } from 'vitest';
import { selection, tally } from '../../src/report/selection.ts';

const called = (...names: string[]) => tally(names);

describe('tool selection against the reference', () => {
  it('matches each reference call once: the right tool twice is one match and one extra', () => {
    expect(selection(['db__query'], called('db__query', 'db__query'))).toEqual({
      referenceCalls: 1, calls: 2, matched: 1, precision: 0.5, recall: 1, f1: 2 / 3, extra: 1, efficiency: 0.5,
    });
  });

  it('compares multisets: order is not selection, and each tool is matched by its own count', () => {
    const reference = ['fs__read', 'db__query', 'fs__read', 'fs__write'];
    const s = selection(reference, called('fs__write', 'fs__read', 'logs__tail', 'fs__read', 'fs__read'));
    // fs__read: 2 of 3 made match; fs__write: 1; db__query missed; logs__tail chosen wrongly.
    expect(s).toMatchObject({ referenceCalls: 4, calls: 5, matched: 3, precision: 3 / 5, recall: 3 / 4, extra: 1, efficiency: 4 / 5 });
    expect(s.f1).toBeCloseTo((2 * 3) / 9, 12);
  });

  it('scores an exact path 1 on everything, whatever the order', () => {
    expect(selection(['a__x', 'b__y'], called('b__y', 'a__x'))).toEqual({
      referenceCalls: 2, calls: 2, matched: 2, precision: 1, recall: 1, f1: 1, extra: 0, efficiency: 1,
    });
  });

  it('gives a step with no call no precision and no efficiency when the reference called something', () => {
    expect(selection(['a__x'], called())).toEqual({
      referenceCalls: 1, calls: 0, matched: 0, precision: null, recall: 0, f1: 0, extra: 0, efficiency: null,
    });
  });

  it('gives a step whose reference calls nothing no recall, and every call is extra', () => {
    expect(selection([], called('a__x', 'a__x', 'a__y'))).toEqual({
      referenceCalls: 0, calls: 3, matched: 0, precision: 0, recall: null, f1: 0, extra: 3, efficiency: 0,
    });
  });

  it('scores a step where neither calls anything as a perfect path', () => {
    expect(selection([], called())).toEqual({
      referenceCalls: 0, calls: 0, matched: 0, precision: null, recall: null, f1: 1, extra: 0, efficiency: 1,
    });
  });

  it('caps efficiency at 1 when the agent took a shorter path than the reference', () => {
    expect(selection(['a__x', 'a__x', 'a__y'], called('a__x'))).toEqual({
      referenceCalls: 3, calls: 1, matched: 1, precision: 1, recall: 1 / 3, f1: 0.5, extra: 0, efficiency: 1,
    });
  });

  it('counts names into a tally', () => {
    expect([...tally(['a', 'b', 'a'])]).toEqual([['a', 2], ['b', 1]]);
  });
});
