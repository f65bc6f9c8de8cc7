// The files commands are told to write (compare --output, report --output, rescore --out).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ReportInputError } from '../../src/results/read.ts';
import { writeOutputFile } from '../../src/report/outputFile.ts';
import { tempDir } from './runBuilder.ts';

let dir: string;
let remove: () => void;
beforeEach(() => ({ dir, remove } = tempDir('ladder-output-')));
afterEach(() => remove());

it('makes the folders of the path it is given', () => {
  const path = join(dir, 'out', 'deeper', 'compare.md');
  writeOutputFile('--output', path, 'table');
  expect(readFileSync(path, 'utf8')).toBe('table');
});

it('says in one line which path cannot be written and why', () => {
  writeFileSync(join(dir, 'afile'), 'x');
  const path = join(dir, 'afile', 'compare.md');
  expect(() => writeOutputFile('--output', path, 'table')).toThrow(ReportInputError);
  expect(() => writeOutputFile('--out', path, 'table')).toThrow(`--out ${path}: cannot be written (EEXIST); give a path in a folder you can write to`);
});
