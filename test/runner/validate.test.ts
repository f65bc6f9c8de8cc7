import { describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/rungs.ts';

describe('ladder rungs validate', () => {
  it('passes a solvable rung whose checks can all fail, and names each problem of one that is not', async () => {
    const said: string[] = [];
    const code = await runValidate({ files: ['test/runner/fixtures/tiny-files.yaml', 'test/runner/fixtures/broken.yaml'] }, (line) => said.push(line));
    expect(code).toBe(1);
    expect(said).toEqual([
      'ok test/runner/fixtures/tiny-files.yaml',
      'test/runner/fixtures/broken.yaml:19 steps[0].reference: not solvable: the reference solution fails step 0: ' +
        'file {"path":"out.txt","exists":true,"matches":"^42$"}: out.txt does not match /^42$/',
      'test/runner/fixtures/broken.yaml:15 steps[0].checks[1]: cannot fail: it passes for an agent that does nothing',
      'test/runner/fixtures/broken.yaml:16 steps[0].checks[2]: cannot fail: no server offers wb__no_such_tool, so it is never called',
      'test/runner/fixtures/broken.yaml:17 steps[0].checks[3]: cannot fail: the ceiling (2) leaves no room for more than 1 repeat(s)',
      '4 problem(s) in 2 rungs',
    ]);
  }, 90_000);

  it('gives bad input one line per problem and exit 2', async () => {
    const said: string[] = [];
    const errors: string[] = [];
    expect(await runValidate({ files: ['test/runner/fixtures/no-such-rung.yaml'] }, (line) => said.push(line), (line) => errors.push(line))).toBe(2);
    expect(said).toEqual([]);
    expect(errors).toEqual(['ladder rungs validate: test/runner/fixtures/no-such-rung.yaml: no rung file matches (give a file, a folder, a glob or a rung name in rungs/)']);
  });
});
