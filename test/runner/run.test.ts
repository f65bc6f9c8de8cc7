// A small run through real processes: the workbench over stdio for every pass, synthetic
// agents, time factor 0.01. One uninterrupted run is made once and every other run (shards,
// a killed run resumed, an interrupted run resumed) is compared with it.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { completedPass, listTraces } from '../../src/results/store.ts';
import { runTempRoot } from '../../src/runner/workspace.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMerge } from '../../src/cli/merge.ts';
import { FIXTURES, manifestOf, passesIn, quietRun, ROOT, SMALL, removeTempDirs, tempDir, tracesWithoutTimes, verdicts } from './helpers.ts';
import type { PassSeen } from './helpers.ts';

// A hang detector, not a bound on speed: whole runs of real processes, measured at 25 s on a
// quiet machine and past 120 s on one shared at load 27 (two cores).
const RUN_TIMEOUT_MS = 600_000;

afterAll(removeTempDirs);

let base: string;
let out: string;
let tempBase: string;
let passes: PassSeen[];
let lines: string[];

/** `ladder run` as a child process, with the small run's options, one pass at a time. */
function spawnRun(out: string, passes = 2): ChildProcess & { output: () => string } {
  const args = ['bin/ladder.js', 'run', ...FIXTURES, '--model', 'synthetic:mix?p=1', '--passes', String(passes), '--seed', '5',
    '--time-factor', '0.01', '--concurrency', '1', '--out', out];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return Object.assign(child, { output: () => text });
}

async function completeCount(out: string): Promise<number> {
  let n = 0;
  for (const path of await listTraces(out)) if ((await completedPass(join(out, 'traces', path))) !== undefined) n += 1;
  return n;
}

async function waitFor(what: () => Promise<boolean>, child: ChildProcess, timeoutMs = RUN_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await what())) {
    if (child.exitCode !== null) throw new Error('the run ended before it could be interrupted');
    if (Date.now() > deadline) throw new Error('timed out waiting for the run');
    await delay(50);
  }
}

const exited = (child: ChildProcess) => new Promise<{ code: number | null; signal: string | null }>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
  else child.once('exit', (code, signal) => resolve({ code, signal }));
});


beforeAll(async () => {
  base = await tempDir('ladder-runner-');
  tempBase = await tempDir('ladder-passes-');
  out = join(base, 'whole');
  const result = await quietRun({ ...SMALL, out, concurrency: 1 }, { tempBase });
  expect(result.code).toBe(0);
  lines = result.lines;
  passes = await passesIn(out);
}, RUN_TIMEOUT_MS);

