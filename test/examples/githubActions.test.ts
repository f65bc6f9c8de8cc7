// The example workflow (examples/github-actions/ladder.yml): its structure, its commands
// against the real command line, and its shard, merge and compare steps run here as written
// (with `npx ladder` the checkout's own bin, a small battery in LADDER_RUN, and the artifact
// actions done by copying), checked against the same run made in one piece.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yargs from 'yargs';
import type { CommandModule } from 'yargs';
import { parse } from 'yaml';
import { compareCommand, runCompare } from '../../src/cli/compare.ts';
import { mergeCommand } from '../../src/cli/merge.ts';
import { runCommand } from '../../src/cli/run.ts';
import { FIXTURES, passesIn, quietRun, removeTempDirs, ROOT, tempDir, tracesWithoutTimes, verdicts } from '../runner/helpers.ts';

afterAll(removeTempDirs);

const FILE = join(ROOT, 'examples/github-actions/ladder.yml');
const text = readFileSync(FILE, 'utf8');

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  'continue-on-error'?: boolean;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  strategy?: { 'fail-fast'?: boolean; matrix: { shard: number[] } };
  steps: Step[];
}
const workflow = parse(text) as { on: Record<string, unknown>; permissions: Record<string, string>; env: Record<string, string>; jobs: Record<string, Job> };
const { shard, merge } = workflow.jobs as { shard: Job; merge: Job };
const step = (job: Job, id: string): Step => job.steps.find((s) => s.id === id)!;

/** A GitHub expression's value in the context given; one the test does not know fails it. */
function substitute(script: string, context: Record<string, string | number>): string {
  return script.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    if (!(expr in context)) throw new Error(`the workflow uses \${{ ${expr} }}, which this test does not know`);
    return String(context[expr]);
  });
}

/** What a glob of download-artifact's `pattern` matches. */
const globMatches = (glob: string, name: string) => new RegExp(`^${glob.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(name);

/** The error yargs gives for a `ladder` command line, parsed by the real commands (never run), or undefined. */
async function cliProblem(argv: string[]): Promise<string | undefined> {
  const inert = <T>(command: CommandModule<object, T>) => ({ ...command, handler: () => undefined });
  let problem: string | undefined;
  await yargs(argv).scriptName('ladder').command(inert(runCommand)).command(inert(mergeCommand)).command(inert(compareCommand))
    .demandCommand(1).strict().exitProcess(false).fail((message, error) => void (problem = message ?? error?.message)).parseAsync();
  return problem;
}

describe('the workflow file', () => {
  it('runs on pull requests and pushes, reading the code and nothing more by default', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push', 'workflow_dispatch']);
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(Object.keys(workflow.jobs)).toEqual(['shard', 'merge']);
  });

  it('runs a matrix of shards 0..n-1 that all finish, and merges after them with the permissions it explains', () => {
    const shards = shard.strategy!.matrix.shard;
    expect(shards).toEqual(shards.map((_, i) => i));
    expect(shards.length).toBeGreaterThan(1);
    expect(shard.strategy!['fail-fast']).toBe(false);
    expect(shard.permissions).toBeUndefined();
    expect(merge.needs).toBe('shard');
    expect(merge.permissions).toEqual({ contents: 'read', 'pull-requests': 'write', actions: 'read' });
  });

  it('pins every action to a commit, with its version beside it', () => {
    const uses = [...shard.steps, ...merge.steps].flatMap((s) => (s.uses === undefined ? [] : [s.uses]));
    expect(uses.length).toBeGreaterThan(4);
    for (const action of uses) {
      expect(action).toMatch(/^actions\/[a-z-]+@[0-9a-f]{40}$/);
      expect(text).toMatch(new RegExp(`uses: ${action.replace('/', '\\/')} # v\\d+\\.\\d+\\.\\d+\\n`));
    }
  });

  it('uploads each shard under a name the merge job downloads, and merges what it downloaded', () => {
    const upload = shard.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    const download = merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    for (const n of shard.strategy!.matrix.shard) {
      const name = substitute(String(upload.with!['name']), { 'matrix.shard': n });
      expect(globMatches(String(download.with!['pattern']), name)).toBe(true);
      expect(substitute(String(upload.with!['path']), { 'matrix.shard': n })).toBe(
        substitute(step(shard, 'run').run!, { 'matrix.shard': n, 'strategy.job-index': n, 'strategy.job-total': 4 }).match(/--out (\S+)/)![1]);
    }
    expect(upload.with!['if-no-files-found']).toBe('error');
    expect(step(merge, 'merge').run).toContain(`${download.with!['path']}/${download.with!['pattern']}`);
  });

  it('posts the Markdown comparison where a failed comment cannot stop the gate, and gates last', () => {
    const ids = merge.steps.map((s) => s.id);
    expect(step(merge, 'compare').run).toMatch(/npx ladder compare .*--format md/);
    expect(step(merge, 'compare').run).toContain('>> "$GITHUB_STEP_SUMMARY"');
    expect(step(merge, 'comment')).toMatchObject({ if: "github.event_name == 'pull_request'", 'continue-on-error': true });
    expect(step(merge, 'gate').run).toMatch(/npx ladder compare .*--fail-if-worse/);
    expect(ids.indexOf('compare')).toBeLessThan(ids.indexOf('comment'));
    expect(ids.at(-1)).toBe('gate');
  });

  it('calls ladder only with commands and flags the command line has', async () => {
    const context = { 'matrix.shard': 1, 'strategy.job-index': 1, 'strategy.job-total': 4 };
    const lines = [...shard.steps, ...merge.steps].flatMap((s) => (s.run ?? '').split('\n')).filter((l) => l.includes('npx ladder'));
    expect(lines.length).toBe(4);
    for (const line of lines) {
      const command = substitute(line, context).replace(/^.*?npx ladder /, '').replace(/\s*>.*$/, '')
        .replace('$LADDER_RUN', workflow.env['LADDER_RUN']!).replace(/\$runs|\$COMPARE_RUNS/, 'baseline results/merged');
      const argv = command.split(/\s+/).filter(Boolean);
      expect(await cliProblem(argv), line).toBeUndefined();
    }
    // The check can fail: a flag the command line does not have is refused.
    expect(await cliProblem(['run', '--shards', '0/4'])).toMatch(/Unknown argument/);
  });
});

