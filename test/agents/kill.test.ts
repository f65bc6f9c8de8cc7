// Ladder killed with SIGKILL mid-step (no handler of its own runs): the agent it started, and
// what that agent started, still go. A stand-in for Ladder runs the real drivers in a process
// of its own, and the test kills it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACP_AGENT, allGoneWithin, alive, EXEC_AGENT, pass, pidsWhenWritten } from './helpers.ts';

const STAND_IN = fileURLToPath(new URL('../fixtures/agents/ladder-stand-in.ts', import.meta.url));

async function killLadderMidStep(file: Record<string, unknown>, prompt: string, pidFile: string): Promise<boolean> {
  using p = pass();
  const ladder = spawn(process.execPath, ['--import', 'tsx', STAND_IN, JSON.stringify({ name: 'test', ...file }), JSON.stringify(p.values), prompt], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(ladder.stdout!, 'data');
  const pids = await pidsWhenWritten(join(p.values.workspace, pidFile));
  expect(pids.every(alive)).toBe(true);
  ladder.kill('SIGKILL');
  // The guard notices within a quarter second; the group gets SIGTERM, then SIGKILL 2 s later.
  return allGoneWithin(pids, 5_000);
}

describe('Ladder killed mid-step', () => {
  it('takes an exec agent and its child with it', async () => {
    expect(await killLadderMidStep({ kind: 'exec', command: process.execPath, args: [EXEC_AGENT, 'hang'] }, 'x', 'pids.txt')).toBe(true);
  });

  it('takes an acp agent and its child with it', async () => {
    expect(await killLadderMidStep({ kind: 'acp', command: process.execPath, args: [ACP_AGENT, '--http'] }, 'hang', 'acp-pids.txt')).toBe(true);
  });
});
