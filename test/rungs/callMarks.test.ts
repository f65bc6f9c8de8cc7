// Which call satisfied or broke each check on calls: the marks `ladder show` and the HTML
// report print under a call. Each kind, held and broken, and the rule that a mark agrees with
// the check's verdict.
import { describe, expect, it } from 'vitest';
import { callMarks } from '../../src/rungs/callMarks.ts';
import type { CallMark } from '../../src/rungs/callMarks.ts';
import { runChecks } from '../../src/rungs/checks.ts';
import type { StepCall } from '../../src/rungs/checks.ts';
import type { Check } from '../../src/rungs/schema.ts';

const call = (tool: string, args?: Record<string, unknown>, outcome = 'ok'): StepCall => ({ tool, key: `${tool}\n${JSON.stringify(args)}`, args, outcome });

/** The marks as `call: ✓/✗ detail`, the check's name left out (each test marks one check). */
const marks = (check: Check, calls: StepCall[], args = true): string[] =>
  callMarks([check], calls, args).map((m) => `${m.call}: ${m.satisfied ? '✓' : '✗'}${m.detail === '' ? '' : ` ${m.detail}`}`);

const read = call('fs__read', { path: 'a' });
const write = call('fs__write', { path: 'b', content: '42' });
const list = call('fs__list', { path: '.' });

