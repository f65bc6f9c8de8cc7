import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerCheckOf, describeCheck, mostRepeated, runChecks, type StepRecord } from '../../src/rungs/checks.ts';
import type { Check } from '../../src/rungs/schema.ts';
import type { JudgeFn } from '../../src/judge/judge.ts';

let workspace: string;
let databasePath: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'ladder-checks-'));
  await mkdir(join(workspace, 'conf'));
  await writeFile(join(workspace, 'conf', 'app.yaml'), 'port: 8080\nmode: fast\n');
  await writeFile(join(workspace, '..notes.txt'), 'kept\n');
  databasePath = join(workspace, 'bench.sqlite');
  const db = new Database(databasePath);
  db.exec("CREATE TABLE orders (id INTEGER, item TEXT); INSERT INTO orders VALUES (1001, 'lamp')");
  db.close();
});

function step(overrides: Partial<StepRecord> = {}): StepRecord {
  return {
    answer: 'The port is 8080.',
    calls: [],
    rounds: 2,
    toolsOfferedPerRound: [5, 5],
    serversConfigured: 1,
    workspace,
    databasePath,
    ...overrides,
  };
}

async function one(check: Check, record = step()) {
  const [result] = await runChecks([check], record);
  return result!;
}

const call = (tool: string, key = `${tool}\n{}`, outcome = 'ok') => ({ tool, key, outcome });

describe('file checks', () => {
  it('pass when the file exists and matches', async () => {
    expect(await one({ file: { path: 'conf/app.yaml', exists: true, matches: '^mode: fast$' } })).toMatchObject({ passed: true });
  });
  it('say the file is missing', async () => {
    expect((await one({ file: { path: 'conf/none.yaml', exists: true } })).why).toBe('conf/none.yaml does not exist');
  });
  it('say the file does not match', async () => {
    expect((await one({ file: { path: 'conf/app.yaml', exists: true, matches: '^mode: slow$' } })).why).toBe(
      'conf/app.yaml does not match /^mode: slow$/',
    );
  });
  it('can require a file to be absent', async () => {
    expect((await one({ file: { path: 'conf/none.yaml', exists: false } })).passed).toBe(true);
    expect((await one({ file: { path: 'conf/app.yaml', exists: false } })).why).toBe('conf/app.yaml exists but should not');
  });
  it('refuse a path outside the workspace', async () => {
    expect((await one({ file: { path: '../etc/passwd', exists: true } })).why).toBe('../etc/passwd is outside the workspace');
    expect((await one({ file: { path: 'conf/../../x', exists: false } })).why).toBe('conf/../../x is outside the workspace');
    expect((await one({ file: { path: '/etc/passwd', exists: true } })).why).toBe('/etc/passwd is outside the workspace');
  });
  it('read a file whose name starts with two dots, which is inside the workspace', async () => {
    expect((await one({ file: { path: '..notes.txt', exists: true, matches: '^kept$' } })).passed).toBe(true);
    expect((await one({ file: { path: 'conf/../..notes.txt', exists: true } })).passed).toBe(true);
  });
  it('take the workspace itself as inside it, and as no file', async () => {
    expect(await one({ file: { path: '.', exists: false } })).toMatchObject({ passed: true });
    expect((await one({ file: { path: '.', exists: true } })).why).toBe('. does not exist');
  });
});

