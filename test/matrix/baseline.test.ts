// CI's check of the agent matrix against its committed baseline (src/matrix/baseline.ts): the
// lines it prints for each difference, and the baseline --write-docs writes.
import { describe, expect, it } from 'vitest';
import { baselineDifferences, mergeIntoBaseline } from '../../src/matrix/baseline.ts';
import type { Matrix, MatrixAgent, MatrixRow } from '../../src/matrix/index.ts';

type Cells = Matrix['cells'];
const agent = (name: string, version = '1.0'): MatrixAgent => ({ name, kind: 'exec', version });
const row = (name: string, scenario = 'basics'): MatrixRow => ({ family: 'Revisions', scenario, row: name });
const c = (value: string, key = value, evidence = 'wire exchange 1 at 0.1 s') => ({ value, key, evidence });
const matrix = (agents: MatrixAgent[], rows: MatrixRow[], cells: Cells, over: Partial<Matrix> = {}): Matrix =>
  ({ date: '2026-12-01', waitCapS: 60, agents, rows, cells, ...over });

describe('baselineDifferences', () => {
  const rows = [row('revision spoken'), row('parallel', 'other')];
  const base = matrix([agent('alpha'), agent('beta')], rows, {
    alpha: { 'revision spoken': c('2025-06-18'), parallel: c('12.3 s, then cancelled', '~10 s, then cancelled') },
    beta: { 'revision spoken': c('none') },
  });

  it('empty when every cell agrees by its key, whatever its shown value', () => {
    const now = matrix([agent('alpha'), agent('beta')], rows, {
      alpha: { 'revision spoken': c('2025-06-18', '2025-06-18', 'elsewhere'), parallel: c('11.9 s, then cancelled', '~10 s, then cancelled') },
      beta: { 'revision spoken': c('none') },
    });
    expect(baselineDifferences(base, now)).toEqual([]);
    expect(baselineDifferences(base, base)).toEqual([]);
  });

  it('names an agent the baseline lacks, and nothing else of it', () => {
    const now = matrix([agent('gamma', '3.0'), agent('beta')], rows, { gamma: { 'revision spoken': c('x') }, beta: { 'revision spoken': c('none') } });
    expect(baselineDifferences(base, now)).toEqual(['gamma: not in the baseline; write it with --write-docs']);
  });

  it('names a changed version, then the cells', () => {
    const now = matrix([agent('alpha', '1.1')], rows, { alpha: base.cells.alpha! });
    expect(baselineDifferences(base, now)).toEqual(['alpha: version 1.1 now, 1.0 in the baseline']);
  });

  it('names a cell the baseline lacks and a cell whose key changed, with the new evidence', () => {
    const now = matrix([agent('alpha'), agent('beta')], [...rows, row('new row', 'later')], {
      alpha: { 'revision spoken': c('2025-11-25', '2025-11-25', 'wire exchange 2 at 0.2 s'), parallel: c('31.0 s, then cancelled', '~30 s, then cancelled', 'wire exchange 5 at 1.0 s'), 'new row': c('yes') },
      beta: { parallel: c('sent "at once"') },
    });
    expect(baselineDifferences(base, now)).toEqual([
      'alpha / basics / revision spoken: baseline "2025-06-18", now "2025-11-25" (wire exchange 2 at 0.2 s)',
      'alpha / other / parallel: baseline "12.3 s, then cancelled", now "31.0 s, then cancelled" (wire exchange 5 at 1.0 s)',
      'alpha / later / new row: not in the baseline; now "yes"',
      'beta / other / parallel: not in the baseline; now "sent \\"at once\\""',
    ]);
  });

  it('skips rows this run has no cell for, and an agent of the baseline with no cells at all', () => {
    const bare = matrix([agent('alpha'), agent('beta')], rows, { beta: {} });
    const now = matrix([agent('alpha'), agent('beta')], rows, { alpha: { parallel: c('one after another') } });
    expect(baselineDifferences(bare, now)).toEqual(['alpha / other / parallel: not in the baseline; now "one after another"']);
  });
});

describe('mergeIntoBaseline', () => {
  it('is this run when there is no baseline', () => {
    const now = matrix([agent('alpha')], [row('a')], { alpha: { a: c('yes') } });
    expect(mergeIntoBaseline(undefined, now)).toBe(now);
  });

  it('keeps the baseline\'s order and its other agents, rows and cells; this run\'s win and what is new goes last', () => {
    const base = matrix([agent('alpha', '1.0'), agent('beta', '2.0'), agent('delta', '4.0')], [row('a'), row('b')], {
      alpha: { a: c('old a'), b: c('old b') },
      beta: { a: c('beta a') },
      delta: { a: c('delta a') },
    }, { date: '2026-01-01', waitCapS: 30 });
    const now = matrix([agent('gamma', '3.0'), agent('alpha', '1.1'), agent('delta', '4.1')], [row('c', 'later'), row('a', 'moved')], {
      alpha: { a: c('new a'), c: c('alpha c') },
      gamma: { c: c('gamma c') },
    });
    expect(mergeIntoBaseline(base, now)).toEqual({
      date: '2026-12-01',
      waitCapS: 60,
      agents: [agent('alpha', '1.1'), agent('beta', '2.0'), agent('delta', '4.1'), agent('gamma', '3.0')],
      rows: [row('a'), row('b'), row('c', 'later')],
      cells: {
        alpha: { a: c('new a'), b: c('old b'), c: c('alpha c') },
        beta: { a: c('beta a') },
        delta: { a: c('delta a') },
        gamma: { c: c('gamma c') },
      },
    });
    // The baseline given is not changed.
    expect(base.cells.alpha).toEqual({ a: c('old a'), b: c('old b') });
  });
});
