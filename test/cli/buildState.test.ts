// bin/ladder.js runs the compiled build only while it matches the sources; otherwise the
// sources themselves. This is the judgement it makes.
import { mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildState, sourceFiles, STAMP } from '../../bin/build-state.js';

describe('the build state', () => {
  let root: string;
  const build = () => {
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, 'dist', STAMP), JSON.stringify({ sources: sourceFiles(root) }));
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ladder-build-state-'));
    mkdirSync(join(root, 'src', 'lane'), { recursive: true });
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'src', 'lane', 'b.ts'), 'export const b = 2;\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is missing before any build', () => {
    expect(buildState(root)).toBe('missing');
  });

  it('is fresh right after a build', () => {
    build();
    expect(buildState(root)).toBe('fresh');
  });

  it('is stale once a source is touched, even back in time', () => {
    build();
    const file = join(root, 'src', 'lane', 'b.ts');
    const { mtime } = statSync(file);
    utimesSync(file, mtime, new Date(mtime.getTime() - 60_000));
    expect(buildState(root)).toBe('stale');
  });

  it('is stale once a source changes size with its time kept', () => {
    build();
    const file = join(root, 'src', 'a.ts');
    const { atime, mtime } = statSync(file);
    writeFileSync(file, 'export const a = 10;\n');
    utimesSync(file, atime, mtime);
    expect(buildState(root)).toBe('stale');
  });

  it('is stale once a source is added or removed', () => {
    build();
    writeFileSync(join(root, 'src', 'c.ts'), '');
    expect(buildState(root)).toBe('stale');
    build();
    unlinkSync(join(root, 'src', 'a.ts'));
    expect(buildState(root)).toBe('stale');
  });
});