describe('the call each check marks', () => {
  it('called: the first call of the tool; never called: nothing', () => {
    expect(marks({ called: 'fs__write' }, [read, write, write])).toEqual(['1: ✓']);
    expect(marks({ called: 'fs__move' }, [read, write])).toEqual([]);
  });

  it('succeeded: the first call answered ok; none ok: every call of the tool, with its outcome', () => {
    const failed = call('fs__write', { path: 'b' }, 'failed');
    expect(marks({ succeeded: 'fs__write' }, [failed, read, write, write])).toEqual(['2: ✓']);
    expect(marks({ succeeded: 'fs__write' }, [failed, read, call('fs__write', {}, 'refused')])).toEqual(['0: ✗ answered failed', '2: ✗ answered refused']);
    expect(marks({ succeeded: 'fs__write' }, [read])).toEqual([]);
  });

  it('notCalled: every call of the tool breaks it', () => {
    expect(marks({ notCalled: 'fs__write' }, [write, read, write])).toEqual(['0: ✗', '2: ✗']);
    expect(marks({ notCalled: 'fs__write' }, [read])).toEqual([]);
  });

  it('maxRepeats: each identical call past the repeats allowed, numbered', () => {
    expect(marks({ maxRepeats: 1 }, [read, read, write, read, read, write])).toEqual(['3: ✗ repeat 2 of an identical call', '4: ✗ repeat 3 of an identical call']);
    // Identical means the same key: the same tool with other arguments is another call.
    expect(marks({ maxRepeats: 0 }, [read, call('fs__read', { path: 'z' }), read])).toEqual(['2: ✗ repeat 1 of an identical call']);
    expect(marks({ maxRepeats: 2 }, [read, read, read])).toEqual([]);
  });

  it('maxCalls: the first call over the limit only', () => {
    expect(marks({ maxCalls: 2 }, [read, list, write, write])).toEqual(['2: ✗ call 3, the first over the limit']);
    expect(marks({ maxCalls: 0 }, [read])).toEqual(['0: ✗ call 1, the first over the limit']);
    expect(marks({ maxCalls: 2 }, [read, write])).toEqual([]);
  });

  it('calledWith: the first call with the arguments; else the closest, saying where it differs', () => {
    const check: Check = { calledWith: { tool: 'fs__write', args: { path: 'b', content: '42' } } };
    expect(marks(check, [call('fs__write', { path: 'b', content: '41' }), write, write])).toEqual(['1: ✓']);
    // The closest matches the most expected fields, not the first call of the tool.
    expect(marks(check, [read, call('fs__write', { content: '9' }), call('fs__write', { path: 'b', content: '7' })])).toEqual([
      '2: ✗ the closest call; differs at args.content: expected "42", got "7"',
    ]);
    // Never called, or never with readable arguments: no call to mark.
    expect(marks(check, [read])).toEqual([]);
    expect(marks(check, [{ tool: 'fs__write', key: 'k', outcome: 'invalid_arguments' }])).toEqual([]);
  });

  it('calledWith marks nothing when the calls carry no arguments (a redacted trace)', () => {
    expect(marks({ calledWith: { tool: 'fs__write', args: {} } }, [write], false)).toEqual([]);
    // The other checks need no arguments and still mark.
    expect(marks({ called: 'fs__write' }, [write], false)).toEqual(['0: ✓']);
  });

  it('sequence, held: each call of the order, numbered', () => {
    expect(marks({ sequence: ['fs__read', 'fs__write'] }, [list, read, list, read, write])).toEqual(['1: ✓ 1 of 2', '4: ✓ 2 of 2']);
    expect(marks({ sequence: { tools: ['fs__read', 'fs__write'], strict: true } }, [read, list, read, write])).toEqual(['2: ✓ 1 of 2', '3: ✓ 2 of 2']);
  });

  it('sequence, broken loosely: the last call found in order, the next tool never after it', () => {
    const check: Check = { sequence: ['fs__read', 'fs__list', 'fs__write'] };
    expect(marks(check, [write, read, list, read])).toEqual(['2: ✗ 2 of 3; fs__write was not called after it']);
    expect(marks(check, [write, list])).toEqual([]);
  });

  it('sequence, broken strictly: the call that came where the next tool was expected, or the last one', () => {
    const check: Check = { sequence: { tools: ['fs__read', 'fs__list', 'fs__write'], strict: true } };
    // The longest run that began the order (the first of equals) is the one marked.
    expect(marks(check, [read, write, read, list, read, write])).toEqual(['4: ✗ came where fs__write was expected, after 2 of 3']);
    expect(marks(check, [read, write, read, list])).toEqual(['3: ✗ 2 of 3; no call came after it']);
    expect(marks(check, [read, write, read, write])).toEqual(['1: ✗ came where fs__list was expected, after 1 of 3']);
    expect(marks(check, [write, list])).toEqual([]);
  });

  it('checks that are not about one call mark nothing', () => {
    for (const check of [
      { answer: { mentions: ['42'] } }, { maxRounds: 1 }, { noZeroToolRounds: true }, { file: { path: 'b', exists: true } },
      { sql: { query: 'SELECT 1', rows: [[1]] } }, { judge: { rubric: 'r' } },
    ] as Check[]) expect(marks(check, [read, read, write])).toEqual([]);
  });

  it('names each mark by its check, in check order', () => {
    const found = callMarks([{ called: 'fs__write' }, { maxCalls: 0 }], [write]);
    expect(found).toEqual<CallMark[]>([
      { call: 0, check: 'called "fs__write"', label: 'called fs__write', satisfied: true, detail: '' },
      { call: 0, check: 'maxCalls 0', label: 'maxCalls 0', satisfied: false, detail: 'call 1, the first over the limit' },
    ]);
  });

  it('labels a check in short: calledWith by its arguments, sequence by its tools', () => {
    const labels = (checks: Check[]): string[] => callMarks(checks, [read, write]).map((m) => m.label);
    expect(labels([
      { calledWith: { tool: 'fs__write', args: { content: '42' } } }, { sequence: ['fs__read', 'fs__write'] },
      { sequence: { tools: ['fs__read', 'fs__write'], strict: true } }, { succeeded: 'fs__read' }, { notCalled: 'fs__read' }, { maxRepeats: 0 },
    ])).toEqual([
      'calledWith {"content":"42"}', 'sequence fs__read, fs__write', 'sequence fs__read, fs__write',
      'sequence strict fs__read, fs__write', 'sequence strict fs__read, fs__write', 'succeeded fs__read', 'notCalled fs__read',
    ]);
  });
});

describe('a mark agrees with its check', () => {
  const steps: StepCall[][] = [
    [read, write],
    [write, read, read, read],
    [list, call('fs__write', { content: '7' }, 'failed'), list, write],
    [],
  ];
  const checks: Check[] = [
    { called: 'fs__write' }, { succeeded: 'fs__write' }, { notCalled: 'fs__list' }, { maxRepeats: 1 }, { maxCalls: 2 },
    { calledWith: { tool: 'fs__write', args: { content: '42' } } },
    { sequence: ['fs__read', 'fs__write'] }, { sequence: { tools: ['fs__list', 'fs__write'], strict: true } },
  ];

  it('satisfied marks only on checks that passed, broken marks only on checks that failed', async () => {
    let seen = 0;
    for (const calls of steps) {
      const results = await runChecks(checks, { answer: 'done', calls, rounds: 1, toolsOfferedPerRound: [3], serversConfigured: 1, workspace: '/nowhere' });
      for (const m of callMarks(checks, calls)) {
        expect({ check: m.check, passed: results.find((r) => r.check === m.check)!.passed }).toEqual({ check: m.check, passed: m.satisfied });
        seen += 1;
      }
    }
    expect(seen).toBeGreaterThan(15);
  });
});