describe('a small run', () => {
  it('leaves the manifest, one complete trace per pass, run.jsonl and summary.json', async () => {
    expect(readdirSync(out).sort()).toEqual(['manifest.json', 'run.jsonl', 'summary.json', 'traces']);
    expect(passes.map((p) => p.id)).toEqual([
      'tiny-catalog/off/0', 'tiny-catalog/off/1', 'tiny-catalog/on/0', 'tiny-catalog/on/1',
      'tiny-files/off/0', 'tiny-files/off/1', 'tiny-files/on/0', 'tiny-files/on/1',
    ]);
    expect(passes.every((p) => p.complete && p.starts === 1)).toBe(true);
    expect(existsSync(join(out, 'traces', 'tiny-catalog', 'on', '0.jsonl'))).toBe(true);
    const manifest = await manifestOf(out);
    expect(manifest).toMatchObject({
      format: 1, runId: 'whole', model: { spec: 'synthetic:mix?p=1', synthetic: true }, arms: ['on', 'off'], passes: 2, seed: 5,
      timeFactor: 0.01, status: 'complete', options: { mode: 'steps', shard: null, concurrency: 1 },
    });
    expect((manifest['rungs'] as { file: string; sha256: string }[]).map((r) => r.file)).toEqual(FIXTURES);
    const runLog = (await readFile(join(out, 'run.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l).type);
    expect(runLog).toEqual(['run.start', 'run.end']);
  });

  it('measures what the rung targets: the looper passes with the repeat short-circuit and fails without', () => {
    expect(verdicts(passes).filter((v) => v.startsWith('tiny-catalog'))).toEqual([
      expect.stringMatching(/^tiny-catalog\/off\/0 failed/), expect.stringMatching(/^tiny-catalog\/off\/1 failed/),
      expect.stringMatching(/^tiny-catalog\/on\/0 passed/), expect.stringMatching(/^tiny-catalog\/on\/1 passed/),
    ]);
  });

  it('gives pass i of each arm the same seed, and different seeds to different passes', () => {
    const seed = (id: string) => passes.find((p) => p.id === id)!.seed;
    expect(seed('tiny-files/on/0')).toBe(seed('tiny-files/off/0'));
    expect(seed('tiny-files/on/1')).toBe(seed('tiny-files/off/1'));
    expect(seed('tiny-files/on/0')).not.toBe(seed('tiny-files/on/1'));
    expect(seed('tiny-files/on/0')).not.toBe(seed('tiny-catalog/on/0'));
  });

  it('interleaves the arms pass by pass', () => {
    const order = [...passes].sort((a, b) => a.time.localeCompare(b.time)).map((p) => p.id);
    expect(order).toEqual([
      'tiny-catalog/on/0', 'tiny-catalog/off/0', 'tiny-files/on/0', 'tiny-files/off/0',
      'tiny-catalog/on/1', 'tiny-catalog/off/1', 'tiny-files/on/1', 'tiny-files/off/1',
    ]);
  });

  it('says which model it chose and why, then one screen: the headline, the rungs, the commands to run next', () => {
    expect(lines[0]).toBe('model: synthetic:mix?p=1 (--model was given)');
    expect(lines[1]).toBe(`run ${out}: 2 rungs x 2 arms (on, off) x 2 passes, 1 at a time`);
    expect(lines.some((l) => l.startsWith('[8/8] '))).toBe(true);
    expect(lines).toContain('NOTE: Synthetic agents exercise the harness; they do not measure any model.');
    expect(lines.some((l) => l.startsWith('on against off (4 paired passes): step pass rate '))).toBe(true);
    expect(lines.filter((l) => /^ {2}tiny-(catalog|files) /.test(l))).toHaveLength(2);
    expect(lines.join('\n')).not.toContain('Paired metrics');
    expect(lines.slice(-4).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(['Next:', `ladder show ${out}`, `ladder report ${out}`, `ladder compare ${out}`]);
  });

  it('writes the same traces, times aside, when run again with the same seed at another concurrency; --summary full prints the whole comparison', async () => {
    const again = join(base, 'again');
    const full = await quietRun({ ...SMALL, out: again, concurrency: 2, summary: 'full' });
    expect(full.code).toBe(0);
    expect(full.lines.join('\n')).toContain('Paired metrics');
    expect(full.lines.slice(-2)).toEqual([`results: ${again}`, `HTML report with plots: ladder report ${again} (writes ${join(again, 'report.html')})`]);
    const traces = await tracesWithoutTimes(again);
    expect([...traces.keys()]).toHaveLength(8);
    expect(traces).toEqual(await tracesWithoutTimes(out));
  }, RUN_TIMEOUT_MS);

  it('leaves nothing in the temp folder', () => {
    expect(readdirSync(tempBase)).toEqual([]);
  });

  it('splits into shards 0/2 and 1/2 that merge into the whole run', async () => {
    const shard0 = join(base, 'shard-0');
    const shard1 = join(base, 'shard-1');
    const [a, b] = await Promise.all([
      quietRun({ ...SMALL, out: shard0, shard: '0/2' }),
      quietRun({ ...SMALL, out: shard1, shard: '1/2' }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const own = [(await passesIn(shard0)).map((p) => p.id), (await passesIn(shard1)).map((p) => p.id)];
    expect(own[0]).toHaveLength(4);
    expect(own[0]!.some((id) => own[1]!.includes(id))).toBe(false);
    const merged = join(base, 'merged');
    const said: string[] = [];
    expect(await runMerge({ out: merged, shards: [shard0, shard1] }, (line) => said.push(line))).toBe(0);
    expect(said).toEqual([`merged 2 shards into ${merged}: 8 passes`]);
    expect(verdicts(await passesIn(merged))).toEqual(verdicts(passes));
    expect(await manifestOf(merged)).toMatchObject({ status: 'complete', options: { shard: null } });
    expect(existsSync(join(merged, 'summary.json'))).toBe(true);

    const refused: string[] = [];
    expect(await runMerge({ out: join(base, 'half'), shards: [shard0] }, () => undefined, (line) => refused.push(line))).toBe(2);
    expect(refused).toEqual(['ladder merge: missing shard(s) 1/2']);
    const twice: string[] = [];
    expect(await runMerge({ out: join(base, 'twice'), shards: [shard0, shard0] }, () => undefined, (line) => twice.push(line))).toBe(2);
    expect(twice[0]).toMatch(/shard 0\/2 is also /);
    const other: string[] = [];
    expect(await runMerge({ out: join(base, 'other'), shards: [shard0, out] }, () => undefined, (line) => other.push(line))).toBe(2);
    expect(other).toContain(`ladder merge: ${out}: not a shard (it was run without --shard)`);
  }, RUN_TIMEOUT_MS);
});

describe('the results folder', () => {
  it('is the one the report reads: ladder compare runs on it', async () => {
    const { runCompare } = await import('../../src/cli/compare.ts');
    const text: string[] = [];
    expect(await runCompare({ runA: out, format: 'json' }, { out: (t) => text.push(t) })).toBe(0);
    const report = JSON.parse(text.join(''));
    expect(report.comparisons[0].shared.passes).toBe(4);
  });
});

describe('resume', () => {
  it('after SIGKILL midway gives the same passes as an uninterrupted run, none twice', async () => {
    const out = join(base, 'killed');
    const child = spawnRun(out);
    await waitFor(async () => (await completeCount(out)) >= 3, child);
    child.kill('SIGKILL');
    await exited(child);
    // What a kill leaves behind is cleared when the run is resumed.
    expect(existsSync(runTempRoot(out))).toBe(true);
    const before = await passesIn(out);
    expect(before.filter((p) => p.complete).length).toBeGreaterThanOrEqual(3);
    expect(before.filter((p) => p.complete).length).toBeLessThan(8);
    expect((await manifestOf(out)).status).toBe('running');

    const resumed = await quietRun({ out, resume: true });
    expect(resumed.code).toBe(0);
    expect(resumed.lines[1]).toMatch(/^resuming .*killed: 2 rungs x 2 arms \(on, off\) x 2 passes/);
    const after = await passesIn(out);
    expect(verdicts(after)).toEqual(verdicts(passes));
    expect(after.every((p) => p.starts === 1 && p.complete)).toBe(true);
    // Passes complete before the kill were kept as they were, not made again.
    for (const kept of before.filter((p) => p.complete)) expect(after.find((p) => p.id === kept.id)!.time).toBe(kept.time);
    // And every event of the resumed run is the uninterrupted run's, times aside: the
    // conversation, every outcome, every token count, every request hash.
    expect(await tracesWithoutTimes(out)).toEqual(await tracesWithoutTimes(join(base, 'whole')));
    expect((await manifestOf(out)).status).toBe('complete');
    expect(existsSync(runTempRoot(out))).toBe(false);
  }, RUN_TIMEOUT_MS);

  it('after Ctrl-C: in-flight passes removed, status interrupted, exit 130, and --resume completes it', async () => {
    const out = join(base, 'sigint');
    const child = spawnRun(out, 1);
    await waitFor(async () => (await completeCount(out)) >= 1, child);
    child.kill('SIGINT');
    expect(await exited(child)).toEqual({ code: 130, signal: null });
    expect(child.output()).toContain('--resume continues this run');
    expect((await manifestOf(out)).status).toBe('interrupted');
    const left = await passesIn(out);
    expect(left.every((p) => p.complete)).toBe(true);
    expect(left.length).toBeLessThan(4);
    // The pass folders of the aborted passes are gone with them.
    expect(existsSync(runTempRoot(out))).toBe(false);

    expect((await quietRun({ out, resume: true })).code).toBe(0);
    // A one-pass run is the first pass of the two-pass one: same seeds, same outcomes.
    expect(verdicts(await passesIn(out))).toEqual(verdicts(passes.filter((p) => p.id.endsWith('/0'))));
  }, RUN_TIMEOUT_MS);

  it('refuses in one line when the options or the rung files differ from the run', async () => {
    const refuse = async (args: Parameters<typeof quietRun>[0]) => {
      const stderr: string[] = [];
      const write = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((text: string) => (stderr.push(String(text)), true)) as typeof process.stderr.write;
      try {
        expect((await quietRun(args)).code).toBe(2);
      } finally {
        process.stderr.write = write;
      }
      return stderr;
    };
    expect(await refuse({ out, resume: true, passes: 3 })).toEqual([`ladder run: cannot resume ${out}: passes 2 vs 3; start a new run with another --out\n`]);
    expect(await refuse({ out, resume: true, rungs: [FIXTURES[0]!] })).toEqual([
      `ladder run: cannot resume ${out}: rungs ["tiny-catalog","tiny-files"] vs ["tiny-catalog"]; start a new run with another --out\n`,
    ]);
  });
});
