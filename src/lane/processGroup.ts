// Processes Ladder starts that must not outlive it, whatever ends it: each runs behind
// groupGuard.js (see there), which makes it a process group's leader and ends the whole group
// when the process exits, when Ladder stops it, or when Ladder is gone (SIGKILL included).
import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PACKAGE_ROOT } from './install.ts';

/** By the package's root, not this module's URL: the built CLI is one bundle in dist/. */
const GUARD = join(PACKAGE_ROOT, 'src', 'lane', 'groupGuard.js');
/** The guard's own grace for the group (GRACE_MS there) and a second for it to exit. */
const STOP_WAIT_MS = 3_000;

export type GroupSpawnOptions = Pick<SpawnOptions, 'cwd' | 'env' | 'stdio'>;

/**
 * Starts `command args` behind the guard. The returned process is the guard's: its stdio is
 * the command's, its exit code the command's (127: not found, 126: could not start).
 */
export function spawnGroup(command: string, args: readonly string[], options: GroupSpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, [GUARD, String(process.pid), command, ...args], options);
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Ends the group (SIGTERM, then SIGKILL) and resolves once the guard has exited. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const ended = await Promise.race([gone.then(() => true), delay(STOP_WAIT_MS).then(() => false)]);
  if (!ended) {
    // A guard that did not exit is stuck; its group may live on, but Ladder does not wait forever.
    child.kill('SIGKILL');
    await gone;
  }
}
