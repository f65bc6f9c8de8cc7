// A server a pass starts itself ends with the run, whatever ends the run. Each test runs the
// real command (node bin/ladder.js run) on a rung whose server it starts itself
// (test/fixtures/started-server.mjs), waits until both passes are inside a tool call that never
// answers, ends the run with a signal, and then finds no process of it in `ps`: every process the
// run made names the test's own temp folder in its arguments (the rung file, --out, the pass
// workspaces under TMPDIR). It waits on events: the server's call and its death reach the test
// over the watch connection (test/fixtures/processWatch.ts).
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessWatch } from '../fixtures/processWatch.ts';
import type { Watched } from '../fixtures/processWatch.ts';
import { ROOT } from './helpers.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/started-server.mjs', import.meta.url));
/**
 * What the last server may take to die once the run is gone: the guard polls its parent every
 * 250 ms and gives a group 2 s after SIGTERM; a loaded machine adds seconds, not tens.
 */
const DEATH_BOUND_MS = 15_000;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ladder-started-orphans-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A one-step rung whose server the pass starts, and whose one reference call never returns. */
async function waitingRung(watch: ProcessWatch): Promise<string> {
  const rung = {
    name: 'started-waits', description: 'A started server whose tool never answers.', origin: 'test fixture',
    syntheticPolicy: 'reference',
    servers: {
      s: {
        url: 'http://127.0.0.1:{port}/mcp',
        start: { command: 'node', args: [FIXTURE, '{port}', '--workspace', '{workspace}'], env: watch.env },
      },
    },
    steps: [{ prompt: 'Wait.', ceiling: 2, checks: [{ called: 's__wait' }], reference: { calls: [{ tool: 's__wait' }], answer: 'Waited.' } }],
  };
  const file = join(dir, `started-waits-${process.hrtime.bigint()}.yaml`);
  await writeFile(file, JSON.stringify(rung)); // JSON is YAML
  return file;
}

/** `node bin/ladder.js run`, both arms of one pass at once, its temp folders in the test's own. */
function startRun(rung: string): ChildProcess {
  return spawn(process.execPath, [
    'bin/ladder.js', 'run', rung, '--model', 'synthetic:reference', '--passes', '1', '--concurrency', '2',
    '--out', join(dir, `run-${process.hrtime.bigint()}`),
  ], { cwd: ROOT, stdio: ['ignore', 'ignore', 'ignore'], env: { ...process.env, TMPDIR: dir } });
}

/** Lines of `ps -eo pid,ppid,args` naming `text`, besides ps's own. */
function processesMentioning(text: string): string[] {
  return execFileSync('ps', ['-eo', 'pid,ppid,args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(text) && !/\bps -eo\b/.test(line));
}

/**
 * `ps` until it names `text` no more, at most 5 s: a guard exits just after its server, so the
 * server's death can reach the test a moment before the guard's own.
 */
async function goneFromPs(text: string): Promise<string[]> {
  const until = Date.now() + 5_000;
  let left = processesMentioning(text);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = processesMentioning(text);
  }
  return left;
}

/** Waits for every watched process to die, at most DEATH_BOUND_MS; the pids still alive then. */
async function diedWithin(watched: readonly Watched[]): Promise<number[]> {
  const dead = new Set<number>();
  await Promise.race([
    Promise.all(watched.map((w) => w.closed.then(() => dead.add(w.pid)))),
    new Promise((resolve) => setTimeout(resolve, DEATH_BOUND_MS)),
  ]);
  return watched.map((w) => w.pid).filter((pid) => !dead.has(pid));
}

describe('a server the pass started does not outlive the run it belongs to', () => {
  it.each([
    ['SIGKILL', 'nothing in Ladder runs: the guard sees its parent gone'],
    ['SIGTERM', 'Ladder has no handler and dies at once, as with SIGKILL'],
    ['SIGINT', 'Ctrl-C: the passes are interrupted and stop their servers'],
  ] as const)('%s of `ladder run` mid-pass (%s)', async (signal, _why) => {
    await using watch = await ProcessWatch.start();
    const run = startRun(await waitingRung(watch));
    const ended = once(run, 'exit');
    const servers = await watch.arrivals(2);
    // Both passes are inside their call: the servers are ready and the lane connected.
    await watch.heard('called wait', 2);
    const before = processesMentioning(dir);
    for (const { pid } of servers) expect(before.some((line) => line.trim().startsWith(`${pid} `)), before.join('\n')).toBe(true);
    run.kill(signal);
    await ended;
    expect(await diedWithin(servers)).toEqual([]);
    expect(await goneFromPs(dir)).toEqual([]);
  }, 90_000);
});
