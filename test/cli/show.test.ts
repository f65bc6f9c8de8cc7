// `ladder show` on the recorded fixture runs (format 1 and 2) and on a real run of the
// dead-browser rung, where the breaker refuses the browser call the off arm sends again.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colourByDefault, runShow } from '../../src/cli/show.ts';
import type { ShowArgs } from '../../src/cli/show.ts';
import { loadRun } from '../../src/report/summary.ts';
import { passGrids } from '../../src/report/transcript/run.ts';
import { quietRun, removeTempDirs, tempDir } from '../runner/helpers.ts';

const BEFORE = 'test/fixtures/runs/before';
const AFTER = 'test/fixtures/runs/after';
const SLOW = 120_000; // a real run: two passes with their own server processes on a busy 2-core machine

async function show(args: ShowArgs, colour = false): Promise<{ code: number; out: string; err: string[] }> {
  let out = '';
  const err: string[] = [];
  const code = await runShow(args, { out: (text) => void (out += text), err: (line) => void err.push(line), colour });
  return { code, out, err };
}

describe('ladder show <run>', () => {
  it('lists the passes that did not pass, one line each with the first reason', async () => {
    const { code, out, err } = await show({ run: BEFORE });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out.split('\n')).toEqual([
      'Run before (synthetic:looper): 12 counted passes; 3 did not pass: 2 failed, 1 errored.',
      'NOTE: Synthetic agents exercise the harness; they do not measure any model.',
      '',
      '  failed   dead-browser    off  pass 2  step 0: answer: the answer does not mention the expected value',
      '  errored  catalog-config  on   pass 1  step 0 errored: provider_error',
      '  failed   catalog-config  off  pass 0  step 0: answer: the answer does not mention the expected value',
      '',
      `A transcript: ladder show ${BEFORE} <rung> [--arm A] [--pass i] [--step s]`,
      '',
    ]);
  });

  it('names the passes left out of every figure: cut short, or damaged', async () => {
    const dir = join(await tempDir('ladder-show-'), 'after');
    cpSync(AFTER, dir, { recursive: true });
    const trace = join(dir, 'traces/sql-insert/on-0.jsonl');
    writeFileSync(trace, readFileSync(trace, 'utf8').replace('"outcome":"ok"', '"outcome":"exploded"'));
    const { code, out } = await show({ run: dir });
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('Run after (synthetic:looper): 10 counted passes; 3 did not pass: 3 failed, 0 errored.');
    expect(lines.slice(lines.indexOf('') + 5, -3)).toEqual([
      'Left out of every figure: 1 damaged pass, 1 pass cut short.',
      '  traces/dead-browser/on-2.jsonl:38: torn last line (21 bytes) skipped',
      expect.stringMatching(/^ {2}traces\/sql-insert\/on-0\.jsonl:7: tool\.call field "outcome": .*exploded.*; sql-insert on pass 0 left out$/),
    ]);
  });
});

