// `ladder rescore` over a real run: the workbench over stdio, synthetic agents, two rungs
// (tiny-catalog: its off arm ends at the ceiling; tiny-ledger: file and sql checks on a
// workspace each step changes, and a third step that fails as recorded), kept workspaces.
import { cp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRescore } from '../../src/cli/rescore.ts';
import { rescoreRun } from '../../src/report/rescore.ts';
import type { Flip, RescoreReport } from '../../src/report/rescore.ts';
import { summarizeRun, summaryJson } from '../../src/report/summary.ts';
import { keepWorkspace, unpackSnapshot } from '../../src/runner/snapshot.ts';
import { readTar } from '../../src/runner/tar.ts';
import { PassThrough } from 'node:stream';
import { runLadder } from '../../src/cli/runLadder.ts';
import { PolicyServer } from '../helpers/policyServer.ts';
import { manifestOf, quietRun, removeTempDirs, ROOT, tempDir } from '../runner/helpers.ts';

afterAll(removeTempDirs);

const CATALOG = 'test/runner/fixtures/tiny-catalog.yaml';
const LEDGER = 'test/runner/fixtures/tiny-ledger.yaml';
let out: string;
let edits: string;

/** A copy of the fixture rung with each [from, to] replaced once; its path. */
async function edited(file: string, name: string, replacements: [string, string][]): Promise<string> {
  let text = await readFile(join(ROOT, file), 'utf8');
  for (const [from, to] of replacements) {
    expect(text).toContain(from);
    text = text.replace(from, () => to);
  }
  const path = join(edits, name);
  await writeFile(path, text);
  return path;
}

async function rescore(dir: string, rungs?: string[], cwd = ROOT): Promise<{ code: number; lines: string[]; errors: string[] }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runRescore({ run: dir, ...(rungs === undefined ? {} : { rungs }) },
    { cwd, out: (text) => lines.push(...text.split('\n')), err: (line) => errors.push(line) });
  return { code, lines, errors };
}

async function rescoredFile(dir: string): Promise<Record<string, unknown> & { rescore: RescoreReport }> {
  return JSON.parse(await readFile(join(dir, 'summary.rescored.json'), 'utf8'));
}

/** A copy of the run to damage or strip. */
async function copyOfRun(): Promise<string> {
  const copy = join(await tempDir('ladder-rescore-copy-'), 'run');
  await cp(out, copy, { recursive: true });
  await rm(join(copy, 'summary.rescored.json'), { force: true });
  return copy;
}

const flip = (rung: string, arm: string, pass: number, step: number, to: Flip['to'], why: string): Flip => ({ rung, arm, pass, step, to, why });

beforeAll(async () => {
  out = join(await tempDir('ladder-rescore-'), 'run');
  edits = await tempDir('ladder-rescore-rungs-');
  const result = await quietRun(
    { rungs: [CATALOG, LEDGER], model: 'synthetic:mix?p=1', passes: 2, seed: 5, timeFactor: 0.01, concurrency: 2, out, keepWorkspaces: true },
    { tempBase: await tempDir('ladder-rescore-passes-') },
  );
  expect(result.code).toBe(0);
}, 180_000);

