// No server outlives what started it. Every server here is the workbench as a pass starts it,
// with a start-up that hangs before it reads stdin (test/fixtures/hang-at-start.mjs), so
// closing stdin alone would not end it. Each situation that ends a pass or a run is made to
// happen while such servers are starting; the test then waits for each server's death (the
// close of the connection it holds to the watch) and checks it by pid. Nothing here waits on
// a clock: the connect timeout runs on fake timers, the rest on process events.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Lane } from '../../src/lane/index.ts';
import { WORKBENCH_ENTRY } from '../../src/runner/servers.ts';
import { allGone, gone, HANG_AT_START, hungWorkbench, ProcessWatch } from '../fixtures/processWatch.ts';
import { ROOT } from './helpers.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ladder-orphans-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => void vi.useRealTimers());

/** A one-step rung whose only server is a workbench that hangs at start-up. */
async function hungRung(watch: ProcessWatch): Promise<string> {
  const args = ['--import', HANG_AT_START, ...WORKBENCH_ENTRY, '{"workspace":"{workspace}"}'];
  const rung = {
    name: 'hung-server', description: 'A server that never finishes starting.', origin: 'test fixture',
    servers: { hung: { command: 'node', args, env: watch.env } },
    steps: [{ prompt: 'List the files.', ceiling: 2, checks: [{ called: 'hung__files_list' }],
      reference: { calls: [{ tool: 'hung__files_list' }], answer: 'Listed.' } }],
  };
  const file = join(dir, `hung-${process.hrtime.bigint()}.yaml`);
  await writeFile(file, JSON.stringify(rung)); // JSON is YAML
  return file;
}

/** `ladder run` from the sources in a process of its own: both arms of one pass, started together. */
function startRun(rung: string): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [
    '--import', 'tsx', 'src/cli/main.ts', 'run', rung, '--model', 'synthetic:reference', '--passes', '1', '--concurrency', '2',
    '--out', join(dir, `run-${process.hrtime.bigint()}`),
  ], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return Object.assign(child, { output: () => text });
}

const exited = (child: ChildProcess) => once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

describe('a server that hangs at start-up does not outlive', () => {
  it('a connect timeout: the lane stops it before connect returns', async () => {
    await using watch = await ProcessWatch.start();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const connecting = Lane.connect({ servers: { wb: hungWorkbench(watch.env, dir) }, connectTimeoutMs: 5_000 });
    const started = await watch.arrivals(1);
    await vi.advanceTimersByTimeAsync(5_000);
    const lane = await connecting;
    expect(lane.startErrors.map((e) => e.message)).toEqual([expect.stringMatching(/^server "wb" did not start .*timed out/i)]);
    // Dead already: connect waited for the process to exit before it returned.
    expect(started.filter((w) => !gone(w.pid))).toEqual([]);
    expect(await allGone(started)).toEqual([]);
    await lane.close();
  });

  it('an abort: servers still starting are stopped and listed as not started', async () => {
    await using watch = await ProcessWatch.start();
    const abort = new AbortController();
    const connecting = Lane.connect({
      servers: { a: hungWorkbench(watch.env, dir), b: hungWorkbench(watch.env, dir) }, connectTimeoutMs: 600_000, signal: abort.signal,
    });
    const started = await watch.arrivals(2);
    abort.abort();
    const lane = await connecting;
    expect(lane.startErrors.map((e) => e.server).sort()).toEqual(['a', 'b']);
    expect(started.filter((w) => !gone(w.pid))).toEqual([]);
    expect(await allGone(started)).toEqual([]);
    await lane.close();
  });

  it('Ctrl-C of a run: the passes starting them are interrupted and the run exits 130', async () => {
    await using watch = await ProcessWatch.start();
    const run = startRun(await hungRung(watch));
    const ended = exited(run);
    const started = await watch.arrivals(2);
    run.kill('SIGINT');
    expect((await ended)[0]).toBe(130);
    expect(run.output()).toContain('interrupted: 0/2 passes complete');
    expect(await allGone(started)).toEqual([]);
  }, 60_000);

  it('SIGKILL of a run: they exit on their own once their parent is gone', async () => {
    await using watch = await ProcessWatch.start();
    const run = startRun(await hungRung(watch));
    const ended = exited(run);
    const started = await watch.arrivals(2);
    run.kill('SIGKILL');
    expect((await ended)[1]).toBe('SIGKILL');
    expect(await allGone(started)).toEqual([]);
  }, 60_000);

  it('a failing test: they exit when the test process ends', async () => {
    await using watch = await ProcessWatch.start();
    const vitest = spawn(process.execPath, [
      'node_modules/vitest/vitest.mjs', 'run', '--config', 'test/fixtures/orphans/vitest.config.ts', '--reporter', 'dot',
    ], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...watch.env } });
    let output = '';
    vitest.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    vitest.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ended = exited(vitest);
    // Two servers and the test's own process, which fails when told to.
    const started = await watch.arrivals(3);
    watch.say('fail now');
    expect((await ended)[0], output).toBe(1);
    expect(output).toContain('fails on purpose');
    expect(await allGone(started)).toEqual([]);
  }, 90_000);
});
