// What `--keep-workspaces` costs and what `ladder rescore` takes: `ladder run` (the built
// command, as a user runs it) on every rung, both arms, synthetic agents at time factor 0.01,
// made without and with kept workspaces one after the other (the order swapped each round, so
// the drift of a shared machine hits both alike; the figure is the median ratio), then the
// last kept run rescored against its own rung files.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rescoreRun } from '../src/report/rescore.ts';
import { ensureBuilt, median, ROOT, round2 } from './processes.ts';

async function timeRun(out: string, passes: number, keep: boolean): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [
    'bin/ladder.js', 'run', '--model', 'synthetic:mix', '--passes', String(passes), '--time-factor', '0.01', '--concurrency', '4',
    '--out', out, ...(keep ? ['--keep-workspaces'] : []),
  ], { cwd: ROOT, stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`bench workspaces: ladder run exited ${code}`);
  return performance.now() - started;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

export async function benchWorkspaces(options: { passes?: number; rounds?: number } = {}): Promise<Record<string, number>> {
  const passes = options.passes ?? 2;
  const rounds = options.rounds ?? 2;
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-ws-'));
  try {
    const ratios: number[] = [];
    let kept = '';
    for (let round = 0; round < rounds; round += 1) {
      const plainOut = join(dir, `plain-${round}`);
      kept = join(dir, `kept-${round}`);
      let plain: number;
      let keep: number;
      if (round % 2 === 0) {
        plain = await timeRun(plainOut, passes, false);
        keep = await timeRun(kept, passes, true);
      } else {
        keep = await timeRun(kept, passes, true);
        plain = await timeRun(plainOut, passes, false);
      }
      ratios.push(keep / plain);
    }
    const sizes = files(join(kept, 'workspaces')).map((f) => statSync(f).size);
    const started = performance.now();
    const rescored = await rescoreRun(kept, { cwd: ROOT });
    return {
      keepWorkspacesTimeRatio: round2(median(ratios)),
      snapshotsPerRun: sizes.length,
      snapshotBytesMean: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length),
      snapshotBytesMax: Math.max(...sizes),
      rescoreMs: Math.round(performance.now() - started),
      rescoreStepRuns: rescored.report.stepRuns,
      rescoreJudged: rescored.report.judged,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
