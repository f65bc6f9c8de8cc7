// What rescore reads of a recorded step (src/report/stepEvidence.ts): the calls as the loop
// recorded them, from a trace written the way the loop and the lane write one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PassRecord } from '../../src/report/passes.ts';
import { readPassEvidence } from '../../src/report/stepEvidence.ts';
import { tempDir } from './runBuilder.ts';
import { scriptedPass } from './transcriptTrace.ts';

let dir: string;
let remove: () => void;
beforeEach(() => ({ dir, remove } = tempDir('ladder-evidence-')));
afterEach(() => remove());

const PASS = { rung: 'r', arm: 'on', pass: 0, file: 'traces/p.jsonl' } as PassRecord;

describe('the calls of a recorded step', () => {
  it('are the loop\'s: a call its step stopped is abandoned, a call that timed out a timeout', async () => {
    mkdirSync(join(dir, 'traces'));
    const events = scriptedPass([{
      rounds: [{ calls: [{ outcome: 'timeout', errorType: 'timeout' }, { name: 'wb__browse', outcome: 'timeout', errorType: 'abandoned' }] }],
      reason: 'time_limit', passed: false,
    }]);
    writeFileSync(join(dir, PASS.file), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const evidence = await readPassEvidence(dir, PASS);
    expect(evidence.steps.get(0)!.calls.map((c) => [c.tool, c.outcome])).toEqual([['wb__read', 'timeout'], ['wb__browse', 'abandoned']]);
  });

  it('carry the arguments the model gave, none for a call never made, and count the model requests', async () => {
    mkdirSync(join(dir, 'traces'));
    const events = scriptedPass([{
      rounds: [
        { calls: [{ args: { path: 'a.md', lines: [1, 2] }, outcome: 'ok' }, { name: 'wb__browse', args: { url: 'x' }, outcome: 'refused' }] },
        { calls: [{ name: 'wb__browse', args: {}, invalid: 'cut off by the token limit' }] },
        { text: 'done' },
      ],
    }]);
    writeFileSync(join(dir, PASS.file), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const step = (await readPassEvidence(dir, PASS)).steps.get(0)!;
    expect(step.calls.map((c) => [c.tool, c.args, c.outcome])).toEqual([
      ['wb__read', { path: 'a.md', lines: [1, 2] }, 'ok'], ['wb__browse', { url: 'x' }, 'refused'], ['wb__browse', undefined, 'invalid_arguments'],
    ]);
    expect(step.rounds).toBe(3);
    expect(step.callArgs).toBe(true);
  });
});
