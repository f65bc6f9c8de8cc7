// `ladder merge` on folders that are not shards of a run: each named as typed, with what to give.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { mergeShards } from '../../src/runner/merge.ts';
import { InputError } from '../../src/runner/rungFiles.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

it('names a shard folder that does not exist, or holds no run, as typed, one line each', async () => {
  const cwd = await tempDir('ladder-merge-');
  await mkdir(join(cwd, 'results', 'notes'), { recursive: true });
  const refused = await mergeShards('results/merged', ['results/nope', 'results/notes'], cwd).then(() => [], (error: unknown) => {
    if (!(error instanceof InputError)) throw error;
    return error.lines;
  });
  expect(refused).toEqual([
    'results/nope: no such results folder; name a folder written by ladder run (results/<run-id>)',
    'results/notes: no manifest.json; is this a results folder written by ladder run?',
  ]);
});