describe('ladder show <run> <rung>', () => {
  it('shows the first pass that did not pass when no pass is named, and says so', async () => {
    const { code, out } = await show({ run: BEFORE, rung: 'dead-browser' });
    expect(code).toBe(0);
    expect(out.split('\n').slice(0, 5)).toEqual([
      'The first pass of dead-browser that did not pass (--arm and --pass choose another).',
      'dead-browser, arm off, pass 2: failed',
      'seed 102, 2 steps, 1.4 s, trace traces/dead-browser/off-2.jsonl',
      'Why: step 0: answer: the answer does not mention the expected value',
      "Note: Trace format 1: it recorded counts only, so prompts, the model's text, arguments and results are not shown; sizes, outcomes and checks are.",
    ]);
    expect(out).toContain([
      '    [text not recorded (20 bytes)]',
      '    → workbench__browser_open [arguments not recorded (29 bytes)]',
      '      failed (tool_error) in 100 ms',
      '      [result not recorded (40 bytes)]',
    ].join('\n'));
  });

  it('prints the pass, arm and step asked for', async () => {
    const { code, out } = await show({ run: AFTER, rung: 'dead-browser', arm: 'on', pass: 0, step: 0 });
    expect(code).toBe(0);
    expect(out.split('\n').filter((l) => l.startsWith('Step '))).toEqual(['Step 0: passed']);
    expect(out).toContain([
      '  Round 1 (100 tokens in, 10 out)',
      '    Checked; see below.',
      '    → workbench__browser_open {"url":"http://review.local"}',
      '      refused by the breaker: the identical call failed at round 0 of this step; not sent',
      `      │ ${'x'.repeat(40)}`,
    ].join('\n'));
  });

  it.each([
    [{ run: 'test/fixtures/runs/nowhere' }, 'test/fixtures/runs/nowhere: no such results folder; name a folder written by ladder run (results/<run-id>)'],
    [{ run: BEFORE, rung: 'sql-insert' }, `no counted pass of rung "sql-insert" in ${BEFORE}; rungs: dead-browser, catalog-config`],
    [{ run: BEFORE, rung: 'dead-browsr' }, `no counted pass of rung "dead-browsr" in ${BEFORE}; did you mean dead-browser?`],
    [{ run: BEFORE, rung: 'dead-browser', arm: 'breaker=off' }, `no arm "breaker=off" in rung dead-browser of ${BEFORE}; arms: on, off`],
    [{ run: AFTER, rung: 'dead-browser', arm: 'on', pass: 2 },
      `no counted pass 2 of rung dead-browser, arm on in ${AFTER}; passes: 0-1 (passes left out as damaged or cut short are listed by ladder show ${AFTER})`],
    [{ run: BEFORE, rung: 'dead-browser', pass: -1 }, '--pass must be an index (0, 1, 2, ...), got -1'],
    [{ run: BEFORE, rung: 'dead-browser', arm: 'on', pass: 0, step: 2 }, 'no step 2 in dead-browser on pass 0; steps: 0-1'],
    [{ run: BEFORE, pass: 0 }, '--arm, --pass and --step choose within a rung: name the rung too (ladder show <run> <rung>)'],
  ] as [ShowArgs, string][])('exits 2 with one line naming what exists: %j', async (args, line) => {
    expect(await show(args)).toEqual({ code: 2, out: '', err: [`ladder show: ${line}`] });
  });

  it('colours on a terminal unless NO_COLOR is set', async () => {
    expect(colourByDefault({ isTTY: true }, {})).toBe(true);
    expect(colourByDefault({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourByDefault({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colourByDefault({ isTTY: false }, {})).toBe(false);
    expect(colourByDefault({}, {})).toBe(false);
    const coloured = (await show({ run: BEFORE, rung: 'dead-browser' }, true)).out;
    expect(coloured).toContain('\u001b[31mfailed (tool_error) in 100 ms\u001b[39m');
    expect((await show({ run: BEFORE, rung: 'dead-browser' })).out).not.toContain('\u001b[');
  });
});

describe('ladder show on a real run of review-dead-browser', () => {
  let out: string;

  beforeAll(async () => {
    out = join(await tempDir('ladder-show-run-'), 'run');
    const result = await quietRun({ rungs: ['rungs/review-dead-browser.yaml'], model: 'synthetic:mix?p=1', passes: 1, seed: 5, timeFactor: 0.01, out });
    if (result.code !== 0) throw new Error(`the run failed:\n${result.lines.join('\n')}`);
  }, SLOW);
  afterAll(removeTempDirs);

  it('lists the off pass that repeated the dead call', async () => {
    const lines = (await show({ run: out })).out.split('\n');
    expect(lines.slice(2, 4)).toEqual([
      '',
      '  failed  review-dead-browser  off  pass 0  step 0: maxRepeats 1: wb__browser_navigate was repeated 5 time(s) with identical arguments (at most 1)',
    ]);
  });

  it('shows the on arm refusing the call that failed, with the round it failed at', async () => {
    const { out: text } = await show({ run: out, rung: 'review-dead-browser', arm: 'on', pass: 0, step: 0 });
    const lines = text.split('\n');
    const navigate = '    → wb__browser_navigate {"url":"http://site.local/reviews/42.html"}';
    const at = lines.flatMap((l, i) => (l === navigate ? [i] : []));
    expect(at).toHaveLength(2);
    expect(lines[at[0]! - 1]).toBe(lines.find((l) => l.startsWith('  Round 3 ')));
    expect(lines[at[0]! + 1]).toMatch(/^ {6}failed \(tool_error\) in \d+ ms$/);
    expect(lines.slice(at[1]! - 1, at[1]! + 2)).toEqual([
      expect.stringMatching(/^ {2}Round 4 \([\d,]+ tokens in, \d+ out\)$/),
      navigate,
      '      refused by the breaker: the identical call failed at round 3 of this step; not sent',
    ]);
    expect(lines.at(-2)).toMatch(/^ {2}Ended: answered after 5 rounds and 4 calls, in [\d.]+ m?s; passed$/);
  });

  it('marks round 4 of step 0 as where the two arms part', async () => {
    const [grid] = await passGrids(await loadRun(out));
    expect(grid!.pairs[0]!.divergence).toEqual([
      'off and on first differ at step 0, round 4: wb__browser_navigate: failed on off, refused by the breaker on on.',
    ]);
    const marked = grid!.pairs[0]!.columns.map((c) => c.view!.steps[0]!.rounds.filter((r) => r.mark !== null).map((r) => r.label));
    expect(marked).toEqual([['Round 4'], ['Round 4']]);
  });
});
