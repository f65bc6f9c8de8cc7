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

describe('a mistake in a rung file, in plain words at its line', () => {
  it.each([
    ['a flow list never closed', GOOD.replace('    ceiling: 3', '    ceiling: [3'), 'rungs/x.yaml:9 YAML syntax: the [ opened here is never closed with ]'],
    ['a flow map never closed', GOOD.replace('{ mentions: [hi] }', '{ mentions: [hi]'), 'rungs/x.yaml:11 YAML syntax: the { opened here is never closed with }'],
    ['a quote never closed', GOOD.replace('prompt: say hi', 'prompt: "say hi'), 'rungs/x.yaml:8 YAML syntax: the " opened here is never closed'],
    ['a quote never closed, with a backslash further on', GOOD.replace('prompt: say hi', 'prompt: "say hi').replace('{ mentions: [hi] }', "{ matches: '\\d' }"),
      'rungs/x.yaml:8 YAML syntax: the " opened here runs on to line 11, where \\d is not a valid escape; close the quote on its own line'],
    ['a tab', GOOD.replace('    ceiling: 3', '\tceiling: 3'), 'rungs/x.yaml:9 YAML syntax: a tab in the indentation; indent with spaces'],
    ['a second colon', GOOD.replace('prompt: say hi', 'prompt: say: hi'),
      `rungs/x.yaml:8 YAML syntax: a second ": " on one line; put the value in quotes (prompt: 'Say: hi')`],
    ['a key twice', GOOD.replace('origin: a test', 'origin: a test\norigin: again'), 'rungs/x.yaml:4 YAML syntax: origin appears twice in the same mapping'],
    ['a missing field', GOOD.replace('description: one step\n', ''), 'rungs/x.yaml:1 description: missing; expected text'],
    ['a missing number', GOOD.replace('    ceiling: 3\n', ''), 'rungs/x.yaml:8 steps[0].ceiling: missing; expected a positive integer'],
    ['text where a number goes', GOOD.replace('- answer: { mentions: [hi] }', '- maxRepeats: two'),
      'rungs/x.yaml:11 steps[0].checks[0].maxRepeats: expected a number, got the text "two"'],
    ['a number where text goes', GOOD.replace('prompt: say hi', 'prompt: 3'), 'rungs/x.yaml:8 steps[0].prompt: expected text, got the number 3'],
    ['a misspelt field', GOOD.replace('origin: a test', 'orgin: a test'), 'rungs/x.yaml:3 orgin: unknown field; did you mean origin?'],
    ['a number out of range', GOOD.replace('origin: a test', 'origin: a test\ntimeFactor: 0'), 'rungs/x.yaml:4 timeFactor: expected a number above 0, got the number 0'],
    ['a server of the wrong shape', GOOD.replace('    workbench: {}', '    command: 3'), 'rungs/x.yaml:6 servers.bench.command: expected text, got the number 3'],
    ['a check of the wrong shape', GOOD.replace('- answer: { mentions: [hi] }', "- sql: { query: 'SELECT 1' }"),
      'rungs/x.yaml:11 steps[0].checks[0].sql.rows: missing; expected a list'],
    ['an empty file', '', 'rungs/x.yaml:1 the file is empty; a rung has name, description, servers and steps (docs/runner.md, "The rung format")'],
    ['a list instead of a rung', '- a\n', 'rungs/x.yaml:1 (top level): expected a mapping (key: value lines), got a list'],
  ])('%s', (_name, text, line) => {
    expect(problemsOf(text)).toEqual([line]);
  });

  it('takes a rung with no origin: it is for readers, and optional', () => {
    expect(parseRung('rungs/x.yaml', GOOD.replace('origin: a test\n', '')).origin).toBeUndefined();
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

describe('a rung\'s declared effect', () => {
  const withEffect = (effect: string) => GOOD.replace('servers:', `${effect}\nservers:`);

  it('compares off against on unless it names its arms, and makes arms canonical', () => {
    const rung = parseRung('rungs/x.yaml', withEffect('effect: { better: on, metric: dead_calls, why: the breaker }'));
    expect(rung.effect).toEqual({ arms: ['off', 'on'], better: 'on', metric: 'dead_calls', why: 'the breaker' });
    const swept = parseRung('rungs/x.yaml', withEffect("effect: { arms: ['off', 'off, ceiling=x2'], better: same, metric: step_pass_rate, why: a control }"));
    expect(swept.effect).toMatchObject({ arms: ['off', 'off,ceiling=x2'], better: 'same' });
    const named = parseRung('rungs/x.yaml', withEffect("effect: { arms: ['off', 'breaker=tool'], better: 'breaker=tool', metric: dead_calls, why: x }"));
    expect(named.effect!.better).toBe('breaker=tool,circuit=on,repeats=on,deadline=on,roster=on,cap=on');
  });

  it('is optional', () => {
    expect(parseRung('rungs/x.yaml', GOOD).effect).toBeUndefined();
  });

  it.each([
    ['effect: { better: maybe, metric: dead_calls, why: x }', /effect\.better: expected one of the arms \(off, on\) or same/],
    ['effect: { better: on, metric: speed, why: x }', /effect\.metric: expected one of step_pass_rate, clean_run_rate/],
    ['effect: { better: on, metric: dead_calls }', /effect\.why/],
    ["effect: { arms: ['off', 'bogus=on'], better: same, metric: dead_calls, why: x }", /effect\.arms\[1\]: arm "bogus=on": unknown mechanism/],
    ["effect: { arms: ['on', 'on'], better: same, metric: dead_calls, why: x }", /effect\.arms: expected two different arms/],
  ])('refuses %j with the field named', (effect, problem) => {
    const problems = problemsOf(withEffect(effect));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
  });
});

describe('servers the pass starts, and the checks that read them', () => {
  it('reads a url with {port} and a start block', () => {
    const rung = parseRung('rungs/x.yaml', GOOD.replace('  bench:\n    workbench: {}', [
      '  remote:',
      '    url: http://127.0.0.1:{port}/mcp',
      '    start: { package: some-server, env: { PORT: "{port}" } }',
    ].join('\n')));
    expect(rung.servers['remote']).toEqual({ url: 'http://127.0.0.1:{port}/mcp', headers: {}, start: { package: 'some-server', args: [], env: { PORT: '{port}' } } });
  });

  it('refuses a url that is not http(s)', () => {
    expect(problemsOf(GOOD.replace('  bench:\n    workbench: {}', '  remote:\n    url: ftp://x/{port}'))[0]).toMatch(/servers\.remote/);
  });

  it('takes succeeded and a sql check with its own database file', () => {
    const rung = parseRung('rungs/x.yaml', GOOD.replace('      - answer: { mentions: [hi] }', [
      '      - answer: { mentions: [hi] }',
      '      - succeeded: bench__sql_query',
      "      - sql: { db: shop.db, query: 'SELECT 1', rows: [[1]] }",
    ].join('\n')));
    expect(rung.steps[0]!.checks.slice(1)).toEqual([{ succeeded: 'bench__sql_query' }, { sql: { db: 'shop.db', query: 'SELECT 1', rows: [[1]] } }]);
  });
});

describe('the checks on how a step was done', () => {
  const withCheck = (...checks: string[]): string => GOOD.replace('      - answer: { mentions: [hi] }', checks.map((c) => `      - ${c}`).join('\n'));

  it('takes calledWith, both forms of sequence, maxCalls and maxRounds, with their defaults', () => {
    const rung = parseRung('rungs/x.yaml', withCheck(
      "calledWith: { tool: bench__sql_query, args: { sql: '/^SELECT/', filter: { limit: 10 } } }",
      'calledWith: { tool: bench__sql_query }',
      'sequence: [bench__files_read, bench__files_write]',
      'sequence: { tools: [bench__files_read, bench__files_write], strict: true }',
      'sequence: { tools: [bench__files_read, bench__files_write] }',
      'maxCalls: 0',
      'maxRounds: 1',
    ));
    expect(rung.steps[0]!.checks).toEqual([
      { calledWith: { tool: 'bench__sql_query', args: { sql: '/^SELECT/', filter: { limit: 10 } } } },
      { calledWith: { tool: 'bench__sql_query', args: {} } },
      { sequence: ['bench__files_read', 'bench__files_write'] },
      { sequence: { tools: ['bench__files_read', 'bench__files_write'], strict: true } },
      { sequence: { tools: ['bench__files_read', 'bench__files_write'], strict: false } },
      { maxCalls: 0 },
      { maxRounds: 1 },
    ]);
  });

  it('says each mistake in one located line', () => {
    expect(problemsOf(withCheck(
      "calledWith: { tool: bench__q, args: { a: '/(/', b: [1, { c: '/[/' }] } }",
      'calledWith: { tool: query }',
      'calledWith: { tool: bench__q, arg: {} }',
      'sequence: [bench__a]',
      'sequence: { tools: [bench__a, bench__b], strict: maybe }',
      'maxCalls: -1',
      'maxCalls: 1.5',
      'maxRounds: 0',
      'maxTurns: 3',
    ))).toEqual([
      'rungs/x.yaml:11 steps[0].checks[0].calledWith.args.a: not a regular expression: Invalid regular expression: /(/: Unterminated group',
      'rungs/x.yaml:11 steps[0].checks[0].calledWith.args.b[1].c: not a regular expression: Invalid regular expression: /[/: Unterminated character class',
      'rungs/x.yaml:12 steps[0].checks[1].calledWith.tool: expected a qualified tool name, server__tool',
      'rungs/x.yaml:13 steps[0].checks[2].calledWith.arg: unknown field',
      'rungs/x.yaml:14 steps[0].checks[3].sequence: expected at least two tools (one is a called check)',
      'rungs/x.yaml:15 steps[0].checks[4].sequence: expected a list of tools, or {tools, strict}',
      'rungs/x.yaml:16 steps[0].checks[5].maxCalls: expected a whole number',
      'rungs/x.yaml:17 steps[0].checks[6].maxCalls: expected a whole number',
      'rungs/x.yaml:18 steps[0].checks[7].maxRounds: expected a positive integer',
      'rungs/x.yaml:19 steps[0].checks[8]: expected one of file, sql, called, succeeded, notCalled, answer, maxRepeats, noZeroToolRounds, ' +
        'calledWith, sequence, maxCalls, maxRounds, judge',
    ]);
  });

  it('takes a judge check with its rubric, and a real model when one is named', () => {
    const rung = parseRung('rungs/x.yaml', withCheck(
      "judge: { rubric: 'The answer names the lamp.' }",
      "judge: { rubric: 'The answer names the lamp.', model: 'anthropic:claude-haiku-4-5' }",
    ));
    expect(rung.steps[0]!.checks).toEqual([
      { judge: { rubric: 'The answer names the lamp.' } },
      { judge: { rubric: 'The answer names the lamp.', model: 'anthropic:claude-haiku-4-5' } },
    ]);
  });

  it('refuses a judge without a rubric, with a synthetic or unreadable model, or with a field it does not know', () => {
    expect(problemsOf(withCheck(
      "judge: { rubric: '  ' }",
      "judge: { rubric: r, model: 'synthetic:reference' }",
      "judge: { rubric: r, model: 'gpt-5' }",
      'judge: { rubric: r, verdict: pass }',
    ))).toEqual([
      'rungs/x.yaml:11 steps[0].checks[0].judge.rubric: expected the rubric: what the step must have done to pass',
      'rungs/x.yaml:12 steps[0].checks[1].judge.model: a synthetic agent cannot judge; name a real model, e.g. openai:gpt-5-mini',
      expect.stringMatching(/^rungs\/x\.yaml:13 steps\[0\]\.checks\[2\]\.judge\.model: model spec "gpt-5": no provider; use /),
      'rungs/x.yaml:14 steps[0].checks[3].judge.verdict: unknown field',
    ]);
  });
});
