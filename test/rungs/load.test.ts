import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRung, parseRung, RungError } from '../../src/rungs/load.ts';

const GOOD = `name: tiny
description: one step
origin: a test
servers:
  bench:
    workbench: {}
steps:
  - prompt: say hi
    ceiling: 3
    checks:
      - answer: { mentions: [hi] }
    reference:
      answer: hi
`;

function problemsOf(text: string): string[] {
  try {
    parseRung('rungs/x.yaml', text);
  } catch (error) {
    if (error instanceof RungError) return error.problems;
    throw error;
  }
  throw new Error('expected the rung to be rejected');
}

describe('parseRung', () => {
  it('fills the defaults of a minimal rung', () => {
    const rung = parseRung('rungs/x.yaml', GOOD);
    expect(rung.steps[0]!.timeLimitS).toBe(300);
    expect(rung.timeFactor).toBe(1);
    expect(rung.trustServerHints).toBe(true);
    expect(rung.steps[0]!.reference.calls).toEqual([]);
  });

  it('names file, line and field path for a bad ceiling', () => {
    const problems = problemsOf(GOOD.replace('ceiling: 3', 'ceiling: 0'));
    expect(problems).toEqual(['rungs/x.yaml:9 steps[0].ceiling: expected a positive integer']);
  });

  it('points a missing field at its parent', () => {
    const problems = problemsOf(GOOD.replace('    ceiling: 3\n', ''));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^rungs\/x\.yaml:8 steps\[0\]\.ceiling: /);
  });

  it('gives one line per problem', () => {
    const problems = problemsOf(GOOD.replace('name: tiny', 'name: Tiny Rung').replace('ceiling: 3', 'ceiling: -2'));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^rungs\/x\.yaml:1 name: /);
    expect(problems[1]).toMatch(/^rungs\/x\.yaml:9 steps\[0\]\.ceiling: /);
  });

  it('reports YAML syntax errors with their line', () => {
    const problems = problemsOf(GOOD.replace('    ceiling: 3', '    ceiling: [3'));
    expect(problems[0]).toMatch(/^rungs\/x\.yaml:\d+ /);
  });

  it('refuses an unknown check kind', () => {
    const problems = problemsOf(GOOD.replace('- answer: { mentions: [hi] }', '- smells: good'));
    expect(problems[0]).toMatch(/steps\[0\]\.checks\[0\]: expected one of file, sql/);
  });
});

describe('loadRung', () => {
  it('keeps the text it parsed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ladder-rung-'));
    const file = join(dir, 'tiny.yaml');
    await writeFile(file, GOOD);
    const loaded = await loadRung(file);
    expect(loaded.text).toBe(GOOD);
    expect(loaded.rung.name).toBe('tiny');
  });

  it('says which file it cannot read', async () => {
    await expect(loadRung('/nonexistent/rung.yaml')).rejects.toThrow(/^\/nonexistent\/rung\.yaml: cannot read the rung file \(ENOENT\)/);
  });
});