const TIME_FACTOR = 0.1;

describe('the workflow run here', () => {
  let dir: string;
  let whole: string;
  /**
   * The battery each shard runs: two fixture rungs, synthetic agents, fast. Time factor 0.1, not
   * 0.01: the two runs are compared trace for trace, and at 0.01 the workbench's calls time out
   * at the SDK's 60 s scaled to 0.6 s (its floor), which a loaded 2-core machine overran in one run
   * and not the other (a load average of 46). At 0.1 the bound is 6 s and the fixtures still have
   * no wait that takes it.
   */
  const battery = `${FIXTURES.map((f) => join(ROOT, f)).join(' ')} --model synthetic:mix --passes 2 --seed 5 --time-factor ${TIME_FACTOR}`;
  const env: Record<string, string> = {};

  beforeAll(async () => {
    dir = await tempDir('ladder-actions-');
    whole = join(await tempDir('ladder-actions-whole-'), 'whole');
    // `npx ladder` in a checkout is its own bin.
    mkdirSync(join(dir, '.bin'));
    writeFileSync(join(dir, '.bin', 'npx'), `#!/bin/sh\n[ "$1" = ladder ] || { echo "npx $1: not in this test" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${join(ROOT, 'bin/ladder.js')}" "$@"\n`);
    chmodSync(join(dir, '.bin', 'npx'), 0o755);
    Object.assign(env, {
      PATH: `${join(dir, '.bin')}:${process.env['PATH']}`, HOME: process.env['HOME'] ?? dir, LADDER_RUN: battery, LADDER_MODEL: '',
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_ENV: join(dir, 'github.env'),
    });
    writeFileSync(env['GITHUB_STEP_SUMMARY']!, '');
    writeFileSync(env['GITHUB_ENV']!, '');
    expect((await quietRun({ rungs: FIXTURES, model: 'synthetic:mix', passes: 2, seed: 5, timeFactor: TIME_FACTOR, out: whole })).code).toBe(0);
  }, 120_000);

  /** One `run:` step as the runner runs it (bash -eo pipefail), then its GITHUB_ENV lines taken in. */
  async function runStep(script: string): Promise<{ code: number | null; output: string }> {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    for (const line of readFileSync(env['GITHUB_ENV']!, 'utf8').split('\n').filter(Boolean)) {
      const at = line.indexOf('=');
      env[line.slice(0, at)] = line.slice(at + 1);
    }
    return { code, output };
  }

  /** The merge job's steps after the download, for an event; steps that talk to GitHub (gh) are the runner's, not ours. */
  async function mergeJob(event: string): Promise<Record<string, { code: number | null; output: string }>> {
    const results: Record<string, { code: number | null; output: string }> = {};
    for (const s of merge.steps) {
      if (s.run === undefined || s.run === 'npm ci' || s.run.includes('gh ')) continue;
      if (s.if !== undefined && !(s.if === "github.event_name == 'pull_request'" && event === 'pull_request')) continue;
      results[s.id!] = await runStep(substitute(s.run, { 'github.event_name': event }));
      if (results[s.id!]!.code !== 0) break;
    }
    return results;
  }

  it('shards, merges and compares into the run made in one piece, pass for pass', async () => {
    const shards = shard.strategy!.matrix.shard;
    const upload = shard.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    const download = merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    // Two shards at a time: the 2-core machine.
    for (let i = 0; i < shards.length; i += 2) {
      const results = await Promise.all(shards.slice(i, i + 2).map((n) =>
        runStep(substitute(step(shard, 'run').run!, { 'matrix.shard': n, 'strategy.job-index': n, 'strategy.job-total': shards.length }))));
      for (const r of results) expect(r.code, r.output).toBe(0);
    }
    // upload-artifact, then download-artifact with a pattern: each artifact in a folder of its name.
    for (const n of shards) {
      const name = substitute(String(upload.with!['name']), { 'matrix.shard': n });
      cpSync(join(dir, substitute(String(upload.with!['path']), { 'matrix.shard': n })), join(dir, String(download.with!['path']), name), { recursive: true });
    }

    const job = await mergeJob('push');
    expect(Object.keys(job)).toEqual(['merge', 'compare', 'gate']);
    for (const [id, r] of Object.entries(job)) expect(r.code, `${id}: ${r.output}`).toBe(0);
    const merged = join(dir, 'results/merged');
    expect(verdicts(await passesIn(merged))).toEqual(verdicts(await passesIn(whole)));
    expect(await tracesWithoutTimes(merged)).toEqual(await tracesWithoutTimes(whole));

    // The summary is the comparison of the merged run's arms: every figure but the times is the whole run's.
    const summary = readFileSync(env['GITHUB_STEP_SUMMARY']!, 'utf8');
    let expected = '';
    expect(await runCompare({ runA: whole, format: 'md' }, { out: (t) => (expected += t), err: () => undefined })).toBe(0);
    const figures = (md: string) => md.split('\n').filter((l) => l.startsWith('| ') && !/time|\d ms\b/.test(l));
    expect(summary).toContain('# Ladder comparison of the arms of merged');
    expect(figures(summary).length).toBeGreaterThan(8);
    expect(figures(summary)).toEqual(figures(expected));
  }, 480_000);

  it('on a pull request compares against the base branch\'s run when there is one, and the gate fails the job when compare does', async () => {
    cpSync(whole, join(dir, 'baseline'), { recursive: true });
    writeFileSync(env['GITHUB_STEP_SUMMARY']!, '');
    // ladder merge makes a new folder: the pull request's job starts from the shards again.
    rmSync(join(dir, 'results/merged'), { recursive: true, force: true });
    const job = await mergeJob('pull_request');
    for (const [id, r] of Object.entries(job)) expect(r.code, `${id}: ${r.output}`).toBe(0);
    expect(env['COMPARE_RUNS']).toBe('baseline results/merged');
    expect(readFileSync(env['GITHUB_STEP_SUMMARY']!, 'utf8')).toMatch(/^# Ladder comparison: merged \(B\) against whole \(A\)/);
    // Nothing swallows the gate's exit code.
    env['COMPARE_RUNS'] = 'no-such-run';
    expect((await runStep(step(merge, 'gate').run!)).code).toBe(2);
  }, 120_000);

});