describe('sql checks', () => {
  it('pass when the rows are exactly the expected ones', async () => {
    expect((await one({ sql: { query: 'SELECT id, item FROM orders', rows: [[1001, 'lamp']] } })).passed).toBe(true);
  });
  it('fail when the rows come in another order than expected: a query that does not care says ORDER BY', async () => {
    const pair = new Database(join(workspace, 'pair.db'));
    pair.exec("CREATE TABLE t (id INTEGER); INSERT INTO t VALUES (2); INSERT INTO t VALUES (1)");
    pair.close();
    const query = (q: string, rows: number[][]) => one({ sql: { db: 'pair.db', query: q, rows } });
    expect((await query('SELECT id FROM t ORDER BY id DESC', [[1], [2]])).why).toBe('expected rows [[1],[2]], got [[2],[1]]');
    expect((await query('SELECT id FROM t ORDER BY id', [[1], [2]])).passed).toBe(true);
  });
  it('show expected and actual rows', async () => {
    expect((await one({ sql: { query: 'SELECT id FROM orders', rows: [[1002]] } })).why).toBe('expected rows [[1002]], got [[1001]]');
  });
  it('report a failing query with the database message', async () => {
    expect((await one({ sql: { query: 'SELECT * FROM nope', rows: [] } })).why).toBe('the query failed: no such table: nope');
  });
  it('fail when the rung has no database', async () => {
    expect((await one({ sql: { query: 'SELECT 1', rows: [[1]] } }, step({ databasePath: undefined }))).why).toBe(
      'the rung has no workbench database to query; name the file with db',
    );
  });
  it('read another database file of the workspace when it is named', async () => {
    // bench.sqlite is in the workspace: named by db, it is read even with no workbench database.
    const named = await one({ sql: { db: 'bench.sqlite', query: 'SELECT id FROM orders', rows: [[1001]] } }, step({ databasePath: undefined }));
    expect(named.passed).toBe(true);
    const missing = await one({ sql: { db: 'other.db', query: 'SELECT 1', rows: [[1]] } });
    expect(missing.passed).toBe(false);
    expect(missing.why).toMatch(/^the query failed/);
  });
});

describe('call checks', () => {
  const record = step({ calls: [call('bench__files_read', 'a'), call('bench__sql_query', 'b', 'refused')] });
  it('count a refused call as called: the model asked for it', async () => {
    expect((await one({ called: 'bench__sql_query' }, record)).passed).toBe(true);
  });
  it('say a tool was never called', async () => {
    expect((await one({ called: 'bench__files_write' }, record)).why).toBe('bench__files_write was never called');
  });
  it('count only a call that answered ok as succeeded', async () => {
    expect((await one({ succeeded: 'bench__files_read' }, record)).passed).toBe(true);
    expect((await one({ succeeded: 'bench__sql_query' }, record)).why).toBe('bench__sql_query never answered ok (refused)');
    expect((await one({ succeeded: 'bench__files_write' }, record)).why).toBe('bench__files_write was never called');
    const mixed = step({ calls: [call('bench__sql_query', 'b', 'timeout'), call('bench__sql_query', 'c', 'failed'), call('bench__sql_query', 'd', 'timeout')] });
    expect((await one({ succeeded: 'bench__sql_query' }, mixed)).why).toBe('bench__sql_query never answered ok (timeout, failed)');
  });
  it('say how often a forbidden tool was called', async () => {
    expect((await one({ notCalled: 'bench__files_read' }, record)).why).toBe('bench__files_read was called 1 time(s)');
    expect((await one({ notCalled: 'bench__files_write' }, record)).passed).toBe(true);
  });
});

describe('answer checks', () => {
  it('match case-insensitively', async () => {
    expect((await one({ answer: { matches: 'PORT IS \\d+' } })).passed).toBe(true);
    expect((await one({ answer: { matches: 'port is 9090' } })).why).toBe('the answer does not match /port is 9090/i');
  });
  it('name every missing mention', async () => {
    expect((await one({ answer: { mentions: ['8080', 'mode', 'fast'] } })).why).toBe('the answer does not mention "mode", "fast"');
    expect((await one({ answer: { mentions: ['8080'] } })).passed).toBe(true);
  });
  it('fail a step that never answered', async () => {
    expect((await one({ answer: { mentions: ['x'] } }, step({ answer: '' }))).why).toBe('the step ended without an answer');
  });
});

