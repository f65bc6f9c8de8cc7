// The matrix as people read it (src/matrix/table.ts): a cell's first words, the Markdown table of
// the docs' page and the terminal's text, each with its footnotes.
import { describe, expect, it } from 'vitest';
import type { Matrix } from '../../src/matrix/index.ts';
import { matrixMarkdown, matrixText, shortValue } from '../../src/matrix/table.ts';

describe('shortValue', () => {
  it('keeps the words before the first colon, semicolon or bracket, trimmed', () => {
    expect(shortValue('no: the model got "x"')).toBe('no');
    expect(shortValue('listed; the model gets list_resources')).toBe('listed');
    expect(shortValue('2025-06-18 (after a 2026-07-28 probe)')).toBe('2025-06-18');
    expect(shortValue('sent at once')).toBe('sent at once');
  });

  it('cuts past 40 characters, to 39 and an ellipsis', () => {
    expect(shortValue('a'.repeat(40))).toBe('a'.repeat(40));
    expect(shortValue(`${'a'.repeat(41)}: more`)).toBe(`${'a'.repeat(39)}…`);
  });
});

describe('matrixMarkdown and matrixText', () => {
  const matrix: Matrix = {
    date: '2026-12-01',
    waitCapS: 60,
    agents: [{ name: 'alpha', kind: 'exec', version: '1.2' }, { name: 'beta', kind: 'acp', version: 'unknown' }],
    rows: [
      { family: 'Revisions', scenario: 'basics', row: 'revision spoken' },
      { family: 'Revisions', scenario: 'modern-only', row: 'works with a 2026-07-28-only server' },
    ],
    cells: {
      alpha: {
        'revision spoken': { value: '2025-06-18 (after a 2026-07-28 probe)', key: '2025-06-18 (after a 2026-07-28 probe)', evidence: 'wire exchange 2 at 2.0 s' },
        'works with a 2026-07-28-only server': { value: 'sent at once', key: 'sent at once', evidence: 'step 1, model request 2' },
      },
      beta: {
        'revision spoken': { value: 'x|y: z', key: 'x|y: z', evidence: 'wire exchange 1 at 0.1 s' },
      },
    },
  };

  it('Markdown: a header of names and versions (none when unknown), one band per family, whole values as they are, cut ones footnoted; pipes escaped in the table', () => {
    expect(matrixMarkdown(matrix)).toEqual([
      '|  | alpha 1.2 | beta |',
      '|---|---|---|',
      '| **Revisions** | | |',
      '| revision spoken | 2025-06-18 [1] | x\\|y [2] |',
      '| works with a 2026-07-28-only server | sent at once | – |',
      '',
      '1. alpha, revision spoken: 2025-06-18 (after a 2026-07-28 probe) (wire exchange 2 at 2.0 s)',
      '2. beta, revision spoken: x|y: z (wire exchange 1 at 0.1 s)',
    ]);
  });

  it('Markdown: a band again when the family changes', () => {
    const two: Matrix = { ...matrix, rows: [matrix.rows[0]!, { ...matrix.rows[1]!, family: 'Results' }] };
    expect(matrixMarkdown(two).slice(2, 6)).toEqual([
      '| **Revisions** | | |',
      '| revision spoken | 2025-06-18 [1] | x\\|y [2] |',
      '| **Results** | | |',
      '| works with a 2026-07-28-only server | sent at once | – |',
    ]);
  });

  it('text: columns padded to their widest cell, two spaces apart, a family line, then the footnotes', () => {
    expect(matrixText(matrix)).toEqual([
      `${' '.repeat(37)}alpha 1.2${' '.repeat(7)}beta`,
      '',
      'Revisions',
      `revision spoken${' '.repeat(22)}2025-06-18 [1]  x|y [2]`,
      'works with a 2026-07-28-only server  sent at once    –',
      '',
      '[1] alpha, revision spoken: 2025-06-18 (after a 2026-07-28 probe) (wire exchange 2 at 2.0 s)',
      '[2] beta, revision spoken: x|y: z (wire exchange 1 at 0.1 s)',
    ]);
  });
});
