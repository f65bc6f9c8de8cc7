// The checks on how a step got there: calledWith, sequence, maxCalls, maxRounds, judged by
// runChecks over a step's calls as the loop records them (with their arguments).
import { describe, expect, it } from 'vitest';
import { argumentPattern, badPatterns, firstDifference, orderSeen, quote } from '../../src/rungs/callChecks.ts';
import { runChecks, type StepCall, type StepRecord } from '../../src/rungs/checks.ts';
import type { Check } from '../../src/rungs/schema.ts';

function step(calls: StepCall[], rounds = 1): StepRecord {
  return { answer: 'done', calls, rounds, toolsOfferedPerRound: Array.from({ length: rounds }, () => 3), serversConfigured: 1, workspace: '/nowhere' };
}

const call = (tool: string, args?: Record<string, unknown>, outcome = 'ok'): StepCall => ({ tool, key: `${tool}\n${JSON.stringify(args)}`, args, outcome });

async function why(check: Check, record: StepRecord): Promise<string | undefined> {
  const [result] = await runChecks([check], record);
  expect(result!.passed).toBe(result!.why === undefined);
  return result!.why;
}

describe('calledWith', () => {
  const query = (args: Record<string, unknown>): Check => ({ calledWith: { tool: 'db__query', args } });
  const record = step([
    call('db__query', { sql: 'SELECT 1', filter: { limit: 5, order: 'asc' } }),
    call('db__query', { sql: 'SELECT name FROM users', filter: { limit: 10, order: 'desc' }, tags: ['a', 'b'] }),
    call('fs__read', { path: 'x' }),
  ]);

  it('passes when one call of the tool has every argument given, whatever else it had', async () => {
    expect(await why(query({ filter: { limit: 10 } }), record)).toBeUndefined();
    expect(await why(query({}), record)).toBeUndefined();
    expect(await why(query({ sql: 'SELECT 1', filter: {} }), record)).toBeUndefined();
  });

  it('matches nested objects by a subset of keys, on one call, not across calls', async () => {
    // limit 10 is in the second call and sql 'SELECT 1' in the first: no one call has both.
    expect(await why(query({ sql: 'SELECT 1', filter: { limit: 10 } }), record)).toBe(
      'no call of db__query (2) had the arguments; the closest, {"sql":"SELECT 1","filter":{"limit":5,"order":"asc"}}, differs at args.filter.limit: expected 10, got 5',
    );
  });

  it('names the closest call: the one matching the most expected fields', async () => {
    expect(await why(query({ sql: 'SELECT 2', filter: { limit: 10, order: 'desc' } }), record)).toBe(
      'no call of db__query (2) had the arguments; the closest, {"sql":"SELECT name FROM users","filter":{"limit":10,"order":"desc"},"tags":["a","b"]}, ' +
        'differs at args.sql: expected "SELECT 2", got "SELECT name FROM users"',
    );
    // A tie keeps the first call.
    expect(await why(query({ sql: 'SELECT 3' }), record)).toMatch(/the closest, \{"sql":"SELECT 1",.*differs at args\.sql: expected "SELECT 3", got "SELECT 1"$/);
  });

  it('counts matching leaves to pick the closest: array items, empty arrays and objects, never a string taken for an array', async () => {
    const closest = async (expected: Record<string, unknown>, calls: Record<string, unknown>[]): Promise<string> =>
      /the closest, (.*), differs at/.exec((await why(query(expected), step(calls.map((args) => call('db__query', args)))))!)![1]!;
    // Two items matched beat none; a string is not an array, whatever its characters.
    expect(await closest({ tags: ['a', 'b'], sql: 'z' }, [{ tags: ['x', 'y'], sql: 'q' }, { tags: ['a', 'b'], sql: 'q' }])).toBe('{"tags":["a","b"],"sql":"q"}');
    expect(await closest({ tags: ['a', 'b'], sql: 'z' }, [{ tags: 'ab', sql: 'q' }, { tags: ['a', 'x'], sql: 'q' }])).toBe('{"tags":["a","x"],"sql":"q"}');
    // An empty array or object is one leaf, matched by an empty array, by any object.
    expect(await closest({ list: [], sql: 'z' }, [{ list: [1], sql: 'q' }, { list: [], sql: 'q' }])).toBe('{"list":[],"sql":"q"}');
    expect(await closest({ opts: {}, sql: 'z' }, [{ opts: 5, sql: 'q' }, { opts: null, sql: 'q' }, { opts: { a: 1 }, sql: 'q' }])).toBe('{"opts":{"a":1},"sql":"q"}');
    expect(await closest({ opts: { a: 1 }, sql: 'z' }, [{ opts: null, sql: 'q' }, { opts: { a: 1 }, sql: 'q' }])).toBe('{"opts":{"a":1},"sql":"q"}');
  });

  it('says a field is missing', async () => {
    expect(await why(query({ sql: 'SELECT 1', filter: { offset: 0 } }), record)).toMatch(/differs at args\.filter\.offset: missing$/);
  });

  it('takes a string written /.../ as a regular expression tested against a string value', async () => {
    expect(await why(query({ sql: '/^select name/' }), record)).toMatch(/differs at args\.sql: expected a string matching \/\^select name\/, got "SELECT 1"$/);
    // No flags: a trailing letter makes the string a literal.
    expect(await why(query({ sql: '/^select name/i' }), record)).toMatch(/differs at args\.sql: expected "\/\^select name\/i", got "SELECT 1"$/);
    expect(await why(query({ sql: '/^SELECT name/' }), record)).toBeUndefined();
    expect(await why(query({ sql: '/users$/', filter: { order: '/^de/' } }), record)).toBeUndefined();
    expect(await why(query({ filter: { limit: '/10/' } }), record)).toMatch(/differs at args\.filter\.limit: expected a string matching \/10\/, got 5$/);
    // A string with slashes inside is a literal unless it starts and ends with one.
    expect(argumentPattern('/a/b')).toBeUndefined();
    expect(argumentPattern('a/b/')).toBeUndefined();
    expect(argumentPattern('/')).toBeUndefined();
    expect(argumentPattern('//')).toBeUndefined();
    expect(argumentPattern('/x/')).toBe('x');
    expect(argumentPattern('/a\nb/')).toBe('a\nb');
  });

  it('matches arrays of equal length element by element, each as a subset', async () => {
    expect(await why(query({ tags: ['a', 'b'] }), record)).toBeUndefined();
    expect(await why(query({ tags: ['a', '/^b/'] }), record)).toBeUndefined();
    expect(await why(query({ tags: ['a'] }), record)).toMatch(/differs at args\.tags: expected 1 item\(s\), got 2$/);
    expect(await why(query({ tags: ['a', 'c'] }), record)).toMatch(/differs at args\.tags\[1\]: expected "c", got "b"$/);
    const rows = step([call('db__insert', { rows: [{ id: 1, name: 'x' }, { id: 2, name: 'y' }] })]);
    expect(await why({ calledWith: { tool: 'db__insert', args: { rows: [{ id: 1 }, { id: 2 }] } } }, rows)).toBeUndefined();
    expect(await why({ calledWith: { tool: 'db__insert', args: { rows: [{ id: 1 }, { id: 3 }] } } }, rows)).toMatch(/differs at args\.rows\[1\]\.id: expected 3, got 2$/);
  });

  it('compares scalars strictly: a number is not its string, null is not missing', async () => {
    expect(await why(query({ filter: { limit: '10' } }), record)).toMatch(/differs at args\.filter\.limit: expected "10", got 5$/);
    const nulls = step([call('db__query', { cursor: null })]);
    expect(await why(query({ cursor: null }), nulls)).toBeUndefined();
    expect(await why(query({ cursor: 0 }), nulls)).toMatch(/differs at args\.cursor: expected 0, got null$/);
    expect(await why(query({ page: null }), nulls)).toMatch(/differs at args\.page: missing$/);
  });

  it('says when the value has another shape than expected', () => {
    expect(firstDifference({ a: 1 }, [1], 'args')).toEqual({ path: 'args', why: 'expected an object, got [1]' });
    expect(firstDifference({ a: 1 }, null, 'args')).toEqual({ path: 'args', why: 'expected an object, got null' });
    expect(firstDifference([1], { 0: 1 }, 'args.x')).toEqual({ path: 'args.x', why: 'expected an array, got {"0":1}' });
    expect(firstDifference('/x/', undefined, 'args.y')).toEqual({ path: 'args.y', why: 'expected a string matching /x/, got nothing' });
    expect(firstDifference([], [], 'args')).toBeUndefined();
    // A pattern is tested against strings only; an array holding one pattern is an array.
    expect(firstDifference('/5/', 5, 'args.n')).toEqual({ path: 'args.n', why: 'expected a string matching /5/, got 5' });
    expect(firstDifference(['/^a/'], ['abc'], 'args')).toBeUndefined();
    expect(firstDifference(['/^a/'], 'abc', 'args')).toEqual({ path: 'args', why: 'expected an array, got "abc"' });
    expect(firstDifference({}, {}, 'args')).toBeUndefined();
  });

  it('says the tool was never called, or never with readable arguments', async () => {
    expect(await why({ calledWith: { tool: 'db__drop', args: {} } }, record)).toBe('db__drop was never called');
    const unreadable = step([call('db__query', undefined, 'invalid_arguments'), call('db__query', undefined, 'invalid_arguments')]);
    expect(await why(query({}), unreadable)).toBe('db__query was called 2 time(s), never with arguments that were a JSON object');
    // A readable call among unreadable ones is the one judged and quoted.
    const mixed = step([call('db__query', undefined, 'invalid_arguments'), call('db__query', { sql: 'x' })]);
    expect(await why(query({ sql: 'y' }), mixed)).toBe('no call of db__query (2) had the arguments; the closest, {"sql":"x"}, differs at args.sql: expected "y", got "x"');
  });

  it('counts a call the harness refused or short-circuited: the model asked for it with these arguments', async () => {
    expect(await why(query({ sql: 'x' }), step([call('db__query', { sql: 'x' }, 'refused')]))).toBeUndefined();
    expect(await why(query({ sql: 'x' }), step([call('db__query', { sql: 'x' }, 'short_circuited')]))).toBeUndefined();
  });

  it('quotes long arguments cut to 200 characters', async () => {
    const long = 'x'.repeat(300);
    const result = await why(query({ sql: 'y' }), step([call('db__query', { sql: long })]));
    expect(result).toBe(`no call of db__query (1) had the arguments; the closest, ${JSON.stringify({ sql: long }).slice(0, 200)}…, differs at args.sql: expected "y", got ${JSON.stringify(long).slice(0, 200)}…`);
    expect(quote('x'.repeat(198))).toBe(JSON.stringify('x'.repeat(198)));
    expect(quote('x'.repeat(199))).toBe(`${JSON.stringify('x'.repeat(199)).slice(0, 200)}…`);
  });

  it('finds every pattern that does not compile, with its path', () => {
    expect(badPatterns({ a: '/(/', b: ['/ok/', '/[/'], c: { d: '/)/' }, e: 'plain (', f: 3 })).toEqual([
      { path: ['a'], message: 'not a regular expression: Invalid regular expression: /(/: Unterminated group' },
      { path: ['b', 1], message: 'not a regular expression: Invalid regular expression: /[/: Unterminated character class' },
      { path: ['c', 'd'], message: "not a regular expression: Invalid regular expression: /)/: Unmatched ')'" },
    ]);
    expect(badPatterns({ a: '/x/', b: [1, null] })).toEqual([]);
  });
});

describe('sequence', () => {
  const record = step([call('fs__read'), call('fs__list'), call('fs__read'), call('fs__write'), call('fs__read')]);

  it('passes for an ordered subsequence, other calls between', async () => {
    expect(await why({ sequence: ['fs__read', 'fs__write'] }, record)).toBeUndefined();
    expect(await why({ sequence: ['fs__list', 'fs__write', 'fs__read'] }, record)).toBeUndefined();
    expect(await why({ sequence: ['fs__read', 'fs__read', 'fs__read'] }, record)).toBeUndefined();
    expect(await why({ sequence: { tools: ['fs__read', 'fs__write'], strict: false } }, record)).toBeUndefined();
  });

  it('says which tool did not come after which, and the order seen', async () => {
    expect(await why({ sequence: ['fs__write', 'fs__list'] }, record)).toBe(
      'fs__list was not called after fs__write; the order seen: fs__read, fs__list, fs__read, fs__write, fs__read',
    );
    expect(await why({ sequence: ['fs__delete', 'fs__read'] }, record)).toBe(
      'fs__delete was never called; the order seen: fs__read, fs__list, fs__read, fs__write, fs__read',
    );
    expect(await why({ sequence: ['fs__read', 'fs__read', 'fs__read', 'fs__read'] }, record)).toMatch(/^fs__read was not called after fs__read;/);
    expect(await why({ sequence: ['fs__read', 'fs__write'] }, step([]))).toBe('fs__read was never called; the order seen: no calls');
  });

  it('strict: allows nothing between', async () => {
    expect(await why({ sequence: { tools: ['fs__read', 'fs__write'], strict: true } }, record)).toBeUndefined();
    expect(await why({ sequence: { tools: ['fs__write', 'fs__read'], strict: true } }, record)).toBeUndefined();
    expect(await why({ sequence: { tools: ['fs__read', 'fs__list', 'fs__read', 'fs__write', 'fs__read'], strict: true } }, record)).toBeUndefined();
    expect(await why({ sequence: { tools: ['fs__list', 'fs__write'], strict: true } }, record)).toBe(
      'fs__list, fs__write were never called in this order with nothing between; the order seen: fs__read, fs__list, fs__read, fs__write, fs__read',
    );
    // Longer than the calls made: no window fits.
    expect(await why({ sequence: { tools: ['fs__read', 'fs__list', 'fs__read', 'fs__write', 'fs__read', 'fs__read'], strict: true } }, record)).toMatch(/never called in this order/);
    expect(await why({ sequence: { tools: ['fs__read', 'fs__list'], strict: true } }, step([call('fs__read')]))).toMatch(/never called in this order/);
  });

  it('writes a run of one tool once with its count, and cuts a long order after 20 runs', () => {
    expect(orderSeen([call('a'), call('a'), call('a'), call('b'), call('a')])).toBe('a ×3, b, a');
    const alternating = Array.from({ length: 22 }, (_, i) => call(i % 2 === 0 ? 'a' : 'b'));
    expect(orderSeen(alternating)).toBe(`${Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'a' : 'b')).join(', ')}, and 2 more`);
    expect(orderSeen(alternating.slice(0, 20))).toBe(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'a' : 'b')).join(', '));
  });
});

describe('maxCalls and maxRounds', () => {
  const calls = [call('a', {}, 'ok'), call('a', {}, 'refused'), call('b', {}, 'short_circuited'), call('c', undefined, 'invalid_arguments')];

  it('counts every call the model asked for, refused, short-circuited and unsent included: N passes, N - 1 fails', async () => {
    expect(await why({ maxCalls: 4 }, step(calls))).toBeUndefined();
    expect(await why({ maxCalls: 3 }, step(calls))).toBe('4 tool call(s) were made (at most 3)');
    expect(await why({ maxCalls: 0 }, step([]))).toBeUndefined();
    expect(await why({ maxCalls: 0 }, step([call('a')]))).toBe('1 tool call(s) were made (at most 0)');
  });

  it('counts the model requests of the step: N passes, N - 1 fails', async () => {
    expect(await why({ maxRounds: 3 }, step([], 3))).toBeUndefined();
    expect(await why({ maxRounds: 2 }, step([], 3))).toBe('3 model request(s) were made (at most 2)');
    expect(await why({ maxRounds: 1 }, step([], 1))).toBeUndefined();
  });
});
