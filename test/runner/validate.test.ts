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
      'test/runner/fixtures/broken.yaml:17 steps[0].checks[3]: cannot fail: the ceiling (2) leaves no room for more than 1 repeat',
      '4 problems in 2 rungs',
    ]);
  }, 90_000);

  it("quotes a failing reference call's own error, and names a tool no server offers with the ones that exist", async () => {
    const said: string[] = [];
    expect(await runValidate({ files: ['test/runner/fixtures/broken-calls.yaml'] }, (line) => said.push(line))).toBe(1);
    expect(said).toEqual([
      'test/runner/fixtures/broken-calls.yaml:17 steps[0].reference.calls[0].tool: no server offers wb__sql_describ; wb offers ' +
        'wb__browser_navigate, wb__catalog_lookup, wb__catalog_search, wb__files_edit, wb__files_list, wb__files_read, wb__files_write, ' +
        'wb__jobs_list, wb__jobs_start, wb__jobs_wait, wb__logs_read, wb__sql_describe, wb__sql_execute, wb__sql_query',
      'test/runner/fixtures/broken-calls.yaml:16 steps[0].reference: not solvable: the reference solution fails step 0: ' +
        'sql {"query":"SELECT id FROM orders","rows":[[7]]}: expected rows [[7]], got []; ' +
        'its call wb__sql_execute failed: "SQLITE_ERROR: near \\"order\\": syntax error"',
      '2 problems in 1 rung',
    ]);
  }, 90_000);

  it('proves the checks on how a step was done able to fail, and says a count the reference exceeds at the check', async () => {
    const said: string[] = [];
    const code = await runValidate({ files: ['test/runner/fixtures/tiny-how.yaml', 'test/runner/fixtures/broken-how.yaml'] }, (line) => said.push(line));
    expect(code).toBe(1);
    // tiny-how: the reference passes calledWith on `{workspace}/out.txt` (the arguments as the
    // trace records them), both sequences and counts at exactly its 2 calls and 3 requests;
    // an agent that does nothing fails its calledWith and sequences. Its judge check is said
    // nowhere: validate asks no model (the named mutation "a judge check made to prove itself").
    expect(said).toEqual([
      'ok test/runner/fixtures/tiny-how.yaml',
      'test/runner/fixtures/broken-how.yaml:16 steps[0].checks[2].sequence[1]: no server offers other__files_read; there is no server other (the servers are wb)',
      'test/runner/fixtures/broken-how.yaml:17 steps[0].checks[3].maxCalls: too tight: the reference solution of step 0 fails it: 1 tool call(s) were made (at most 0)',
      'test/runner/fixtures/broken-how.yaml:19 steps[0].checks[5].maxRounds: too tight: the reference solution of step 0 fails it: 2 model request(s) were made (at most 1)',
      'test/runner/fixtures/broken-how.yaml:21 steps[0].reference: not solvable: the reference solution fails step 0: ' +
        'calledWith {"tool":"wb__files_write","args":{"path":"/^out\\\\.txt$/","content":"/^43/"}}: no call of wb__files_write (1) had the arguments; ' +
        'the closest, {"path":"out.txt","content":"42\\n"}, differs at args.content: expected a string matching /^43/, got "42\\n"',
      'test/runner/fixtures/broken-how.yaml:18 steps[0].checks[4]: cannot fail: the ceiling (3) ends the step before it makes more than 3 calls',
      '5 problems in 2 rungs',
    ]);
  }, 120_000);

  it('gives bad input one line per problem and exit 2', async () => {
    const said: string[] = [];
    const errors: string[] = [];
    expect(await runValidate({ files: ['test/runner/fixtures/no-such-rung.yaml'] }, (line) => said.push(line), (line) => errors.push(line))).toBe(2);
    expect(said).toEqual([]);
    expect(errors).toEqual(['ladder rungs validate: test/runner/fixtures/no-such-rung.yaml: no rung file matches (give a file, a folder, a glob or a rung name in rungs/)']);
  });
});
