// The two recorded runs of test/fixtures/runs (written by test/fixtures/makeRuns.ts) compared
// in every text format, against committed golden files. After an intended change to the
// output, rewrite them with: UPDATE_GOLDEN=1 npx vitest run test/report/golden.test.ts
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRuns } from '../fixtures/makeRuns.ts';
import type { ArmComparison, ComparisonReport } from '../../src/report/compare.ts';
import { compareOutput } from '../../src/report/output.ts';
import type { MetricName } from '../../src/report/paired.ts';
import { summarizeRun } from '../../src/report/summary.ts';
import { tempDir } from './runBuilder.ts';

const RUNS = 'test/fixtures/runs';
const GOLDEN = join(RUNS, 'golden');
const BEFORE = join(RUNS, 'before');
const AFTER = join(RUNS, 'after');

function golden(name: string, text: string): void {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, text);
  expect(text).toBe(readFileSync(path, 'utf8'));
}

function files(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(root, f)).isFile() && !f.startsWith('golden'))
    .sort();
}

const metric = (c: ArmComparison, name: MetricName) => c.metrics.find((m) => m.metric === name)!;

describe('the recorded runs', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => (tmp = tempDir()));
  afterAll(() => tmp.remove());

  it('are exactly what the generator writes', async () => {
    makeRuns(tmp.dir);
    expect(files(tmp.dir)).toEqual(files(RUNS));
    for (const f of files(RUNS)) expect(readFileSync(join(tmp.dir, f), 'utf8'), relative('.', f)).toBe(readFileSync(join(RUNS, f), 'utf8'));
  });
});

describe('golden comparison of before and after', () => {
  it('prints the terminal table, the Markdown and the JSON it printed when reviewed', async () => {
    golden('before-after.txt', (await compareOutput(BEFORE, AFTER, { format: 'table' })).text);
    golden('before-after.md', (await compareOutput(BEFORE, AFTER, { format: 'md' })).text);
    golden('before-after.json', (await compareOutput(BEFORE, AFTER, { format: 'json' })).text);
    golden('before-arms.txt', (await compareOutput(BEFORE, undefined, { format: 'table' })).text);
  });
});

describe('figures against counts taken by hand from test/fixtures/makeRuns.ts', () => {
  // Inside each test, not a beforeAll: see test/report/pinned.test.ts.
  const arms = async (): Promise<ComparisonReport> => (await compareOutput(BEFORE, undefined, { format: 'json' })).report;
  const runs = async (): Promise<ComparisonReport> => (await compareOutput(BEFORE, AFTER, { format: 'json' })).report;

  it('counts the dead calls and identical repeats of each arm', async () => {
    const [c] = (await arms()).comparisons;
    // off: the dead browser call is sent 3 times in step 0 of each dead-browser pass: 2 dead calls
    // x 3 passes. on: the 2nd is refused, never sent.
    expect(metric(c!, 'dead_calls')).toMatchObject({ a: { total: 6 }, b: { total: 0 }, pairs: 6, verdict: 'better' });
    // off: per dead-browser pass, the 3rd browser call (1) and the 3rd lookup (1; the ceiling pass
    // makes a 4th: 2) -> 1+1, 1+1, 1+2 = 7. on: the 3rd lookup, short-circuited but still asked, x 3.
    expect(metric(c!, 'identical_repeats')).toMatchObject({ a: { total: 7 }, b: { total: 3 } });
    // off, catalog-config pass 0: one request offered no tools with one server configured.
    expect(metric(c!, 'zero_tool_rounds')).toMatchObject({ a: { total: 1 }, b: { total: 0 } });
  });

  it('counts step passes, leaving the errored one out', async () => {
    const [summary] = (await arms()).summaries;
    const on = summary!.arms.find((a) => a.arm === 'on')!.overall;
    const off = summary!.arms.find((a) => a.arm === 'off')!.overall;
    // on: 3 dead-browser passes x 2 steps + 3 catalog steps, one errored (pass 1): 8 of 8 decided.
    expect(on.stepPassRate).toMatchObject({ count: 8, n: 8 });
    expect(on.reasons.errored).toBe(1);
    // off: pass 2 fails both dead-browser steps (one at the ceiling), catalog pass 0 fails: 6 of 9.
    expect(off.stepPassRate).toMatchObject({ count: 6, n: 9 });
    expect(off.ceilingShare).toMatchObject({ count: 1, n: 9 });
    // on, catalog: the errored response reports no tokens (1 in, 1 out), pass 2's answer no output tokens.
    expect(on.tokens.input.missing).toBe(1);
    expect(on.tokens.output.missing).toBe(2);
    // Paired, the errored step leaves 8 step pairs: off passed 5 of them, on all 8.
    expect(metric((await arms()).comparisons[0]!, 'step_pass_rate')).toMatchObject({ pairs: 8, aOnly: 0, bOnly: 3 });
  });

  it('pairs only what the runs share and ignores the interrupted pass', async () => {
    const on = (await runs()).comparisons.find((c) => c.a.arm === 'on')!;
    // after/on: dead-browser pass 2 was interrupted (no pass.end, torn line); catalog-config is only in before.
    expect(on.shared).toEqual({ rungs: ['dead-browser'], passes: 2, stepRuns: 4 });
    expect(on.leftOut).toMatchObject({ rungsOnlyInA: ['catalog-config'], rungsOnlyInB: ['sql-insert'], passesOnlyInA: 4, passesOnlyInB: 3 });
    // after/on pass 0 ends step 1 at the ceiling where before passed it: the one discordant pair.
    expect(metric(on, 'step_pass_rate')).toMatchObject({ aOnly: 1, bOnly: 0, pairs: 4 });
    const after = await summarizeRun(AFTER);
    expect(after.traces).toMatchObject({ files: 12, passes: 11, incomplete: 1, tornLines: 1 });
    expect((await runs()).notes).toContain('B (after): 1 incomplete pass ignored.');
  });
});
