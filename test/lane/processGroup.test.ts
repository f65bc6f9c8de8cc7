// The guard ends a process's whole group: when the process exits, when Ladder stops it, and
// when Ladder itself is killed. Each test starts a real shell that starts a child of its own,
// and finds both gone afterwards.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnGroup, stopGroup } from '../../src/lane/processGroup.ts';

const GUARD = fileURLToPath(new URL('../../src/lane/groupGuard.js', import.meta.url));

/** Running, not a zombie waiting for whoever adopted it to reap it. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Polls until `pid` is gone, at most `ms`; the kernel reaps re-parented processes on its own time. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

/** A shell that starts `sleep` in the background, prints both pids, then runs `then`. */
const SHELL = (then: string): string[] => ['-c', `sleep 300 & echo "$$ $!"; ${then}`];

async function pidsOf(child: ReturnType<typeof spawnGroup>): Promise<number[]> {
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return chunk.toString().trim().split(' ').map(Number);
}

describe('process groups', () => {
  it('ends the grandchildren when the process exits', async () => {
    const child = spawnGroup('sh', SHELL('exit 3'), { stdio: ['ignore', 'pipe', 'pipe'] });
    const [, sleeper] = await pidsOf(child);
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(3);
    expect(await goneWithin(sleeper!, 2_000)).toBe(true);
  });

  it('ends the whole group when stopped', async () => {
    const child = spawnGroup('sh', SHELL('wait'), { stdio: ['ignore', 'pipe', 'pipe'] });
    const [shell, sleeper] = await pidsOf(child);
    await stopGroup(child);
    expect(await goneWithin(shell!, 2_000)).toBe(true);
    expect(await goneWithin(sleeper!, 2_000)).toBe(true);
  });

  it('says a command is not installed with exit 127 and one line', async () => {
    const child = spawnGroup('ladder-no-such-agent', [], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(127);
    expect(stderr.trim()).toBe('groupGuard: cannot start ladder-no-such-agent: ENOENT');
  });

  it('ends the group when its parent is killed with SIGKILL', async () => {
    // A stand-in for Ladder: a Node process that starts the guard and is then killed.
    const parentScript = `
      const { spawn } = require('node:child_process');
      const guard = spawn(process.execPath, [${JSON.stringify(GUARD)}, String(process.pid), 'sh', '-c', 'sleep 300 & echo "$$ $!"; wait'], { stdio: ['ignore', 'pipe', 'inherit'] });
      guard.stdout.on('data', (c) => process.stdout.write(c));
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [chunk] = (await once(parent.stdout!, 'data')) as [Buffer];
    const [shell, sleeper] = chunk.toString().trim().split(' ').map(Number);
    expect(alive(shell!)).toBe(true);
    parent.kill('SIGKILL');
    expect(await goneWithin(shell!, 5_000)).toBe(true);
    expect(await goneWithin(sleeper!, 5_000)).toBe(true);
  });
});