describe('ladder run --keep-workspaces', () => {
  it('keeps one snapshot per step of every pass and says so in the manifest', async () => {
    expect((await manifestOf(out)).options).toMatchObject({ keepWorkspaces: true });
    for (const arm of ['on', 'off']) {
      for (const pass of ['0', '1']) {
        expect(readdirSync(join(out, 'workspaces', 'tiny-catalog', arm, pass))).toEqual(['step-0.tar.gz']);
        expect(readdirSync(join(out, 'workspaces', 'tiny-ledger', arm, pass)).sort()).toEqual(['step-0.tar.gz', 'step-1.tar.gz', 'step-2.tar.gz']);
      }
    }
  });

  it("keeps each step's workspace and database before the next step changes them", async () => {
    const seen: { receipt: string; rows: unknown[] }[] = [];
    for (const step of [0, 1]) {
      const snapshot = await unpackSnapshot(join(out, 'workspaces', 'tiny-ledger', 'on', '0', `step-${step}.tar.gz`), await tempDir('ladder-unpacked-'));
      const db = new Database(snapshot.databasePath!, { readonly: true });
      seen.push({ receipt: await readFile(join(snapshot.workspace, 'receipts/7.txt'), 'utf8'), rows: db.prepare('SELECT id, item FROM orders').raw(true).all() });
      db.close();
    }
    expect(seen).toEqual([{ receipt: 'lamp\n', rows: [[7, 'lamp']] }, { receipt: 'desk lamp\n', rows: [[7, 'desk lamp']] }]);
  });

  it('replaces the snapshots of a pass made again on --resume', async () => {
    const copy = await copyOfRun();
    const trace = join(copy, 'traces', 'tiny-ledger', 'off', '1.jsonl');
    const lines = (await readFile(trace, 'utf8')).trimEnd().split('\n');
    await writeFile(trace, `${lines.slice(0, -1).join('\n')}\n`); // pass.end gone: cut short
    const kept = join(copy, 'workspaces', 'tiny-ledger', 'off', '1');
    await writeFile(join(kept, 'step-0.tar.gz'), 'left by the attempt that was cut short');
    await writeFile(join(kept, 'step-7.tar.gz'), 'left by the attempt that was cut short');
    const result = await quietRun({ rungs: [], out: copy, resume: true }, { tempBase: await tempDir('ladder-rescore-passes-') });
    expect(result.code).toBe(0);
    expect(readdirSync(kept).sort()).toEqual(['step-0.tar.gz', 'step-1.tar.gz', 'step-2.tar.gz']);
    const names = readTar(gunzipSync(await readFile(join(kept, 'step-0.tar.gz')))).map((e) => e.name);
    expect(names).toContain('workspace/receipts/7.txt');
    expect((await manifestOf(copy)).options).toMatchObject({ keepWorkspaces: true });
  }, 120_000);
});

describe('ladder merge of runs with kept workspaces', () => {
  it('copies each shard\'s snapshots with its passes, and the merged run rescores as the whole one', async () => {
    // Two shards made from the run: tiny-catalog's passes in one, tiny-ledger's in the other.
    const base = await tempDir('ladder-rescore-merge-');
    const shards = ['catalog', 'ledger'].map((name) => join(base, name));
    for (const [i, shard] of shards.entries()) {
      const [mine, theirs] = i === 0 ? ['tiny-catalog', 'tiny-ledger'] : ['tiny-ledger', 'tiny-catalog'];
      await cp(out, shard, { recursive: true });
      await rm(join(shard, 'traces', theirs), { recursive: true });
      await rm(join(shard, 'workspaces', theirs), { recursive: true });
      expect(existsSync(join(shard, 'workspaces', mine))).toBe(true);
      const manifest = await manifestOf(shard);
      manifest.options['shard'] = `${i}/2`;
      await writeFile(join(shard, 'manifest.json'), JSON.stringify(manifest));
    }
    const merged = join(base, 'merged');
    const { mergeShards } = await import('../../src/runner/merge.ts');
    await mergeShards(merged, shards, ROOT);
    expect((await manifestOf(merged)).options).toMatchObject({ keepWorkspaces: true, shard: null });
    expect(readdirSync(join(merged, 'workspaces')).sort()).toEqual(['tiny-catalog', 'tiny-ledger']);
    const result = await rescoreRun(merged, { cwd: ROOT });
    expect(result.report).toMatchObject({ stepRuns: 16, judged: 16, flipped: [], notJudged: [] });
  });
});

