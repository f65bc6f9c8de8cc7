import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportInputError, canonicalArm } from '../../src/results/read.ts';
import { summarizeRun, summaryJson, writeSummary } from '../../src/report/summary.ts';
import type { RunSummary } from '../../src/report/summary.ts';
import { passJsonl, runFolderPerTest, writeRun } from './runBuilder.ts';
import type { PassSpec, RunSpec } from './runBuilder.ts';

const folder = runFolderPerTest();
const { summarize } = folder;

const overall = (s: RunSummary, arm = 'on') => s.arms.find((a) => a.arm === arm)!.overall;

describe('reading traces', () => {
  it('counts only passes whose trace ends with pass.end, and says how many it ignored', async () => {
    const s = await summarize({ passes: [{ steps: [{}] }, { pass: 1, steps: [{}], end: false }] });
    expect(s.traces).toMatchObject({ files: 2, passes: 1, incomplete: 1 });
    expect(overall(s).attempts).toBe(1);
  });

  it('keeps the later attempt when a resumed pass appended a fresh start to its file', async () => {
    const retry = passJsonl({ steps: [{ passed: false }] });
    const s = await summarize({ passes: [{ steps: [{}], end: false }], extra: { 'p000.jsonl': retry } });
    expect(s.traces).toMatchObject({ passes: 1, incomplete: 1 });
    expect(overall(s).stepPassRate).toMatchObject({ count: 0, n: 1 });
  });

  it('skips a torn last line and keeps the pass that ended before it', async () => {
    const s = await summarize({ passes: [{ steps: [{}] }], extra: { 'p000.jsonl': '{"v":1,"type":"run.e' } });
    expect(s.traces).toMatchObject({ passes: 1, incomplete: 0, tornLines: 1 });
    expect(s.traces.problems[0]).toMatch(/^traces\/p000\.jsonl:\d+: torn last line/);
  });

  it('leaves out a damaged trace and names the file and line', async () => {
    writeRun(folder.dir, { arms: ['on'], passes: [{ steps: [{}] }, { pass: 1, steps: [{}] }] });
    const path = join(folder.dir, 'traces', 'p001.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[2] = 'not json';
    writeFileSync(path, lines.join('\n'));
    const s = await summarizeRun(folder.dir);
    expect(s.traces).toMatchObject({ passes: 1, damaged: 1, fileStates: { complete: 1, incomplete: 0, empty: 0, damaged: 1 } });
    expect(s.traces.problems).toEqual(['traces/p001.jsonl:3: not JSON; r on pass 1 left out']);
  });

  it('keeps the first of two traces of one pass and counts the other as a duplicate', async () => {
    const s = await summarize({ passes: [{ steps: [{ passed: true }] }, { steps: [{ passed: false }] }] });
    expect(s.traces).toMatchObject({ passes: 1, duplicates: 1 });
    expect(overall(s).stepPassRate.count).toBe(1);
  });

  it('finds traces in nested folders and takes identity from pass.start, not the file name', async () => {
    writeRun(folder.dir, { arms: ['on', 'off'], passes: [] });
    mkdirSync(join(folder.dir, 'traces', 'deep', 'er'), { recursive: true });
    writeFileSync(join(folder.dir, 'traces', 'deep', 'er', 'on-0.jsonl'), passJsonl({ arm: 'off', rung: 'x', steps: [{}] }));
    const s = await summarizeRun(folder.dir);
    expect(s.arms.map((a) => [a.arm, a.overall.attempts])).toEqual([['on', 0], ['off', 1]]);
    expect(s.arms[1]!.rungs[0]!.rung).toBe('x');
  });
});

describe('waste metrics', () => {
  it('counts as dead only calls sent after an identical call failed in the same turn', async () => {
    const s = await summarize({ passes: [{ steps: [
      { calls: [
        { key: 'k', outcome: 'failed' },
        { key: 'k', outcome: 'refused' }, // not sent
        { key: 'k', outcome: 'failed' }, // dead
        { key: 'k', outcome: 'ok' }, // dead
        { key: 'j', outcome: 'timeout' }, // a timeout is not a failure: the retry is not dead
        { key: 'j', outcome: 'ok' },
      ] },
      { calls: [{ key: 'k', outcome: 'ok' }] }, // a new turn starts clean
    ] }] });
    expect(overall(s).deadCalls).toEqual({ count: 2, perAttempt: 2 });
    expect(s.arms[0]!.rungs[0]!.steps.map((st) => st.metrics.deadCalls.count)).toEqual([2, 0]);
    expect(overall(s).tools[0]).toMatchObject({ tool: 'srv__tool', deadCalls: 2, calls: 7 });
  });

  it('counts the 3rd and later identical calls of a pass across its steps, split by deterministic', async () => {
    const det = (outcome: 'ok' | 'short_circuited' = 'ok') => ({ key: 'd', deterministic: true, outcome, tool: 'srv__lookup' });
    const s = await summarize({ passes: [
      { steps: [{ calls: [det(), det()] }, { calls: [det('short_circuited'), det()] }] },
      { pass: 1, steps: [{ calls: [det(), det(), { key: 'n' }, { key: 'n' }, { key: 'n' }] }] },
    ] });
    const repeats = overall(s).identicalRepeats;
    expect(repeats.deterministic).toEqual({ repeats: 2, repeatsSent: 1, calls: 6, rate: 2 / 6 });
    expect(repeats.nondeterministic).toEqual({ repeats: 1, repeatsSent: 1, calls: 3, rate: 1 / 3 });
    expect(repeats.all).toMatchObject({ repeats: 3, calls: 9 });
    expect(overall(s).calls).toMatchObject({ total: 9, sent: 8 });
  });

  it('counts zero-tool rounds only while the pass has servers configured', async () => {
    const s = await summarize({ passes: [{ steps: [{ requests: [0, 3, 0] }] }, { pass: 1, steps: [{ requests: [0], configured: 0 }] }] });
    expect(overall(s).zeroToolRounds).toEqual({ count: 2, requests: 4 });
  });

  it('sums the tokens reported and counts the responses that reported none', async () => {
    const s = await summarize({ passes: [{ steps: [{ tokens: [[100, 10], [null, 5]] }] }, { pass: 1, steps: [{ tokens: [[50, null]] }] }] });
    expect(overall(s).tokens).toEqual({
      responses: 3, input: { total: 150, missing: 1, perAttempt: 75 }, output: { total: 15, missing: 1, perAttempt: 7.5 },
    });
  });
});

describe('outcome metrics', () => {
  const threePasses: PassSpec[] = [
    { steps: [{}, { reason: 'errored', passed: false }] },
    { pass: 1, steps: [{}, { passed: false, reason: 'ceiling' }] },
    { pass: 2, steps: [{}, {}] },
  ];

  it('counts errored step-runs and leaves them out of every denominator', async () => {
    const m = overall(await summarize({ passes: threePasses }));
    expect(m.reasons).toEqual({ answered: 4, ceiling: 1, time_limit: 0, errored: 1, agent_failed: 0, agent_stopped: 0 });
    expect(m.stepPassRate).toMatchObject({ count: 4, n: 5 });
    expect(m.ceilingShare).toMatchObject({ count: 1, n: 5 });
    expect(m.erroredPasses).toBe(1);
    expect(m.cleanRunRate).toMatchObject({ count: 1, n: 2 });
    expect(m.stepMs.n).toBe(5);
  });

  it('gives the modified Wilson interval with every rate', async () => {
    const m = overall(await summarize({ passes: threePasses }));
    expect(m.stepPassRate.rate).toBe(0.8);
    expect(m.stepPassRate.lower).toBeCloseTo(0.3755, 4); // the score interval's lower bound for 4 of 5
    // One failure of 5 is at the edge: 1 - g1 / 5, g1 = -ln(0.95) = 0.0512933 (not the score interval's 0.9638).
    expect(m.stepPassRate.upper).toBeCloseTo(0.9897413, 6);
  });

  it('estimates pass@k and pass^k from the clean passes of each rung, k up to the fewest passes', async () => {
    const passes: PassSpec[] = [0, 1, 2].map((pass) => ({ rung: 'a', pass, steps: [{ passed: pass === 0 }] }));
    passes.push({ rung: 'b', pass: 0, steps: [{}] }, { rung: 'b', pass: 1, steps: [{}] });
    const s = await summarize({ passes });
    const a = s.arms[0]!.rungs[0]!.metrics.passK;
    expect(a.map((p) => p.k)).toEqual([1, 2, 3]);
    expect(a[1]!.passAtK).toBeCloseTo(1 - 1 / 3, 12); // 1 - C(2,2)/C(3,2)
    expect(a[1]!.passHatK).toBe(0);
    const all = overall(s).passK; // rung a (1 of 3) and rung b (2 of 2), k up to 2
    expect(all.map((p) => p.k)).toEqual([1, 2]);
    expect(all[0]!.passAtK).toBeCloseTo((1 / 3 + 1) / 2, 12);
  });

  it('measures time-to-answer from the first correct answer to the step end', async () => {
    const s = await summarize({ passes: [{ steps: [{ ms: 100, answeredAfter: 30 }, { ms: 50 }] }] });
    expect(overall(s).timeToAnswer).toMatchObject({ stepRuns: 2, answered: 1, answeredToEndMs: { n: 1, median: 70 } });
    expect(overall(s).stepMs).toMatchObject({ n: 2, total: 150, median: 75, max: 100 });
  });

  it('splits figures per rung and per step, in the manifest order', async () => {
    const s = await summarize({
      rungs: [{ name: 'z' }, { name: 'a' }],
      passes: [{ rung: 'a', steps: [{}, { passed: false }] }, { rung: 'z', steps: [{}] }],
    });
    expect(s.arms[0]!.rungs.map((r) => r.rung)).toEqual(['z', 'a']);
    expect(s.arms[0]!.rungs[1]!.steps.map((st) => st.metrics.stepPassRate.count)).toEqual([1, 0]);
  });
});

describe('summary.json', () => {
  it('is the same text for the same run and says when the agents are synthetic', async () => {
    writeRun(folder.dir, { passes: [{ steps: [{}] }, { arm: 'off', steps: [{ passed: false }] }] });
    const first = await writeSummary(folder.dir);
    expect(readFileSync(join(folder.dir, 'summary.json'), 'utf8')).toBe(summaryJson(await summarizeRun(folder.dir)));
    expect(first.notice).toMatch(/do not measure any model/);
    expect(Object.keys(first)).toEqual(['format', 'runId', 'status', 'model', 'notice', 'ladderVersion', 'gitSha', 'passesPlanned', 'traces', 'arms', 'pricing']);
  });

  it('has no notice for a real model', async () => {
    expect((await summarize({ synthetic: false, passes: [{ steps: [{}] }] })).notice).toBeNull();
  });
});

describe('bad input', () => {
  it('says in one line when the folder or its manifest is missing or damaged', async () => {
    await expect(summarizeRun(join(folder.dir, 'nope'))).rejects.toThrow(/nope: no such results folder; name a folder written by ladder run/);
    await expect(summarizeRun(folder.dir)).rejects.toThrow(ReportInputError);
    writeFileSync(join(folder.dir, 'manifest.json'), '{"format": 2}');
    await expect(summarizeRun(folder.dir)).rejects.toThrow(/manifest.json: format: expected 1 .*got 2/);
  });

  it('reads arms in their canonical form, so two spellings of one arm are one arm', () => {
    expect(canonicalArm('on,breaker=on')).toBe('on');
    expect(canonicalArm('off')).toBe('off');
    expect(canonicalArm('not an arm')).toBe('not an arm');
  });
});