describe('repeat and roster checks', () => {
  it('count repeats after the first identical call', () => {
    const calls = [call('t', 'k1'), call('t', 'k1'), call('t', 'k1'), call('u', 'k2'), call('u', 'k2')];
    expect(mostRepeated(calls)).toEqual({ tool: 't', repeats: 2 });
    expect(mostRepeated([])).toEqual({ tool: '', repeats: 0 });
  });
  it('count identical calls, not calls of one tool: the same tool with other arguments is no repeat', async () => {
    const calls = [call('t', 'k1'), call('t', 'k2'), call('t', 'k3'), call('t', 'k2')];
    expect(mostRepeated(calls)).toEqual({ tool: 't', repeats: 1 });
    expect((await one({ maxRepeats: 1 }, step({ calls }))).passed).toBe(true);
    expect((await one({ maxRepeats: 0 }, step({ calls }))).why).toBe('t was repeated 1 time(s) with identical arguments (at most 0)');
  });
  it('allow at most K repeats', async () => {
    const record = step({ calls: [call('t', 'k'), call('t', 'k'), call('t', 'k')] });
    expect((await one({ maxRepeats: 2 }, record)).passed).toBe(true);
    expect((await one({ maxRepeats: 1 }, record)).why).toBe('t was repeated 2 time(s) with identical arguments (at most 1)');
  });
  it('report the tool repeated most, the first of two that tie', () => {
    const calls = [call('t', 'k1'), call('u', 'k2'), call('t', 'k1'), call('u', 'k2')];
    expect(mostRepeated(calls)).toEqual({ tool: 't', repeats: 1 });
    expect(mostRepeated([call('t', 'k1')])).toEqual({ tool: '', repeats: 0 });
  });
  it('pass every round offered tools', async () => {
    expect((await one({ noZeroToolRounds: true }, step({ toolsOfferedPerRound: [5, 5] }))).passed).toBe(true);
  });
  it('fail a round offered no tools while servers are configured', async () => {
    expect((await one({ noZeroToolRounds: true }, step({ toolsOfferedPerRound: [5, 0, 0] }))).why).toBe('2 round(s) were offered no tools');
    expect((await one({ noZeroToolRounds: true }, step({ toolsOfferedPerRound: [0], serversConfigured: 0 }))).passed).toBe(true);
  });
});

describe('every check', () => {
  it('is named by its kind and value, and a failed one says passed: false', async () => {
    expect(describeCheck({ called: 'bench__files_read' })).toBe('called "bench__files_read"');
    expect(await one({ called: 'bench__nothing' })).toEqual({
      check: 'called "bench__nothing"', passed: false, why: 'bench__nothing was never called',
    });
    expect(await one({ answer: { mentions: ['8080'] } })).toEqual({ check: 'answer {"mentions":["8080"]}', passed: true });
  });

  it('matches mentions whatever their case', async () => {
    expect((await one({ answer: { mentions: ['PORT', 'The'] } }, step({ answer: 'the port is 8080' }))).passed).toBe(true);
    expect((await one({ answer: { mentions: ['port'] } }, step({ answer: 'THE PORT IS 8080' }))).passed).toBe(true);
  });

  it('never change the database: a query that writes fails, and the rows stay', async () => {
    const result = await one({ sql: { query: "INSERT INTO orders VALUES (2, 'desk') RETURNING id", rows: [[2]] } });
    expect(result.passed).toBe(false);
    expect(result.why).toMatch(/^the query failed: attempt to write a readonly database/);
    expect((await one({ sql: { query: 'SELECT id FROM orders', rows: [[1001]] } })).passed).toBe(true);
  });

  it('do not make a database that is not there', async () => {
    const missing = join(workspace, 'none.sqlite');
    const result = await one({ sql: { query: 'SELECT 1', rows: [[1]] } }, step({ databasePath: missing }));
    expect(result.why).toMatch(/^the query failed: unable to open database file/);
    expect(existsSync(missing)).toBe(false);
  });

  it.runIf(existsSync('/proc/self/fd'))('leave no database open after a query', async () => {
    await one({ sql: { query: 'SELECT id FROM orders', rows: [[1001]] } });
    await one({ sql: { query: 'SELECT nonsense', rows: [] } });
    const open = readdirSync('/proc/self/fd').map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    });
    expect(open.filter((target) => target.startsWith(databasePath))).toEqual([]);
  });
});

