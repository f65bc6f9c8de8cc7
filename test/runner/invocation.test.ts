// The commands Ladder prints for the user to run next paste back as the user ran Ladder.
import { PassThrough } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { runLadder } from '../../src/cli/runLadder.ts';
import { ladderCommand } from '../../src/runner/invocation.ts';
import { removeTempDirs, ROOT, SMALL, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

it('is npx ladder under npx (npm_command=exec), and ladder otherwise', () => {
  expect(ladderCommand({ npm_command: 'exec' })).toBe('npx ladder');
  expect(ladderCommand({ npm_command: 'test' })).toBe('ladder');
  expect(ladderCommand({})).toBe('ladder');
});

it('ends a run started through npx with next commands that say npx ladder', async () => {
  const lines: string[] = [];
  const progress = new PassThrough();
  progress.resume();
  const out = `${await tempDir('ladder-invocation-')}/run`;
  const code = await runLadder({ ...SMALL, rungs: [SMALL.rungs![0]!], arms: 'on', passes: 1, out }, {
    cwd: ROOT, env: { npm_command: 'exec' }, stdout: (line) => lines.push(line), progress, signal: new AbortController().signal,
  });
  expect(code).toBe(0);
  expect(lines.slice(-2)).toEqual([
    expect.stringMatching(/^ {2}npx ladder show .*\/run {3}/),
    expect.stringMatching(/^ {2}npx ladder report .*\/run {2}HTML with plots and transcripts \(writes .*report\.html\)$/),
  ]);
});