describe('ladder rescore', () => {
  it('reproduces every recorded verdict with the rung files unchanged', async () => {
    const { code, lines } = await rescore(out);
    expect(code).toBe(0);
    expect(lines.slice(0, 3)).toEqual([
      `rescored run, 16 step-runs, with ${CATALOG}, ${LEDGER}`,
      'no step-run changed its verdict',
      `wrote ${join(out, 'summary.rescored.json')}`,
    ]);
    expect(lines).toContain('on against off');
    const { rescore: report, ...summary } = await rescoredFile(out);
    expect(report).toMatchObject({ stepRuns: 16, judged: 16, flipped: [], kept: [], notJudged: [] });
    // The same figures to the byte: verdicts, failed-check counts and answer times.
    expect(summaryJson(summary as never)).toBe(await readFile(join(out, 'summary.json'), 'utf8'));
    // ... and not because everything passed: the off arm of tiny-catalog fails, and so does ledger step 2.
    const recorded = await rescoreRun(out, { cwd: ROOT });
    const verdicts = recorded.rescored.passes.map((p) => `${p.rung} ${p.arm} ${p.pass}: ${p.steps.map((s) => `${s.passed ? 'P' : 'F'}/${s.reason}`).join(' ')}`);
    expect(verdicts).toEqual([
      'tiny-catalog on 0: P/answered', 'tiny-catalog on 1: P/answered', 'tiny-catalog off 0: F/ceiling', 'tiny-catalog off 1: F/ceiling',
      'tiny-ledger on 0: P/answered P/answered F/answered', 'tiny-ledger on 1: P/answered P/answered F/answered',
      'tiny-ledger off 0: P/answered P/answered F/answered', 'tiny-ledger off 1: P/answered P/answered F/answered',
    ]);
  });

  it('flips the step-runs an edited answer, sql or file check decides otherwise', async () => {
    const catalog = await edited(CATALOG, 'tiny-catalog.yaml', [["mentions: ['8080']", "mentions: ['9090']"]]);
    const ledger = await edited(LEDGER, 'tiny-ledger.yaml', [
      ['rows: [[7, lamp]]', 'rows: [[7, desk lamp]]'],
      ["matches: '^desk lamp$'", "matches: '^lamp$'"],
      ["mentions: ['two orders']", "mentions: ['one order']"],
    ]);
    const copy = await copyOfRun();
    const { code, lines, errors } = await rescore(copy, [catalog, ledger]);
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    const rows = 'expected rows [[7,"desk lamp"]], got [[7,"lamp"]]';
    const receipt = 'receipts/7.txt does not match /^lamp$/';
    const { rescore: report } = await rescoredFile(copy);
    expect(report.flipped).toEqual([
      flip('tiny-catalog', 'on', 0, 0, 'failed', 'the answer does not mention "9090"'),
      flip('tiny-catalog', 'on', 1, 0, 'failed', 'the answer does not mention "9090"'),
      ...['on', 'off'].flatMap((arm) => [0, 1].flatMap((pass) => [
        flip('tiny-ledger', arm, pass, 0, 'failed', rows), flip('tiny-ledger', arm, pass, 1, 'failed', receipt), flip('tiny-ledger', arm, pass, 2, 'passed', ''),
      ])),
    ]);
    expect(lines.slice(1, 9)).toEqual([
      'tiny-catalog, arm on: step 0 passed -> failed in passes 0, 1: the answer does not mention "9090"',
      `tiny-ledger, arm on: step 0 passed -> failed in passes 0, 1: ${rows}`,
      `tiny-ledger, arm on: step 1 passed -> failed in passes 0, 1: ${receipt}`,
      'tiny-ledger, arm on: step 2 failed -> passed in passes 0, 1',
      `tiny-ledger, arm off: step 0 passed -> failed in passes 0, 1: ${rows}`,
      `tiny-ledger, arm off: step 1 passed -> failed in passes 0, 1: ${receipt}`,
      'tiny-ledger, arm off: step 2 failed -> passed in passes 0, 1',
      `wrote ${join(copy, 'summary.rescored.json')}`,
    ]);
    // The traces are untouched: the run's own summary still reads what was recorded.
    expect(summaryJson(await summarizeRun(copy))).toBe(await readFile(join(out, 'summary.json'), 'utf8'));
  });

  it('keeps a step that ended at its ceiling failed, whatever its checks say now', async () => {
    const lenient = await edited(CATALOG, 'lenient-catalog.yaml', [
      ["      - called: wb__catalog_lookup\n      - answer: { mentions: ['8080'] }", '      - noZeroToolRounds: true'],
    ]);
    const copy = await copyOfRun();
    expect((await rescore(copy, [lenient])).code).toBe(0);
    const { rescore: report, arms } = await rescoredFile(copy) as unknown as { rescore: { flipped: Flip[] }; arms: { arm: string; rungs: { rung: string; metrics: { ceilingShare: unknown } }[] }[] };
    expect(report.flipped).toEqual([]);
    expect(arms.find((a) => a.arm === 'off')!.rungs.find((r) => r.rung === 'tiny-catalog')!.metrics.ceilingShare).toMatchObject({ count: 2, n: 2 });
  });

  it('says which checks it could not judge without snapshots, and keeps the verdicts they could change', async () => {
    const copy = await copyOfRun();
    await rm(join(copy, 'workspaces'), { recursive: true });
    const manifest = await manifestOf(copy);
    delete manifest.options['keepWorkspaces'];
    await writeFile(join(copy, 'manifest.json'), JSON.stringify(manifest));
    const ledger = await edited(LEDGER, 'tiny-ledger-2.yaml', [
      ['rows: [[7, lamp]]', 'rows: [[7, desk lamp]]'],
      ["mentions: ['two orders']", "mentions: ['one order']"],
    ]);
    const { code, lines } = await rescore(copy, [CATALOG, ledger]);
    expect(code).toBe(0);
    const why = 'no workspace snapshots (the run was made without --keep-workspaces)';
    const file = join(copy, 'summary.rescored.json');
    expect(lines.slice(1, 11)).toEqual([
      'tiny-ledger, arm on: step 2 failed -> passed in passes 0, 1',
      'tiny-ledger, arm off: step 2 failed -> passed in passes 0, 1',
      `not re-evaluated, ${why}:`,
      '  tiny-ledger step 0 sql {"query":"SELECT id, item FROM orders","rows":[[7,"desk lamp"]]} in 4 step-runs',
      '  tiny-ledger step 0 file {"path":"receipts/7.txt","exists":true,"matches":"^lamp$"} in 4 step-runs',
      '  tiny-ledger step 1 sql {"query":"SELECT id, item FROM orders","rows":[[7,"desk lamp"]]} in 4 step-runs',
      '  tiny-ledger step 1 file {"path":"receipts/7.txt","exists":true,"matches":"^desk lamp$"} in 4 step-runs',
      `8 step-runs keep their recorded verdicts, which a check not re-evaluated could change (listed under rescore.kept in ${file})`,
      `wrote ${file}`,
      'Ladder comparison of the arms of run',
    ]);
    const { rescore: report } = await rescoredFile(copy);
    expect(report.kept).toHaveLength(8);
    expect(report.kept[0]).toEqual({ rung: 'tiny-ledger', arm: 'on', pass: 0, step: 0, checks: [
      'sql {"query":"SELECT id, item FROM orders","rows":[[7,"desk lamp"]]}', 'file {"path":"receipts/7.txt","exists":true,"matches":"^lamp$"}',
    ] });
  });

  it('does not judge a file check on a path the snapshot left out, nor any check on a snapshot it cannot read', async () => {
    const copy = await copyOfRun();
    // Pass 0's step 1: its receipt made a symbolic link, and the snapshot kept again (the database as it was).
    const kept = join(copy, 'workspaces', 'tiny-ledger', 'on');
    const unpacked = await unpackSnapshot(join(kept, '0', 'step-1.tar.gz'), await tempDir('ladder-unpacked-'));
    const outside = join(await tempDir('ladder-outside-'), 'receipt.txt');
    await writeFile(outside, 'desk lamp\n');
    await rm(join(unpacked.workspace, 'receipts', '7.txt'));
    await symlink(outside, join(unpacked.workspace, 'receipts', '7.txt'));
    await keepWorkspace({ file: join(kept, '0', 'step-1.tar.gz'), workspace: unpacked.workspace, databasePath: unpacked.databasePath, scratch: await tempDir('ladder-scratch-') });
    // Pass 1's step 0: not a snapshot at all.
    await writeFile(join(kept, '1', 'step-0.tar.gz'), 'not a snapshot');
    const { code, lines } = await rescore(copy);
    expect(code).toBe(0);
    const file = join(copy, 'summary.rescored.json');
    expect(lines.slice(1, 10)).toEqual([
      'no step-run changed its verdict',
      'not re-evaluated, its workspace snapshot cannot be read:',
      '  tiny-ledger step 0 sql {"query":"SELECT id, item FROM orders","rows":[[7,"lamp"]]} in 1 step-run',
      '  tiny-ledger step 0 file {"path":"receipts/7.txt","exists":true,"matches":"^lamp$"} in 1 step-run',
      'not re-evaluated, receipts/7.txt was not kept (a symbolic link, not followed):',
      '  tiny-ledger step 1 file {"path":"receipts/7.txt","exists":true,"matches":"^desk lamp$"} in 1 step-run',
      expect.stringMatching(/^snapshot unreadable: workspaces\/tiny-ledger\/on\/1\/step-0\.tar\.gz: not a readable snapshot \(.+\)$/),
      `2 step-runs keep their recorded verdicts, which a check not re-evaluated could change (listed under rescore.kept in ${file})`,
      `wrote ${file}`,
    ]);
  });

  it('leaves a damaged pass out, as every report does', async () => {
    const copy = await copyOfRun();
    const trace = join(copy, 'traces', 'tiny-ledger', 'on', '1.jsonl');
    await writeFile(trace, (await readFile(trace, 'utf8')).replace('"outcome":"ok"', '"outcome":"bogus"'));
    const ledger = await edited(LEDGER, 'tiny-ledger-3.yaml', [["mentions: ['two orders']", "mentions: ['one order']"]]);
    const { code, lines } = await rescore(copy, [CATALOG, ledger]);
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^rescored run, 13 step-runs, with /);
    expect(lines.slice(1, 3)).toEqual([
      'tiny-ledger, arm on: step 2 failed -> passed in pass 0',
      'tiny-ledger, arm off: step 2 failed -> passed in passes 0, 1',
    ]);
    const { rescore: _report, ...summary } = await rescoredFile(copy);
    const traces = summary['traces'] as { damaged: number; passes: number; problems: string[] };
    expect(traces).toMatchObject({ damaged: 1, passes: 7 });
    expect(traces.problems).toEqual([expect.stringMatching(/^traces\/tiny-ledger\/on\/1\.jsonl:\d+: tool\.call field "outcome".*tiny-ledger on pass 1 left out$/)]);
    expect(lines.join('\n')).toContain('1 damaged pass left out');
  });

  it('reads a trace of format 1: call checks judged again, answer checks said to be impossible', async () => {
    const rung = (name: string, steps: string[]): string => [
      `name: ${name}`, 'description: a rung of the recorded fixture run', 'origin: test fixture', 'servers:', '  workbench:', '    workbench: {}', 'steps:',
      ...steps.map((checks) => `  - prompt: Step.\n    ceiling: 4\n    checks:\n${checks}\n    reference: { answer: done }`),
    ].join('\n');
    await writeFile(join(edits, 'dead-browser.yaml'), rung('dead-browser', [
      "      - notCalled: workbench__browser_open\n      - answer: { mentions: ['notes'] }",
      '      - called: workbench__catalog_lookup',
    ]));
    await writeFile(join(edits, 'catalog-config.yaml'), rung('catalog-config', ['      - noZeroToolRounds: true']));
    const before = join(ROOT, 'test/fixtures/runs/before');
    const result = await rescoreRun(before, { cwd: ROOT, rungs: [join(edits, 'dead-browser.yaml'), join(edits, 'catalog-config.yaml')] });
    expect(result.report.notJudged).toEqual([{
      rung: 'dead-browser', step: 0, check: 'answer {"mentions":["notes"]}', why: 'trace format 1 holds no answer text', stepRuns: 6,
    }]);
    // notCalled fails every step 0 (each called the dead browser): the recorded passes flip, nothing is left undecided.
    expect(result.report.flipped.map((f) => `${f.rung} ${f.arm} ${f.pass} ${f.step} ${f.to}`)).toEqual([
      'dead-browser on 0 0 failed', 'dead-browser on 1 0 failed', 'dead-browser on 2 0 failed', 'dead-browser off 0 0 failed', 'dead-browser off 1 0 failed',
    ]);
    expect(result.report.kept).toEqual([]);
  });

  it('reads a trace of format 1: a calledWith is not judged on a tool it called, and fails on one it never called', async () => {
    const rung = [
      'name: dead-browser', 'description: a rung of the recorded fixture run', 'origin: test fixture', 'servers:', '  workbench:', '    workbench: {}', 'steps:',
      '  - prompt: Step.\n    ceiling: 4\n    checks:\n      - calledWith: { tool: workbench__browser_open, args: { url: x } }\n    reference: { answer: done }',
      '  - prompt: Step.\n    ceiling: 4\n    checks:\n      - calledWith: { tool: workbench__browser_close, args: {} }\n    reference: { answer: done }',
    ].join('\n');
    await writeFile(join(edits, 'dead-browser-args.yaml'), rung);
    await writeFile(join(edits, 'catalog-config.yaml'), 'name: catalog-config\ndescription: x\nservers: { workbench: { workbench: {} } }\nsteps:\n' +
      '  - prompt: Step.\n    ceiling: 4\n    checks: [{ noZeroToolRounds: true }]\n    reference: { answer: done }\n');
    const result = await rescoreRun(join(ROOT, 'test/fixtures/runs/before'), { cwd: ROOT, rungs: [join(edits, 'dead-browser-args.yaml'), join(edits, 'catalog-config.yaml')] });
    expect(result.report.notJudged).toEqual([{
      rung: 'dead-browser', step: 0, check: 'calledWith {"tool":"workbench__browser_open","args":{"url":"x"}}', why: 'trace format 1 holds no call arguments', stepRuns: 6,
    }]);
    expect(new Set(result.report.flipped.map((f) => `${f.step} ${f.to} ${f.why}`))).toEqual(new Set(['1 failed workbench__browser_close was never called']));
  });

  it('says in one line that a rung whose steps changed in number or order keeps its recorded verdicts', async () => {
    const text = await readFile(join(ROOT, LEDGER), 'utf8');
    const [head, ...steps] = text.split(/\n(?=  - prompt:)/);
    const longer = join(edits, 'tiny-ledger-longer.yaml');
    await writeFile(longer, `${text}${steps[2]}\n`);
    const swapped = join(edits, 'tiny-ledger-swapped.yaml');
    await writeFile(swapped, [head, steps[1], steps[0], steps[2]].join('\n'));
    const copy = await copyOfRun();
    const added = await rescore(copy, [CATALOG, longer]);
    expect(added.lines[1]).toMatch(/^tiny-ledger: .*tiny-ledger-longer\.yaml has 4 steps, the run recorded 3; its 12 step-runs keep their recorded verdicts \(rescore judges the recorded steps one for one\)$/);
    const reordered = await rescore(copy, [CATALOG, swapped]);
    expect(reordered.lines[1]).toMatch(/^tiny-ledger: .*tiny-ledger-swapped\.yaml has the run's steps in another order \(by their prompts\); its 12 step-runs keep their recorded verdicts$/);
    expect(reordered.lines[2]).toBe('no step-run changed its verdict');
  });

  it('judges the checks on how a step was done from the recorded calls, their arguments and rounds', async () => {
    const checks = (lines: string[]): [string, string][] => [["      - called: wb__catalog_lookup\n", lines.map((l) => `      - ${l}\n`).join('')]];
    // Every one passes on the recorded calls of arm on (each a lookup of config/service): nothing flips.
    const passing = await edited(CATALOG, 'how-catalog.yaml', checks([
      "calledWith: { tool: wb__catalog_lookup, args: { topic: '/^config\\//' } }",
      'sequence: { tools: [wb__catalog_lookup, wb__catalog_lookup], strict: true }',
      'maxCalls: 4',
      'maxRounds: 5',
    ]));
    const kept = await rescoreRun(out, { cwd: ROOT, rungs: [passing, LEDGER] });
    expect(kept.report).toMatchObject({ flipped: [], kept: [], notJudged: [] });
    const flips = async (name: string, check: string): Promise<string[]> => {
      const rung = await edited(CATALOG, name, checks([check]));
      const { report } = await rescoreRun(out, { cwd: ROOT, rungs: [rung, LEDGER] });
      return report.flipped.map((f) => `${f.arm} ${f.pass} ${f.to}: ${f.why}`);
    };
    const recorded = await rescoreRun(out, { cwd: ROOT });
    const on = recorded.recorded.passes.filter((p) => p.rung === 'tiny-catalog' && p.arm === 'on').map((p) => p.steps[0]!);
    const calls = on.map((step) => step.calls);
    const rounds = on.map((step) => step.requests);
    // Two passes, each with the repeated lookups the strict sequence above needed.
    expect(calls).toHaveLength(2);
    expect(Math.min(...calls)).toBeGreaterThanOrEqual(2);
    expect(await flips('how-1.yaml', "calledWith: { tool: wb__catalog_lookup, args: { topic: config/other } }")).toEqual(calls.map((n, pass) =>
      `on ${pass} failed: no call of wb__catalog_lookup (${n}) had the arguments; the closest, {"topic":"config/service"}, differs at args.topic: expected "config/other", got "config/service"`));
    expect(await flips('how-2.yaml', `maxCalls: ${Math.max(...calls) - 1}`)).toEqual(calls.map((n, pass) => `on ${pass} failed: ${n} tool call(s) were made (at most ${n - 1})`));
    expect(await flips('how-3.yaml', `maxRounds: ${Math.max(...rounds) - 1}`)).toEqual(rounds.map((n, pass) => `on ${pass} failed: ${n} model request(s) were made (at most ${n - 1})`));
    expect(await flips('how-4.yaml', 'sequence: [wb__catalog_lookup, wb__catalog_search]')).toEqual(calls.map((n, pass) =>
      `on ${pass} failed: wb__catalog_search was not called after wb__catalog_lookup; the order seen: wb__catalog_lookup ×${n}`));
  });

  it('names a missing or broken rung file in one line and exits 2', async () => {
    const elsewhere = await tempDir('ladder-rescore-cwd-');
    const missing = await rescore(out, undefined, elsewhere);
    expect(missing.code).toBe(2);
    expect(missing.errors).toEqual([
      `ladder rescore: ${CATALOG}: the rung file of tiny-catalog named in the run's manifest is not there; ` +
      'run from the folder the run was made in, or name the rung files: ladder rescore <run> <rung files..>',
    ]);
    const broken = join(edits, 'broken.yaml');
    await writeFile(broken, 'name: tiny-ledger\nsteps: 3\n');
    const bad = await rescore(out, [broken]);
    expect(bad.code).toBe(2);
    expect(bad.errors.length).toBeGreaterThan(0);
    expect(bad.errors.every((line) => line.startsWith('ladder rescore: ') && line.includes('broken.yaml'))).toBe(true);
    expect(existsSync(join(elsewhere, 'summary.rescored.json'))).toBe(false);
  });
});