describe('answerCheckOf', () => {
  it('is undefined for a step with no answer check', () => {
    expect(answerCheckOf([{ called: 'x' }, { maxRepeats: 1 }])).toBeUndefined();
  });

  it('passes a text only when every answer check would pass it', () => {
    const check = answerCheckOf([{ answer: { mentions: ['8080'] } }, { called: 'x' }, { answer: { matches: 'port' } }])!;
    expect(check('The port is 8080.')).toBe(true);
    expect(check('It is 8080.')).toBe(false);
    expect(check('The port is unknown.')).toBe(false);
    expect(check('')).toBe(false);
  });
});

describe('judge checks', () => {
  const check: Check = { judge: { rubric: 'The answer gives the port.' } };
  const calls = [{ tool: 'fs__read', key: 'k', args: { path: 'conf/app.yaml' }, outcome: 'ok' }];

  it('asks the judge with the rubric, the check\'s model, the step and where it is, and labels the verdict with the model', async () => {
    const asked: unknown[] = [];
    const judge: JudgeFn = async (ask) => {
      asked.push(ask);
      return { passed: true, why: 'It gives 8080.', model: 'openai:j', cached: false, costUsd: 0.002 };
    };
    const at = { rung: 'r', arm: 'on', pass: 1, step: 0 };
    const named: Check = { judge: { rubric: 'The answer gives the port.', model: 'openai:j' } };
    expect(await one(named, step({ calls, prompt: 'Which port?', judge, at }))).toStrictEqual({
      check: 'judge {"rubric":"The answer gives the port.","model":"openai:j"}', passed: true, judgedBy: 'openai:j', judgeUsd: 0.002,
    });
    expect(asked).toStrictEqual([{
      rubric: 'The answer gives the port.', model: 'openai:j', step: { prompt: 'Which port?', calls, answer: 'The port is 8080.' }, at,
    }]);
    // Without a model of its own, none is named (the judge's default answers); without a prompt, ''.
    await one(check, step({ judge }));
    expect(asked[1]).toStrictEqual({ rubric: 'The answer gives the port.', step: { prompt: '', calls: [], answer: 'The port is 8080.' } });
  });

  it('fails with the judge\'s why, saying who judged', async () => {
    const judge: JudgeFn = async () => ({ passed: false, why: 'No port is given.', model: 'openai:j', cached: true });
    expect(await one(check, step({ judge }))).toStrictEqual({
      check: 'judge {"rubric":"The answer gives the port."}', passed: false, why: 'judged by openai:j: No port is given.', judgedBy: 'openai:j',
    });
    // Bought now from an unpriced model: its cost is unknown, which is said (null), not left out.
    const unpriced: JudgeFn = async () => ({ passed: false, why: 'No port is given.', model: 'openai:j', cached: false, costUsd: null });
    expect(await one(check, step({ judge: unpriced }))).toMatchObject({ passed: false, judgedBy: 'openai:j', judgeUsd: null });
  });

  it('fails, marked unjudged, when there is no judge or it gives no verdict', async () => {
    expect(await one(check, step())).toStrictEqual({
      check: 'judge {"rubric":"The answer gives the port."}', passed: false, unjudged: true,
      why: 'not judged: judge checks are answered by a model, and none was given here',
    });
    const judge: JudgeFn = async () => ({ unknown: 'the judge model openai:j failed: 503' });
    expect(await one(check, step({ judge }))).toStrictEqual({
      check: 'judge {"rubric":"The answer gives the port."}', passed: false, unjudged: true, why: 'not judged: the judge model openai:j failed: 503',
    });
  });
});