describe('ladder rescore of a real-model run', () => {
  const RUNG = `name: broken-args
description: Describe the database; the model's first call has arguments that are not JSON.
origin: test fixture
servers:
  wb:
    workbench: {}
steps:
  - prompt: Which SQL engine does the workbench database use?
    ceiling: 4
    checks:
      - called: wb__sql_describe
      - maxRepeats: 0
      - answer: { mentions: [SQLite] }
    reference:
      calls:
        - { tool: wb__sql_describe }
      answer: It is SQLite.
`;
  let server: PolicyServer;
  let recorded: string;
  let rung: string;

  beforeAll(async () => {
    const dir = await tempDir('ladder-rescore-model-');
    rung = join(dir, 'broken-args.yaml');
    await writeFile(rung, RUNG);
    // Twice with broken JSON (never sent, so no tool.call records them), then a good call.
    server = await PolicyServer.start([{
      calls: [
        { name: 'wb__sql_describe', args: {}, raw: '{"verbose": tru' },
        { name: 'wb__sql_describe', args: {}, raw: '{"verbose": tru' },
        { name: 'wb__catalog_lookup', args: { topic: 'sql/parameters' } },
      ],
      answer: 'It is SQLite.',
    }]);
    recorded = join(dir, 'recorded');
    const progress = new PassThrough();
    progress.resume();
    const code = await runLadder(
      { rungs: [rung], model: 'openai:scripted', baseUrl: server.url, passes: 1, arms: 'on', timeFactor: 0.01, out: recorded },
      { cwd: ROOT, env: {}, stdout: () => undefined, progress, signal: new AbortController().signal },
    );
    expect(code).toBe(0);
  }, 120_000);
  afterAll(async () => server.close());

  it('counts a call whose arguments were not JSON, as the run did', async () => {
    const unchanged = await rescoreRun(recorded, { cwd: ROOT, rungs: [rung] });
    // The run failed the step on maxRepeats (the two unsent calls are identical: the tool, no
    // arguments) and passed `called` on them alone; rescoring sees both as the run did.
    expect(unchanged.recorded.passes[0]!.steps[0]).toMatchObject({ passed: false, reason: 'answered' });
    expect(unchanged.report).toMatchObject({ judged: 1, flipped: [], kept: [] });
    expect(unchanged.rescored.passes[0]!.steps[0]!.failedChecks).toBe(1);
    const lenient = join(edits, 'broken-args.yaml');
    await writeFile(lenient, RUNG.replace('maxRepeats: 0', 'maxRepeats: 1'));
    const rescored = await rescoreRun(recorded, { cwd: ROOT, rungs: [lenient] });
    expect(rescored.report.flipped).toEqual([flip('broken-args', 'on', 0, 0, 'passed', '')]);
  });
});

describe('ladder rescore of a one-shot run', () => {
  it('judges every step on the one run and its one snapshot', async () => {
    const dir = join(await tempDir('ladder-rescore-oneshot-'), 'run');
    const made = await quietRun(
      { rungs: [LEDGER], model: 'synthetic:mix', passes: 1, arms: 'on', seed: 5, timeFactor: 0.01, mode: 'oneshot', out: dir, keepWorkspaces: true },
      { tempBase: await tempDir('ladder-rescore-passes-') },
    );
    expect(made.code).toBe(0);
    expect(readdirSync(join(dir, 'workspaces', 'tiny-ledger', 'on', '0'))).toEqual(['step-0.tar.gz']);
    const unchanged = await rescoreRun(dir, { cwd: ROOT });
    expect(unchanged.report).toMatchObject({ stepRuns: 3, judged: 3, flipped: [], kept: [], notJudged: [], rungNotes: [] });
    // The workspace is the one the whole run left: step 0's checks of the first state fail on it, step 1's pass.
    expect(unchanged.recorded.passes[0]!.steps.map((s) => s.passed)).toEqual([false, true, false]);
    const ledger = await edited(LEDGER, 'tiny-ledger-oneshot.yaml', [
      ['rows: [[7, lamp]]', 'rows: [[7, desk lamp]]'],
      ["matches: '^lamp$'", "matches: '^desk lamp$'"],
      ["matches: '^desk lamp$' }\n      - answer: { mentions: ['desk lamp'] }", "matches: '^lamp$' }\n      - answer: { mentions: ['desk lamp'] }"],
    ]);
    const rescored = await rescoreRun(dir, { cwd: ROOT, rungs: [ledger] });
    expect(rescored.report.flipped).toEqual([
      flip('tiny-ledger', 'on', 0, 0, 'passed', ''),
      flip('tiny-ledger', 'on', 0, 1, 'failed', 'receipts/7.txt does not match /^lamp$/'),
    ]);
  }, 120_000);
});
